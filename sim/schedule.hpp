// Schedule perturbation: which worker the simulator preempts at which platform operation, drawn from a seed, so that explore can search interleavings and replay any of them.
//
// Overview
//   Every platform operation of a worker (an atomic access, a fence, a lock, a park or an
//   unpark: sim_detail::point) is a preemption point, numbered per worker from 0. A
//   preemption at worker w's operation n stops w there for `delay_ns` of simulated time, as
//   an OS would deschedule a thread, and yields: the other workers run meanwhile. Nothing
//   else changes, so a schedule is a list of preemptions, and a run is a pure function of
//   (scenario, seed, machine, schedule).
//   Strategies:
//     random  at each point, preempt with probability p for a delay drawn log-uniformly
//             from [min_delay_ns, max_delay_ns]; drawn as the number of points to the next
//             preemption (geometric), which is the same distribution at one draw per
//             preemption instead of one per point
//     pct     after PCT (Burckhardt et al., ASPLOS 2010), adapted to a time-driven simulator:
//             d - 1 change points drawn uniformly among the run's first `horizon` points
//             (explore measures it with an unperturbed run); at a change point the running
//             worker is preempted for a long delay (it becomes the lowest priority until
//             it resumes), and each worker starts with its own random delay (its initial
//             priority). The probabilistic bound of PCT assumes a scheduler that always runs
//             the highest-priority thread; here the delays only approximate that, so the
//             bound is a guide, not a guarantee.
//     list    exactly the given preemptions (a shrunk or hand-written schedule)
//   Every preemption applied is logged with where it happened (the source line of the
//   operation), so a failing schedule prints as a short, readable list.
//   Determinism: decisions depend only on the seed and on (worker, operation number), which
//   are themselves deterministic in the simulation.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "models/rng.hpp"

namespace twinsched {

/// One preemption: worker `worker` stopped before its operation number `op` for `delay_ns`.
struct preemption {
  std::int32_t worker = 0;
  std::uint64_t op = 0;
  double delay_ns = 0;
  std::string where;  ///< "file:line" of the operation (filled in when applied)
};

/// How to perturb a simulation's schedule (sim_options::schedule).
struct schedule_spec {
  std::string strategy = "none";  ///< none | random | pct | list
  std::uint64_t seed = 0;         ///< the schedule seed (random, pct)
  double p = 0.002;               ///< random: preemption probability per point
  std::uint32_t depth = 3;        ///< pct: d (d - 1 change points)
  std::uint64_t horizon = 0;      ///< pct: points a run has (0: 100000)
  double min_delay_ns = 200, max_delay_ns = 50'000;  ///< random: delay range; pct uses max x 20
  std::vector<preemption> list;   ///< list: the preemptions to apply
  bool active() const { return strategy != "none"; }
};

/// "w:op:delay,..." <-> a list of preemptions (the `--preemptions` syntax; `where` ignored).
std::string format_preemptions(const std::vector<preemption>& v);
std::vector<preemption> parse_preemptions(const std::string& text);
/// A schedule as one line of text, and back: what a simulated trace's header records so
/// that `replay` applies the same preemptions ("" for none). E.g.
/// "random seed=7 p=0.002 delay=200..50000", "pct seed=7 depth=3 horizon=90000 delay=200..50000",
/// "list 0:5213:12300,2:880:4000".
std::string describe_schedule(const schedule_spec& s);
schedule_spec parse_schedule(const std::string& text);
/// One preemption as a line a person reads: "worker 0 before its operation 5213
/// (models/parking.hpp:71), preempted for 12.3 us".
std::string describe_preemption(const preemption& p);

namespace sim_detail {

/// Decides, at each point, whether the running worker is preempted (see the header).
class schedule_perturbation {
 public:
  explicit schedule_perturbation(const schedule_spec& s);
  /// Delay for worker `w` before its operation `op` (0: none); `where` names the operation.
  double decide(int w, std::uint64_t op, const char* file, unsigned line) {
    if (kind_ == kind::random && gap_ > 0) {  // most points: inline, no draw
      ++global_;
      --gap_;
      return 0;
    }
    return decide_out_of_line(w, op, file, line);
  }
  /// PCT's initial priority of worker w, as a start delay (0 for the other strategies).
  double start_delay(int w);
  const std::vector<preemption>& applied() const { return applied_; }

 private:
  double decide_out_of_line(int w, std::uint64_t op, const char* file, unsigned line);
  double note(int w, std::uint64_t op, double delay, const char* file, unsigned line);
  schedule_spec spec_;
  enum class kind : std::uint8_t { none, random, pct, list };
  kind kind_ = kind::none;  // spec_.strategy, read once: decide() runs at every scheduling point
  rng rand_;
  std::vector<std::uint64_t> change_points_;  // pct: global point numbers, ascending
  std::map<std::pair<int, std::uint64_t>, double> listed_;  // list: (worker, op) -> delay
  std::uint64_t gap_ = 0;  // random: points left before the next preemption
  std::uint64_t draw_gap();
  std::size_t next_change_ = 0;
  std::uint64_t global_ = 0;  // points seen, all workers
  std::vector<preemption> applied_;
};

}  // namespace sim_detail
}  // namespace twinsched
