// The explore flow: an unperturbed run sizes the bounds, the search finds the first failing seed, which is traced, reported and shrunk.
#include "explore/exploration.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <ostream>
#include <sstream>

#include "explore/search.hpp"
#include "traces/output_file.hpp"
#include "traces/scenario_text.hpp"

namespace twinsched::explore {
namespace {

std::string seconds(double s) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f s", s);
  return b;
}

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

/// The failing schedule's fewest preemptions, traced into `dir`, reported.
void shrink_and_report(const sim_batch& batch, const exploration& e, const sim_options& fo, const outcome& f,
                       const std::function<double()>& elapsed, std::ostream& out) {
  std::size_t tries = 0;
  const auto s0 = elapsed();
  const std::vector<preemption> small = shrink_schedule(fo, f.result.preemptions, f.kind, simulation_trial(batch), e.jobs, tries);
  sim_options shrunk = with_preemptions(fo, small);
  const std::string strace = e.dir + "/seed-" + std::to_string(fo.schedule.seed) + "-shrunk.tst";
  shrunk.trace_path = strace;
  const outcome check = judge(batch.simulate(shrunk));
  out << "shrunk: " << f.result.preemptions.size() << " -> " << small.size() << " preemptions in " << tries << " runs ("
      << seconds(elapsed() - s0) << "); it still breaks " << check.kind
      << (check.failed && check.kind == f.kind ? "" : " (WARNING: the shrunk schedule does not fail the same way)") << '\n';
  for (const auto& p : check.result.preemptions) out << "  " << describe_preemption(p) << '\n';
  out << "  error       " << first_line(check.error) << '\n';
  shrunk.trace_path.clear();
  out << "  trace       " << strace << "  (step through it: twinsched replay " << strace << " --step)\n";
  out << "  reproduce   " << repro_command(e.scenario_file, shrunk) << '\n';
}

}  // namespace

std::string repro_command(const std::string& scenario_file, const sim_options& o) {
  std::ostringstream c;
  c << "twinsched sim " << scenario_file << " --checks";
  if (o.cores) c << " --cores " << o.cores;
  if (!o.machine.empty()) c << " --machine " << o.machine;
  if (o.interleave != "coarse") c << " --interleave " << o.interleave;
  c << " --time-limit " << o.time_limit_s;
  if (o.max_points) c << " --max-operations " << o.max_points;
  const schedule_spec& s = o.schedule;
  if (s.strategy == "list") {
    c << " --preemptions " << format_preemptions(s.list);
  } else {
    c << " --strategy " << s.strategy << " --schedule " << s.seed;
    if (s.strategy == "random") c << " --p " << s.p;
    if (s.strategy == "pct") c << " --depth " << s.depth;
    c << " --delay " << s.min_delay_ns << ".." << s.max_delay_ns;
  }
  return c.str();
}

int run_exploration(const scenario& s, const exploration& e, std::ostream& out, std::ostream& err) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::function<double()> elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  // An unperturbed run first: it must pass, and it sizes the time limit, the operation budget
  // (a livelock spends operations without ending) and PCT's horizon. Its own bounds are
  // generous fixed ones: 60 simulated seconds and 100 million operations.
  sim_options base = e.base;
  schedule_spec spec = e.spec;
  if (!e.sim_limit_given) base.time_limit_s = 60;
  base.max_points = 100'000'000;
  // Every run of the search is the scenario on base's machine: checked once, forked from one engine.
  const sim_batch batch(s, base);
  const sim_result plain = batch.simulate(base);
  if (!plain.ok()) {
    const outcome o = judge(plain);
    out << "explore: the scenario fails with no preemption at all (" << o.kind << "): " << o.error << '\n';
    return 1;
  }
  if (!e.sim_limit_given) base.time_limit_s = std::max(10.0, 100 * plain.sim_s);
  base.max_points = std::max<std::uint64_t>(1'000'000, 50 * plain.points);
  spec.horizon = plain.points;
  std::filesystem::create_directory(e.dir);
  files::write_whole(e.scenario_file, traces::canonical_scenario_text(s));

  const std::vector<sim_options> schedules = draw_schedules(base, spec, e.runs);
  err << "explore: " << s.name << ", " << s.sched.policy << ", " << s.sched.workers << " workers, idle "
      << s.sched.idle.strategy << "; " << e.runs << " schedules (" << describe_schedule(spec) << ", seeds " << spec.seed
      << ".." << spec.seed + e.runs - 1 << "), " << e.jobs << " at a time; an unperturbed run has " << plain.points
      << " platform operations\n";
  const search_result found = search(schedules, simulation_trial(batch), {e.jobs, e.wall_limit_s, e.progress});
  if (e.progress_end) e.progress_end();
  if (!found.failed) {
    out << "explore: " << found.ran << " schedules (seeds " << spec.seed << ".." << spec.seed + found.ran - 1 << ", "
        << describe_schedule(spec) << "): no invariant broken, in " << seconds(elapsed()) << " ("
        << (elapsed() > 0 ? double(found.ran) / elapsed() : 0) << " runs/s)"
        << (found.ran < e.runs ? "; stopped at the --time-limit" : "") << '\n';
    return 0;
  }
  const outcome& f = *found.outcomes[*found.failed];
  const sim_options& fo = schedules[*found.failed];
  out << "explore: FAILED at schedule seed " << fo.schedule.seed << " (run " << *found.failed + 1 << " of " << found.ran
      << ", " << seconds(elapsed()) << ")\n";
  out << "  invariant   " << f.kind << '\n';
  out << "  error       " << first_line(f.error) << '\n';
  out << "  schedule    " << describe_schedule(fo.schedule) << ": " << f.result.preemptions.size() << " preemptions\n";
  // The failing run again, traced: the same schedule gives the same run, event for event.
  const std::string trace = e.dir + "/seed-" + std::to_string(fo.schedule.seed) + ".tst";
  sim_options traced = fo;
  traced.trace_path = trace;
  const sim_result again = batch.simulate(traced);
  // (tracing adds its events to the event hash, so compare where and how the run failed)
  const bool same = again.points == f.result.points && again.sim_s == f.result.sim_s && judge(again).error == f.error;
  out << "  trace       " << trace << (same ? "" : " (WARNING: the traced rerun did not fail the same way)") << '\n';
  out << "  reproduce   " << repro_command(e.scenario_file, fo) << '\n';
  if (f.error.find('\n') != std::string::npos) out << "  state at the failure:\n" << f.error.substr(f.error.find('\n') + 1) << '\n';
  if (e.shrink) shrink_and_report(batch, e, fo, f, elapsed, out);
  return 1;
}

}  // namespace twinsched::explore
