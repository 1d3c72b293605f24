// A user's own program with the whole twinsched command line: it registers its workload, then
// hands main() to cli_main, so `own_command run|sim|diff|replay|explore|sweep|report ...` work on
// scenario files whose [workload] kind is "scatter-gather" (examples/scatter-gather.toml).
#include <cstdint>
#include <memory>
#include <vector>

#include "cli/cli_main.hpp"
#include "models/workload/workload.hpp"

using namespace twinsched;

enum tags : std::uint32_t { begin, job, answer };

// A helper squares the number it is sent and answers the sender.
struct squarer final : behavior {
  std::uint64_t cost_ns;
  explicit squarer(std::uint64_t c) : cost_ns(c) {}
  void receive(context& ctx, const message& m) override {
    ctx.burn_ns(cost_ns);
    ctx.send(actor_ref(m.sender), message{m.a * m.a, 0, answer});
  }
};

// The coordinator scatters 1..jobs over the helpers and sums the squares that come back.
struct coordinator final : behavior {
  std::vector<actor_ref> helpers;
  std::uint64_t jobs, sum = 0;
  explicit coordinator(std::uint64_t j) : jobs(j) {}
  void receive(context& ctx, const message& m) override {
    if (m.tag == begin)
      for (std::uint64_t i = 1; i <= jobs; ++i) ctx.send(helpers[i % helpers.size()], message{i, 0, job});
    else
      sum += m.a;  // an answer
  }
};

struct scatter_gather final : workload {
  std::uint64_t helpers, jobs, cost_ns;
  coordinator* boss = nullptr;
  explicit scatter_gather(const workload_params& p)
      : helpers(std::uint64_t(p.integer("helpers"))), jobs(std::uint64_t(p.integer("jobs"))),
        cost_ns(std::uint64_t(p.integer("cost_ns"))) {}
  void start(context& ctx) override {
    auto made = ctx.spawn_as<coordinator>({.name = "coordinator"}, jobs);
    boss = &made.behavior;
    for (std::uint64_t i = 0; i < helpers; ++i) boss->helpers.push_back(ctx.spawn_as<squarer>({}, cost_ns));
    ctx.send(made, message{0, 0, begin});
  }
  std::uint64_t checksum() const override { return boss->sum; }
  std::uint64_t reference_checksum() const override { return jobs * (jobs + 1) * (2 * jobs + 1) / 6; }
  std::uint64_t expected_messages() const override { return 1 + 2 * jobs; }
};

int main(int argc, char** argv) {
  register_workload({"scatter-gather", "a coordinator scatters squaring jobs over helpers and sums the answers",
                     {{"helpers", std::int64_t(4), "helper actors"},
                      {"jobs", std::int64_t(10000), "numbers to square", 1, 2'000'000},
                      {"cost_ns", std::int64_t(200), "nanoseconds of work per square", 0}},
                     [](const workload_params& p, std::uint64_t) { return std::make_unique<scatter_gather>(p); }});
  return cli_main(argc, argv);
}
