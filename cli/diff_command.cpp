// `twinsched diff A B`: two traces of the same scenario compared: metrics, logical equivalence, first divergence.
#include <CLI/CLI.hpp>
#include <cstddef>
#include <iostream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "traces/diff.hpp"
#include "traces/diff_json.hpp"
#include "traces/diff_text.hpp"
#include "traces/trace_reader.hpp"

namespace twinsched::cli {
namespace {

struct diff_cli {
  std::string a, b, tolerance;
  bool json = false, events = false;
  std::size_t context = 3;
};

int diff(const diff_cli& o) {
  traces::trace_reader a(o.a), b(o.b);
  traces::diff_options opt;
  if (!o.tolerance.empty()) opt.tolerance = parse_tolerance(o.tolerance);
  opt.events = o.events;
  opt.context = o.context;
  traces::diff_report d = traces::diff_traces(a, b, opt);
  if (o.json)
    std::cout << traces::diff_json(d).dump(2) << '\n';
  else
    traces::print_diff(std::cout, d);
  return d.exit_code();
}

constexpr const char* diff_footer =
    R"(Works for any two traces of the same workload: real vs simulated, policy X vs policy Y,
run vs run. Metrics come from each trace's footer and one pass over its events; the
queueing delay (send -> message begin) needs --trace-level full. Logical equivalence
compares every actor's delivery count, the runs' checksums (every stock workload folds each
delivered payload and its receiver into its checksum) and, where both traces are full-level,
every actor's payload digest, which names the actor whose payloads differ. The first diverging event is
looked for when both traces are simulations (deterministic), or with --events; its event
times are since the run began (each trace's first event), the time zero of trace step,
report, analyze and export perfetto too.
Examples:
  twinsched run forward --trace a.tst
  twinsched run forward --policy shared-queue --trace b.tst
  twinsched diff a.tst b.tst --tolerance 10%
  twinsched diff a.tst b.tst --json | jq '.metrics[] | select(.over_tolerance)'
Exit codes: 0 logically equivalent and within the tolerance, 1 a logical difference or a
metric over the tolerance, 2 a file is not a readable trace.)";

}  // namespace

/// "10%", "10" (a number above 1 is a percentage) or "0.1" -> 0.1.
double parse_tolerance(const std::string& s) {
  std::string t = s;
  const bool percent = !t.empty() && t.back() == '%';
  if (percent) t.pop_back();
  const double v = parse_decimal(t, true);  // throws std::invalid_argument
  return percent || v > 1 ? v / 100 : v;
}

CLI::Option* takes_tolerance(CLI::Option* opt) {
  return takes(opt, "a percentage such as 10% or a fraction such as 0.1",
               [](const std::string& text) { parse_tolerance(text); });
}

void add_diff_command(CLI::App& app, action& chosen) {
  auto o = std::make_shared<diff_cli>();
  CLI::App* cmd = app.add_subcommand(
      "diff",
      "Compare two traces: headline metrics side by side with absolute and relative differences, "
      "per-actor logical equivalence, and for two simulations the first event where they part ways.");
  cmd->footer(diff_footer);
  cmd->add_option("a", o->a, "First trace (.tst), the baseline.")->required()->type_name("A");
  cmd->add_option("b", o->b, "Second trace (.tst).")->required()->type_name("B");
  takes_tolerance(cmd->add_option("--tolerance", o->tolerance,
                                  "Exit with code 1 when a headline metric (makespan, throughput, busy share, steals, "
                                  "donations, migrations, wake-ups, queueing percentiles) differs by more than this: "
                                  "10%, 10 or 0.1.")
                      ->type_name("PCT"));
  cmd->add_flag("--json", o->json, "Print the comparison as one JSON object.");
  cmd->add_flag("--events", o->events,
                "Look for the first diverging event even when the traces are not both simulations.");
  takes_whole(cmd->add_option("--context", o->context, "Events shown around the first divergence.")
                  ->type_name("N")
                  ->capture_default_str(),
              0, std::numeric_limits<std::size_t>::max());
  cmd->callback([&chosen, o] { chosen = [o] { return diff(*o); }; });
}

}  // namespace twinsched::cli
