// An installed twinsched's consumer: its own workload, run on real threads and then on a simulated 4-core machine.
#include <cstdio>
#include <memory>
#include <vector>

#include "runtime/run_threads.hpp"
#include "scenarios/scenario_loader.hpp"
#include "sim/run_sim.hpp"

using namespace twinsched;

// Each actor passes the countdown to the next; the checksum counts deliveries.
struct relay final : behavior {
  actor_ref next;
  std::uint64_t seen = 0;
  void receive(context& ctx, const message& m) override {
    ++seen;
    if (m.a > 0) ctx.send(next, message{m.a - 1});
  }
};

struct relay_ring final : workload {
  std::uint64_t from;
  std::vector<relay*> members;
  explicit relay_ring(const workload_params& p) : from(std::uint64_t(p.integer("from"))) {}
  void start(context& ctx) override {
    std::vector<actor_ref> refs;
    for (int i = 0; i < 8; ++i) {
      auto b = std::make_unique<relay>();
      members.push_back(b.get());
      refs.push_back(ctx.spawn(std::move(b)));
    }
    for (std::size_t i = 0; i < refs.size(); ++i) members[i]->next = refs[(i + 1) % refs.size()];
    ctx.send(refs[0], message{from});
  }
  std::uint64_t checksum() const override {
    std::uint64_t n = 0;
    for (auto* m : members) n += m->seen;
    return n;
  }
  std::uint64_t reference_checksum() const override { return from + 1; }
  std::uint64_t expected_messages() const override { return from + 1; }
};

int main() {
  register_workload({"relay-ring", "eight actors pass a countdown",
                     {{"from", std::int64_t(500), "first value"}},
                     [](const workload_params& p, std::uint64_t) { return std::make_unique<relay_ring>(p); }});
  scenario s = load_scenario_text("[workload]\nkind = \"relay-ring\"\n[scheduler]\npolicy = \"stealing\"\nworkers = 2\n",
                                  "consumer.toml");
  run_result real = run_on_threads(s);
  sim_options o;
  o.cores = 4;
  s.sched.workers = 4;
  sim_result sim = simulate(s, o);
  std::printf("consumer: real %llu messages %s, sim %llu messages on %u cores %s\n",
              (unsigned long long)real.messages, real.ok() ? "OK" : "FAIL", (unsigned long long)sim.run.messages,
              sim.cores, sim.ok() ? "OK" : "FAIL");
  return real.ok() && sim.ok() ? 0 : 1;
}
