// The run pipeline: how a scenario becomes a run, once, with the backend as its parameter.
//
// run_pipeline(b, s) checks the scenario, builds its workload, opens its trace, runs it on the
// backend's scheduler, names the result and closes the trace with it. Both backends run every
// scenario through it: run_on_threads (runtime/run_threads.cpp) and simulate's child
// (sim/run_sim.cpp). A backend B supplies what differs between them:
//
//   workload_params B::params_of(const workload_info&, const scenario&)
//       the parameters the workload is built with (the simulator's kernels: its machine's)
//   std::unique_ptr<traces::recorder> B::open_trace(const scenario&, const workload&)
//       the run's recorder (its header, clock and options), or null for an untraced run
//   run_result B::run(const scenario&, std::unique_ptr<workload>&, traces::recorder*)
//       the run itself, through run_policy below over the backend's platform; a backend
//       whose run never returned may release the workload (halted workers point into it)
//   void B::trace_finished(traces::recorder&)
//       after the trace's footer is written
//
// run_policy is the scheduler stage both backends' run() share: the scenario's policy turned
// into its type, the scheduler built over the platform, run inside what the backend wraps
// around it (a live-run registration, a progress reporter).
#pragma once
#include <memory>

#include "models/config.hpp"
#include "models/memory_estimate.hpp"
#include "models/policy/policies.hpp"
#include "models/run_result.hpp"
#include "models/scheduler.hpp"
#include "models/workload/workload.hpp"
#include "run/host_memory.hpp"
#include "traces/recorder.hpp"

namespace twinsched {

template <class Pol>
using as_is = Pol;

/// The scheduler stage: `c.policy`'s type over P, wrapped in Wrap (the simulator's replay)
/// whose constructor gets `extra` after the policy's setup; `around(sched)` runs it and
/// returns its result.
template <class P, template <class> class Wrap = as_is, class Around, class... Extra>
run_result run_policy(P& plat, const scheduler_config& c, std::uint64_t seed, trace_level level, Around&& around,
                      Extra&... extra) {
  return with_policy<P>(c.policy, [&]<class Pol>() {
    scheduler<P, Wrap<Pol>> sched(plat, c, seed, level, extra...);
    return around(sched);
  });
}

/// One scenario run over backend `b` (see the file's comment for what B supplies). Throws
/// config_error for a scenario that cannot run, before its workload exists.
template <class B>
run_result run_pipeline(B& b, const scenario& s) {
  validate(s);
  check_memory(s, physical_memory_bytes());  // before the workload allocates anything
  const workload_info& info = *find_workload(s.workload);
  std::unique_ptr<workload> w = info.make(b.params_of(info, s), s.seed);
  std::unique_ptr<traces::recorder> rec = b.open_trace(s, *w);
  run_result r = b.run(s, w, rec.get());
  r.scenario = s.name;
  r.workload = s.workload;
  if (rec) {
    rec->finish(r);  // also for a run that never ended: its trace shows where it hung
    b.trace_finished(*rec);
  }
  return r;
}

}  // namespace twinsched
