// run_on_threads: a scenario's workload and scheduler, built over the std::thread platform.
#include "run_threads.hpp"

#include "models/policy/policies.hpp"
#include "models/scheduler.hpp"
#include "thread_platform.hpp"

namespace twinsched {

run_result run_on_threads(const scheduler_config& c, workload& w, std::uint64_t seed) {
  thread_platform plat;
  return with_policy<thread_platform>(c.policy, [&]<class Pol>() {
    scheduler<thread_platform, Pol> sched(plat, c, seed);
    return sched.run(w);
  });
}

run_result run_on_threads(const scenario& s) {
  validate(s);
  const workload_info& info = *find_workload(s.workload);
  std::unique_ptr<workload> w = info.make(with_defaults(info, s.workload_params), s.seed);
  run_result r = run_on_threads(s.sched, *w, s.seed);
  r.scenario = s.name;
  r.workload = s.workload;
  return r;
}

}  // namespace twinsched
