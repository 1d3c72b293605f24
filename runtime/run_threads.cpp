// run_on_threads: a scenario's workload and scheduler, built over the std::thread platform.
#include "run_threads.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>

#include "models/whole_number.hpp"
#include "run/live_runs.hpp"
#include "run/run_pipeline.hpp"
#include "cost_recorder.hpp"
#include "thread_platform.hpp"
#include "traces/recorder.hpp"
#include "traces/scenario_text.hpp"
#include "tsc_clock.hpp"

namespace twinsched {

unsigned hardware_threads() { return thread_platform::hardware_workers(); }

run_result run_on_threads(const scheduler_config& c, workload& w, std::uint64_t seed) {
  return run_on_threads(c, w, seed, nullptr, trace_level::off);
}

std::uint64_t run_watch::messages() const {
  std::lock_guard g(m_);
  if (read_) last_ = read_();
  return last_;
}

std::uint64_t run_watch::expected() const {
  std::lock_guard g(m_);
  return expected_;
}

void run_watch::attach(std::function<std::uint64_t()> processed, std::uint64_t expected) {
  std::lock_guard g(m_);
  read_ = std::move(processed);
  expected_ = expected;
}

void run_watch::detach() {
  std::lock_guard g(m_);
  if (read_) last_ = read_();
  read_ = nullptr;
}

namespace {
/// Attaches a run_watch to a scheduler while it lives (the watch must never read a destroyed one).
class watching {
 public:
  watching(run_watch* w, std::function<std::uint64_t()> processed, std::uint64_t expected) : w_(w) {
    if (w_) w_->attach(std::move(processed), expected);
  }
  ~watching() {
    if (w_) w_->detach();
  }
  watching(const watching&) = delete;
  watching& operator=(const watching&) = delete;

 private:
  run_watch* w_;
};
}  // namespace

run_result run_on_threads(const scheduler_config& c, workload& w, std::uint64_t seed, traces::recorder* rec,
                          trace_level level, run_watch* watch, turn_cost_hook* costs) {
  thread_platform plat(w.burns());
  plat.attach_trace(rec);
  plat.set_turn_costs(costs);
  return run_policy(plat, c, seed, rec ? level : trace_level::off, [&](auto& sched) {
    live_runs::registration live([&] { return sched.state_report(); });  // for a deadline that expires
    watching watched(
        watch,
        [&sched] {  // an acquire load of each worker's own counter: nothing new on the hot path
          std::uint64_t n = 0;
          for (unsigned i = 0; i < sched.slots(); ++i) n += sched.worker_at(i).processed();
          return n;
        },
        w.expected_messages());
    return sched.run(w);
  });
}

namespace {

/// The real backend of run_pipeline: a TSC-stamped trace, the workers on std::threads.
struct thread_backend {
  const trace_request& t;
  run_watch* watch;
  cost_profile* profile;
  std::unique_ptr<tsc_clock> clock;

  workload_params params_of(const workload_info& info, const scenario& s) const {
    return with_defaults(info, s.workload_params);
  }

  std::unique_ptr<traces::recorder> open_trace(const scenario& s, const workload& w) {
    if (t.path.empty() || t.level == trace_level::off) return nullptr;
    const std::uint32_t lanes = std::max(s.sched.workers, s.sched.max_workers);  // every worker slot
    clock = std::make_unique<tsc_clock>();
    traces::recorder_options o;
    o.discard = t.discard;
    if (const char* v = std::getenv("TWINSCHED_TRACE_STAMP_NS")) {  // traces/recorder.hpp, stamp_interval_ns
      const auto ns = whole_number(v);
      if (!ns || *ns == 0)
        throw std::invalid_argument("TWINSCHED_TRACE_STAMP_NS must be a positive number of nanoseconds, not '" +
                                    std::string(v) + "'");
      o.stamp_interval_ns = *ns;
    }
    // events per message: schedule, run begin and end (decisions); plus send, message begin
    // and end (full); turns of several messages make fewer
    o.expected_events = w.expected_messages() * (t.level == trace_level::full ? 6 : 3);
    traces::trace_header h = traces::header_for(s, "threads", traces::host_description(), lanes, t.level);
    h.host_cores = std::max(1u, std::thread::hardware_concurrency());  // replay models as many cores
    return std::make_unique<traces::recorder>(t.path, h, clock.get(), o);
  }

  run_result run(const scenario& s, std::unique_ptr<workload>& w, traces::recorder* rec) {
    std::unique_ptr<cost_recorder> costs;
    if (profile) costs = std::make_unique<cost_recorder>(std::max(s.sched.workers, s.sched.max_workers));
    run_result r = run_on_threads(s.sched, *w, s.seed, rec, rec ? t.level : trace_level::off, watch, costs.get());
    if (profile) {
      *profile = costs->profile();
      profile->scenario = s.name;
      profile->workload = s.workload;
      profile->workers = s.sched.workers;
    }
    return r;
  }

  void trace_finished(traces::recorder& rec) {
    if (t.memory) *t.memory = rec.memory();
  }
};

}  // namespace

run_result run_on_threads(const scenario& s, const trace_request& t, run_watch* watch, cost_profile* profile) {
  live_runs::registration live([&] { return "scenario (canonical):\n" + traces::canonical_scenario_text(s); });
  thread_backend b{t, watch, profile, nullptr};
  return run_pipeline(b, s);
}

run_result run_on_threads(const scenario& s, run_watch* watch) { return run_on_threads(s, trace_request{}, watch); }

}  // namespace twinsched
