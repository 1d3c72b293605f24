// A user-defined workload: a ring of actors passes a countdown, registered by name and run from scenario text.
#include <cstdio>
#include <memory>
#include <vector>

#include "runtime/run_threads.hpp"
#include "scenarios/scenario_loader.hpp"

using namespace twinsched;

// A behavior: what one actor does with a message. It never blocks.
struct ring_member final : behavior {
  actor_ref next;
  std::uint64_t seen = 0;
  void receive(context& ctx, const message& m) override {
    ++seen;
    if (m.a > 0) ctx.send(next, message{m.a - 1});  // pass the countdown on
  }
};

// A workload: which actors exist, what starts them, and a checksum a plain loop can predict.
struct countdown final : workload {
  std::uint64_t actors, from;
  std::vector<ring_member*> members;
  explicit countdown(const workload_params& p) : actors(std::uint64_t(p.integer("actors"))), from(std::uint64_t(p.integer("from"))) {}
  void start(context& ctx) override {
    std::vector<actor_ref> refs;
    for (std::uint64_t i = 0; i < actors; ++i) {
      auto made = ctx.spawn_as<ring_member>({});  // the new actor, and its behavior
      members.push_back(&made.behavior);
      refs.push_back(made);
    }
    for (std::uint64_t i = 0; i < actors; ++i) members[i]->next = refs[(i + 1) % actors];
    ctx.send(refs[0], message{from});
  }
  std::uint64_t checksum() const override {
    std::uint64_t total = 0;
    for (auto* m : members) total += m->seen;
    return total;
  }
  std::uint64_t reference_checksum() const override { return from + 1; }
  std::uint64_t expected_messages() const override { return from + 1; }
};

int main() {
  register_workload({"countdown", "a ring of actors passes a countdown",
                     {{"actors", std::int64_t(100), "actors in the ring"}, {"from", std::int64_t(1000), "first value"}},
                     [](const workload_params& p, std::uint64_t) { return std::make_unique<countdown>(p); }});
  scenario s = load_scenario_text(R"(
    name = "countdown-example"
    [workload]
    kind = "countdown"
    from = 100000
    [scheduler]
    policy = "stealing"
    workers = 2
  )", "<example>");
  run_result r = run_on_threads(s);
  std::printf("%s: %llu messages, checksum %s\n", s.name.c_str(), (unsigned long long)r.messages, r.ok() ? "OK" : "FAIL");
  return r.ok() ? 0 : 1;
}
