// The schedule flags of `sim` and `explore` (schedule_flags.hpp).
#include "cli/schedule_flags.hpp"

#include <stdexcept>

#include <CLI/CLI.hpp>

#include "cli/option_checks.hpp"
#include "cli/scenario_flags.hpp"

namespace twinsched::cli {
namespace {

/// "200..50000" -> {200, 50000}; throws std::invalid_argument.
std::pair<double, double> parse_delays(const std::string& text) {
  auto dots = text.find("..");
  if (dots == std::string::npos) throw std::invalid_argument("no '..'");
  double lo = parse_decimal(text.substr(0, dots), false), hi = parse_decimal(text.substr(dots + 2), false);
  if (hi < lo) throw std::invalid_argument("max below min");
  return {lo, hi};
}

}  // namespace

void schedule_flags::add_to(CLI::App& cmd, bool explore) {
  for_explore = explore;
  strategy_opt = cmd.add_option("--strategy", spec.strategy,
                                "How to preempt workers at platform operations: random (each operation with "
                                "probability --p), pct (--depth - 1 long preemptions at random points, after PCT), "
                                "list (exactly --preemptions).")
                     ->type_name("S")
                     ->check(CLI::IsMember({"random", "pct", "list"}));
  seed_opt = takes_whole(cmd.add_option("--schedule", spec.seed,
                                        for_explore ? "The first schedule seed to try (then +1, +2, ...)."
                                                    : "Schedule seed: perturb this simulation as `explore` did for "
                                                      "that seed (with --strategy, default random).")
                             ->type_name("SEED"),
                         0, UINT64_MAX);
  p_opt = takes(cmd.add_option("--p", spec.p, "random: probability of a preemption at each platform operation.")
            ->type_name("P")
            ->capture_default_str(),
        "a probability in [0, 1]", [](const std::string& t) {
          if (parse_decimal(t, true) > 1) throw std::invalid_argument("above 1");
        });
  depth_opt = takes_whole(cmd.add_option("--depth", spec.depth, "pct: the bug depth d (d - 1 change points).")->type_name("D")->capture_default_str(),
              1, 64);
  delay_opt = takes(cmd.add_option("--delay", delay_text,
                       "Preemption length range in simulated ns, MIN..MAX (random: drawn log-uniformly from it; pct: "
                       "MAX..20*MAX). Default 200..50000.")
            ->type_name("MIN..MAX"),
        "MIN..MAX simulated ns, 0 < MIN <= MAX", [](const std::string& t) { parse_delays(t); });
  takes_parsed(cmd.add_option("--preemptions", preemptions_text,
                              "list: the preemptions, WORKER:OPERATION:DELAY_NS,... (what explore --shrink prints).")
                   ->type_name("LIST"),
               [](const std::string& t) { parse_preemptions(t); });
}

schedule_spec schedule_flags::resolve() const {
  schedule_spec s = spec;
  if (!delay_text.empty()) std::tie(s.min_delay_ns, s.max_delay_ns) = parse_delays(delay_text);
  if (!preemptions_text.empty()) {
    s.list = parse_preemptions(preemptions_text);
    if (!given(strategy_opt)) s.strategy = "list";
  } else if (given(seed_opt) && !given(strategy_opt)) {
    s.strategy = "random";
  }
  if (s.strategy == "list" && preemptions_text.empty()) throw std::invalid_argument("--strategy list needs --preemptions");
  if (s.strategy == "none" && for_explore) s.strategy = "random";
  // a knob the schedule does not read is refused, not ignored
  auto unused = [&](const CLI::Option* o, const std::string& flag, const std::string& applies) {
    if (!given(o)) return;
    if (s.strategy == "none")
      throw std::invalid_argument(flag + " perturbs a schedule, and none is asked for: add --schedule SEED (" + applies + ")");
    throw std::invalid_argument(flag + " does not apply to --strategy " + s.strategy + " (" + applies + ")");
  };
  if (s.strategy != "random") unused(p_opt, "--p", "it is random's probability");
  if (s.strategy != "pct") unused(depth_opt, "--depth", "it is pct's depth");
  if (s.strategy != "random" && s.strategy != "pct") unused(delay_opt, "--delay", "random and pct draw delays from it");
  return s;
}

}  // namespace twinsched::cli
