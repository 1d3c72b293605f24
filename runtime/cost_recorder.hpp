// Taking a cost profile on real cores: each turn's own code timed on the time-stamp counter, preempted turns left out.
#pragma once
#include <cstdint>
#include <memory>
#include <typeinfo>
#include <vector>

#include "models/cost_profile.hpp"

namespace twinsched {

/// The real platform's turn_cost_hook (models/platform.hpp contract 17). A turn's own code is
/// the time-stamp counter's time across the behavior's receive, less the runtime's work inside
/// it (sends, spawns, shared words: between pause and resume), less what the behavior burned
/// through burn_ns (a modeled cost the simulator charges anyway), and less what timing an
/// empty turn and an empty runtime part reads (the measurement's own cost). Work it declared through did_work_ns is in the measurement; in
/// simulation the profile's draw replaces the declaration (replaces_declared).
///   Preemption: the thread CPU clock (a system call here, ~1.2 us, whose cache and TLB
///   after-effects inflate the code that follows it) is read once per window of turns (up to
///   window_turns of them, or window_ns of wall time), not per turn. A window's measurements
///   wait in the slot until its check: when the wall time since the last check exceeds the
///   thread's CPU time by more than preempted_gap_ns, the thread lost its core somewhere in
///   the window, and its turns are left out (counted in preempted_turns) rather than measured
///   with the gap. A worker that went idle (parked: no CPU) has its window judged up to its
///   last turn's end, before its next turn starts.
///   Protocol (turn_cost_hook's): worker w touches only slot w while the run lives; profile()
///   reads every slot after the workers have been joined.
class cost_recorder final : public turn_cost_hook {
 public:
  static constexpr std::uint64_t preempted_gap_ns = 5000;
  static constexpr std::size_t window_turns = 256;
  static constexpr double window_ns = 1e6;

  explicit cost_recorder(unsigned worker_slots);
  void begin(unsigned w) override;
  void pause(unsigned w) override;
  void resume(unsigned w) override;
  std::uint64_t end(unsigned w, const std::type_info& behavior, std::uint32_t tag, std::uint64_t burned_ns,
                    std::uint64_t declared_ns) override;
  /// Every kind's histogram, merged over the workers, by behavior name and tag (after the
  /// workers have been joined: it takes in their last windows).
  cost_profile profile();
  std::uint64_t preempted_turns() const;

 private:
  struct kind {
    const std::type_info* type;
    std::uint32_t tag;
    std::unique_ptr<log_histogram> hist;
  };
  struct timed {
    std::size_t kind;  // an index into the slot's kinds, which may grow meanwhile
    std::uint64_t ns;
  };
  struct alignas(64) slot {
    std::vector<kind> kinds;  // a handful: behaviors x tags
    std::size_t last = 0;     // the kind the previous turn was: most turns repeat it
    std::uint64_t mark = 0, own = 0, intervals = 0;  // the turn being timed, in ticks
    std::uint64_t cpu_ns = 0, wall_ticks = 0;        // the last CPU-clock check, and the counter then
    std::uint64_t last_end = 0;                      // the counter at the last turn's end
    std::uint64_t preempted = 0;
    std::vector<timed> window;  // measured since the last check, not yet counted
  };
  static std::size_t kind_of(slot& s, const std::type_info& behavior, std::uint32_t tag);
  /// Closes the turn's last interval; returns its own ticks so far.
  static std::uint64_t finish(slot& s);
  void check(slot& s, std::uint64_t until);

  std::vector<slot> slots_;
  double ns_per_tick_ = 1, empty_turn_ticks_ = 0, empty_part_ticks_ = 0;
};

}  // namespace twinsched
