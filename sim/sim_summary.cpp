// The summary of simulations as text or JSON: one run, a scaling table, determinism verdicts.
#include "sim_summary.hpp"

#include <iomanip>
#include <sstream>

#include "traces/run_summary.hpp"

namespace twinsched {

using traces::fixed;
using traces::hex64;

nlohmann::json sim_json(const scenario& s, const sim_result& r) {
  nlohmann::json j = traces::summary_json(s, r.run);
  j["sim"] = {{"machine", r.machine},
              {"cores", r.cores},
              {"interleave", r.interleave},
              {"context_factory", r.context_factory},
              {"simulated_s", r.sim_s},
              {"real_s", r.real_s},
              {"sim_msgs_per_real_s", r.sim_msgs_per_real_s()},
              {"sim_over_real", r.sim_over_real()},
              {"event_hash", hex64(r.event_hash)},
              {"flushes", r.flushes},
              {"lookahead_skips", r.lookahead_skips},
              {"hand_offs", r.hand_offs},
              {"holds", r.holds},
              {"blocks", r.blocks},
              {"contended_locks", r.contended_locks},
              {"turns_on_another_core", r.migrations},
              {"aborted", r.aborted}};
  if (!r.costs.source.empty())
    j["sim"]["costs"] = {{"profile", r.costs.source},
                         {"charged_turns", r.costs.charged_turns},
                         {"charged_ns", r.costs.charged_ns},
                         {"unprofiled_turns", r.costs.unprofiled_turns},
                         {"unprofiled_kinds", r.costs.unprofiled_kinds}};
  return j;
}

void print_sim_lines(std::ostream& out, const sim_result& r) {
  out << "simulated     machine " << r.machine << ", " << r.cores << " cores, interleave " << r.interleave
      << ", contexts " << r.context_factory << '\n'
      << "simulator     " << fixed(r.real_s, 3) << " s real, " << fixed(r.sim_msgs_per_real_s() / 1e6, 2)
      << "M simulated msgs per real s, simulated/real " << fixed(r.sim_over_real(), 4) << '\n'
      << "event hash    " << hex64(r.event_hash) << "  (" << r.flushes << " yields, " << r.blocks << " blocks, "
      << r.contended_locks << " contended locks, " << r.migrations << " turns on another core)\n";
  const cost_report& c = r.costs;
  if (c.source.empty()) {
    out << "costs         declared: a behavior's own code costs what it declares (burn_ns, did_work_ns); "
           "--costs FILE charges it from a profile\n";
    return;
  }
  out << "costs         profile " << c.source << ": " << c.charged_turns << " turns charged "
      << fixed(c.charged_ns / 1e6, 3) << " ms (mean " << fixed(c.charged_turns ? c.charged_ns / double(c.charged_turns) : 0, 0)
      << " ns)";
  if (c.unprofiled_turns) {
    out << "; " << c.unprofiled_turns << " turns of kinds it lacks charged what they declare:";
    for (const std::string& k : c.unprofiled_kinds) out << ' ' << k << ';';
  }
  out << '\n';
}

std::string first_difference(const sim_result& a, const sim_result& b) {
  const auto d = differences(a, b);
  if (d.empty()) return {};
  return d.front() + (d.size() > 1 ? " (and " + std::to_string(d.size() - 1) + " more fields)" : "");
}

std::string scaling_header(const sim_run& first, const std::string& interleave) {
  const scenario& s = first.s;
  std::ostringstream o;
  o << "scenario " << s.name << ", " << s.workload << ", policy " << s.sched.policy << ", idle "
    << s.sched.idle.strategy << ", machine " << first.r.machine << ", interleave " << interleave << "\n";
  o << std::right << std::setw(6) << "cores" << std::setw(9) << "workers" << std::setw(14) << "simulated s"
    << std::setw(15) << "sim msgs/s" << std::setw(9) << "speedup" << std::setw(10) << "real s" << std::setw(14)
    << "sim msgs/real" << "  verdict  event hash";
  return o.str();
}

std::string scaling_row(const sim_run& run, double base) {
  const sim_result& r = run.r;
  std::ostringstream o;
  o << std::right << std::setw(6) << r.cores << std::setw(9) << run.s.sched.workers << std::setw(14)
    << fixed(r.sim_s, 6) << std::setw(15) << fixed(r.run.msgs_per_s(), 0) << std::setw(9)
    << fixed(base > 0 ? r.run.msgs_per_s() / base : 0, 2) << std::setw(10) << fixed(r.real_s, 2) << std::setw(14)
    << fixed(r.sim_msgs_per_real_s(), 0) << "  " << (r.ok() ? "OK     " : "FAIL   ") << "  " << hex64(r.event_hash);
  if (!r.ok())
    for (auto& e : r.run.errors) o << "\n        " << e;
  return o.str();
}

namespace {

nlohmann::json json_of(const sim_run& run) {
  nlohmann::json j = sim_json(run.s, run.r);
  if (run.checked)
    j["determinism"] = {{"checked", true}, {"identical", run.difference.empty()}, {"first_difference", run.difference}};
  return j;
}

}  // namespace

void print_sim_runs(std::ostream& out, const std::vector<sim_run>& runs, bool json, const schedule_spec& schedule) {
  if (runs.empty()) return;
  const bool checked = runs.front().checked;
  if (json) {
    if (runs.size() == 1) {
      out << json_of(runs.front()).dump(2) << '\n';
    } else {
      nlohmann::json a = nlohmann::json::array();
      for (const auto& run : runs) a.push_back(json_of(run));
      out << a.dump(2) << '\n';
    }
  } else if (runs.size() > 1 && checked) {  // under the table
    std::string failed;
    for (const auto& run : runs)
      if (!run.difference.empty()) failed += (failed.empty() ? "" : ", ") + std::to_string(run.r.cores);
    out << "determinism   "
        << (failed.empty() ? "OK: every simulation ran twice, same result and event hash"
                           : "FAIL: the two runs differ on " + failed + " cores (stderr says where)")
        << '\n';
  } else if (runs.size() == 1) {
    const sim_run& run = runs.front();
    traces::print_summary(out, run.s, run.r.run);
    print_sim_lines(out, run.r);
    if (checked)
      out << "determinism   "
          << (run.difference.empty() ? "OK: ran twice, same result and event hash"
                                     : "FAIL: the two runs differ at " + run.difference)
          << '\n';
    if (schedule.active()) {
      const auto& pre = run.r.preemptions;
      out << "schedule      " << describe_schedule(schedule) << ": " << pre.size() << " preemptions applied\n";
      if (pre.size() <= 20)
        for (const auto& p : pre) out << "                " << describe_preemption(p) << '\n';
    }
  }
}

bool runs_ok(const std::vector<sim_run>& runs) {
  for (const auto& run : runs)
    if (!run.r.ok() || !run.difference.empty()) return false;
  return true;
}

}  // namespace twinsched
