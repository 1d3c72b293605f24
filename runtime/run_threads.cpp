// run_on_threads: a scenario's workload and scheduler, built over the std::thread platform.
#include "run_threads.hpp"

#include <algorithm>
#include <thread>

#include "live_runs.hpp"
#include "models/policy/policies.hpp"
#include "models/scheduler.hpp"
#include "thread_platform.hpp"
#include "traces/recorder.hpp"
#include "traces/scenario_text.hpp"
#include "tsc_clock.hpp"

namespace twinsched {

run_result run_on_threads(const scheduler_config& c, workload& w, std::uint64_t seed) {
  return run_on_threads(c, w, seed, nullptr, trace_level::off);
}

run_result run_on_threads(const scheduler_config& c, workload& w, std::uint64_t seed, traces::recorder* rec,
                          trace_level level) {
  thread_platform plat;
  plat.attach_trace(rec);
  return with_policy<thread_platform>(c.policy, [&]<class Pol>() {
    scheduler<thread_platform, Pol> sched(plat, c, seed, rec ? level : trace_level::off);
    live_runs::registration live([&] { return sched.state_report(); });  // for a deadline that expires
    return sched.run(w);
  });
}

run_result run_on_threads(const scenario& s, const trace_request& t) {
  validate(s);
  live_runs::registration live([&] { return "scenario (canonical):\n" + traces::canonical_scenario_text(s); });
  const workload_info& info = *find_workload(s.workload);
  std::unique_ptr<workload> w = info.make(with_defaults(info, s.workload_params), s.seed);
  auto named = [&](run_result r) {
    r.scenario = s.name;
    r.workload = s.workload;
    return r;
  };
  if (t.path.empty() || t.level == trace_level::off) return named(run_on_threads(s.sched, *w, s.seed));
  const std::uint32_t lanes = std::max(s.sched.workers, s.sched.max_workers);  // every worker slot
  tsc_clock clock;
  traces::recorder_options o;
  o.discard = t.discard;
  // events per message: schedule, run begin and end (decisions); plus send, message begin
  // and end (full); turns of several messages make fewer
  o.expected_events = w->expected_messages() * (t.level == trace_level::full ? 6 : 3);
  traces::trace_header h = traces::header_for(s, "threads", traces::host_description(), lanes, t.level);
  h.host_cores = std::max(1u, std::thread::hardware_concurrency());  // replay models as many cores
  traces::recorder rec(t.path, h, &clock, o);
  run_result r = named(run_on_threads(s.sched, *w, s.seed, &rec, t.level));
  rec.finish(r);
  return r;
}

run_result run_on_threads(const scenario& s) { return run_on_threads(s, trace_request{}); }

}  // namespace twinsched
