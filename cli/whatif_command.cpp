// `twinsched whatif TRACE`: a recorded run simulated again under other policies and core counts, each prediction with an error bar.
#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/option_checks.hpp"
#include "cli/sim_flags.hpp"
#include "cli/subcommand.hpp"
#include "models/registry.hpp"
#include "scenarios/cost_profile_file.hpp"
#include "scenarios/scenario_loader.hpp"
#include "traces/output_file.hpp"
#include "traces/run_summary.hpp"
#include "twin/whatif.hpp"
#include "viz/scaling_report.hpp"

namespace twinsched::cli {
namespace {

struct whatif_cli {
  std::string trace, cores = "1,2,4", costs, report;
  std::vector<std::string> policies;  ///< --policy, checked against the registry; empty: every policy
  std::vector<std::string> errors;    ///< --errors: accuracy JSON files, the model's measured errors
  sim_options opt;
  bool json = false;
};

std::string ms(double s) { return traces::fixed(s * 1e3, 3); }

std::string pct(double x) { return (x >= 0 ? "+" : "") + traces::fixed(x * 100, 1) + "%"; }

void print_head(const twin::whatif_run& w, const twin::model_errors& e) {
  std::cout << "recorded   " << w.trace << ": " << w.s.name << ", " << w.backend << ", " << w.s.sched.policy << ", "
            << w.recorded_workers << (w.recorded_workers == 1 ? " worker" : " workers") << ": makespan " << ms(w.recorded_s) << " ms\n"
            << "model      the same configuration simulated: " << ms(w.self.sim_s) << " ms ("
            << (w.error >= 0 ? "+" : "") << traces::fixed(w.error * 100, 1) << "%), so each prediction carries +-"
            << traces::fixed(w.bar * 100, 1) << "%\n";
  if (!e.source.empty()) {
    std::cout << "errors     " << e.source << ":";
    for (const auto& [n, errs] : e.by_workers) {
      const auto band = twin::conformal_band(errs, twin::whatif_coverage);
      std::cout << ' ' << n << (n == 1 ? " worker " : " workers ")
                << (band ? pct(band->low) + " to " + pct(band->high) : "too few") << " (" << errs.size() << ");";
    }
    std::cout << " a prediction's range also spans where " << traces::fixed(twin::whatif_coverage * 100, 0)
              << "% of the model's errors at its core count lie\n";
  }
  std::cout << "costs      "
            << (w.self.costs.source.empty() ? "declared only (--costs FILE charges each turn's own code)"
                                            : "profile " + w.self.costs.source)
            << "\n\n  policy          cores   predicted ms          range ms   vs recorded\n";
}

void print_case(const twin::whatif_run& w, const twin::whatif_case& c) {
  std::string line = "  " + c.policy;
  line.resize(18, ' ');
  std::string n = std::to_string(c.cores);
  line += std::string(5 - std::min<std::size_t>(5, n.size()), ' ') + n;
  if (!c.error.empty()) {
    std::cout << line << "   n/a: " << c.error << '\n';
    return;
  }
  std::string p = ms(c.r.sim_s), range = ms(c.low_s) + " - " + ms(c.high_s);
  std::cout << line << std::string(15 - std::min<std::size_t>(15, p.size()), ' ') << p
            << std::string(18 - std::min<std::size_t>(18, range.size()), ' ') << range << "   "
            << traces::fixed(w.recorded_s / c.r.sim_s, 2) << "x" << (c.r.ok() ? "" : "  (verdict FAIL)") << '\n';
}

nlohmann::json json_of(const twin::whatif_run& w) {
  nlohmann::json j = {{"trace", w.trace},         {"scenario", w.s.name},       {"backend", w.backend},
                      {"policy", w.s.sched.policy}, {"workers", w.recorded_workers}, {"recorded_s", w.recorded_s},
                      {"self_s", w.self.sim_s},   {"self_error", w.error},      {"bar", w.bar},
                      {"costs", w.self.costs.source}};
  j["cases"] = nlohmann::json::array();
  for (const auto& c : w.cases) {
    nlohmann::json jc = c.error.empty() ? nlohmann::json{{"policy", c.policy}, {"cores", c.cores},
                                                         {"predicted_s", c.r.sim_s}, {"low_s", c.low_s},
                                                         {"high_s", c.high_s}, {"ok", c.r.ok()}}
                                        : nlohmann::json{{"policy", c.policy}, {"cores", c.cores}, {"error", c.error}};
    if (c.band) jc["error_band"] = {{"low", c.band->low}, {"high", c.band->high}, {"cases", c.band->cases}};
    j["cases"].push_back(jc);
  }
  return j;
}

int whatif(const whatif_cli& c) {
  files::check_input(c.trace, "the trace");
  for (const std::string& f : c.errors) files::check_input(f, "--errors");
  if (!c.report.empty()) files::check_output(c.report, "--report", {c.trace, c.costs});
  const twin::model_errors errors = twin::read_model_errors(c.errors);
  sim_options o = c.opt;
  if (!c.costs.empty()) {
    o.costs = std::make_shared<const cost_profile>(read_cost_profile(c.costs));
    o.costs_source = c.costs;
  }
  std::vector<std::string> policies;
  for (const auto& p : policy_catalog())
    if (c.policies.empty() || std::find(c.policies.begin(), c.policies.end(), p.name) != c.policies.end())
      policies.push_back(p.name);
  const std::vector<std::uint32_t> cores = parse_whole_list(c.cores, 1, cores_limit);
  bool first = true;
  const twin::whatif_run w = twin::what_if(
      c.trace, policies, cores, o,
      [&](const auto& run, const auto& wc) {
        if (c.json) return;
        if (first) print_head(run, errors);
        first = false;
        print_case(run, wc);
      },
      errors);
  if (c.json) std::cout << json_of(w).dump(2) << '\n';
  if (!c.report.empty()) {  // each prediction's bar as three repeats, beside the recording
    std::vector<viz::scaling_point> pts;
    const double msgs = double(w.self.run.messages);
    pts.push_back({"recorded (" + w.backend + ", " + w.s.sched.policy + ")", w.recorded_workers, w.recorded_s,
                   msgs / w.recorded_s});
    for (const auto& wc : w.cases)
      if (wc.error.empty())
        for (double s : {wc.low_s, wc.r.sim_s, wc.high_s}) pts.push_back({wc.policy, wc.cores, s, msgs / s});
    files::output_file page(c.report);
    viz::write_scaling_report(page.stream(), "twinsched whatif: " + w.s.name,
                              "predicted from " + w.trace + "; bars +-" + traces::fixed(w.bar * 100, 1) +
                                  "% (the model's error on the recorded run)" +
                                  (errors.source.empty() ? "" : ", widened to where " + traces::fixed(twin::whatif_coverage * 100, 0) +
                                                                    "% of its errors in " + errors.source +
                                                                    " at each core count lie"),
                              pts);
    page.commit();
  }
  for (const auto& wc : w.cases)
    if (wc.error.empty() && !wc.r.ok()) return 1;
  return 0;
}

void check(whatif_cli& c) {
  for (const std::string& name : c.policies)
    if (!find_policy(name)) throw usage_error("--policy: unknown policy '" + name + "' (see `twinsched list policies`)");
}

static_assert(twin::whatif_coverage == 0.8, "the help below says 80% (and 10% and 90%, 9 cases)");
constexpr const char* whatif_footer = R"(How it predicts: the recording's scenario (its header) is simulated as recorded and
under each --policy on each --cores (one worker per modeled core), with each turn's own code
charged from --costs (a profile: `twinsched profile`). The recorded configuration, simulated
the same way, lands some way from the recording's own makespan: that error, at least 5%, is
each prediction's error bar. That error says little about the model's at other core counts:
--errors gives what the model measured there (`twinsched accuracy --json` files, e.g. the
Savina suite on this machine), and each prediction's range then also spans where 80% of
those errors at its core count lie (split conformal: real = predicted / (1 + error), the
errors' 10% and 90% points by rank; at least 9 cases at that count).
Examples:
  twinsched run savina/sieve --workers 1 --trace rec.tst
  twinsched profile savina/sieve -o costs.toml
  twinsched whatif rec.tst --costs costs.toml --cores 2,4,8 --report whatif.html
  twinsched whatif rec.tst --costs costs.toml --policy stealing,sharing --cores 16 --json
  twinsched accuracy --scenario scenarios/savina/fib.toml --scenario scenarios/savina/count.toml ... --json > acc.json
  twinsched whatif rec.tst --costs costs.toml --cores 2 --errors acc.json
Exit codes: 0 every prediction's run is correct, 1 one failed its verdict, 2 a bad flag, trace or profile.)";

}  // namespace

void add_whatif_command(CLI::App& app, action& chosen) {
  auto [cmd, c] = add_command<whatif_cli>(
      app, chosen, "whatif",
      "Predict a recorded run under other policies and core counts: its scenario simulated with costs from a "
      "profile, each makespan with an error bar from the model's error on the recording itself.",
      whatif_footer, whatif, check);
  cmd->add_option("trace", c->trace, "A recorded run (.tst: `run --trace`, `sim --trace`, `profile --trace`).")
      ->type_name("TRACE")
      ->required();
  cmd->add_option("--policy", c->policies, "Policies to predict, comma-separated. Default: every policy.")
      ->type_name("LIST")
      ->delimiter(',')
      ->allow_extra_args(false);
  takes(cmd->add_option("--cores", c->cores, "Modeled cores to predict, one worker each. Default: 1,2,4.")
            ->type_name("LIST"),
        "a comma-separated list of N, each 1.." + std::to_string(cores_limit),
        [](const std::string& text) { parse_whole_list(text, 1, cores_limit); });
  cmd->add_option("--costs", c->costs, "A cost profile (`twinsched profile`) that charges each turn's own code.")
      ->type_name("FILE");
  cmd->add_option("--errors", c->errors,
                  "`twinsched accuracy --json` files: the model's measured errors, which widen each prediction's "
                  "range to where 80% of them at its core count lie. Repeat for more.")
      ->type_name("FILE");
  add_sim_flags(*cmd, c->opt);
  cmd->add_flag("--json", c->json, "Print one JSON object instead of the table.");
  cmd->add_option("--report", c->report, "Also write the predictions and the recording as an HTML page.")
      ->type_name("FILE");
}

}  // namespace twinsched::cli
