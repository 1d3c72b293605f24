// The replay wrapper policy's class: its state, its hooks and the members each forcing part defines. replay_policy.hpp has the whole design.
#pragma once
#include <algorithm>
#include <concepts>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/actor.hpp"
#include "models/config.hpp"
#include "models/parking.hpp"
#include "models/policy/policy.hpp"
#include "models/run_result.hpp"
#include "replay_inbox.hpp"
#include "replay_receive_order.hpp"
#include "replay_script.hpp"
#include "sim_platform.hpp"

namespace twinsched {

/// A policy that scales (caps.scales_workers) carries out recorded starts and retirements for
/// a message-exact replay through this seam (replay_scale_forcing.hpp; adaptive.hpp has it).
template <class Pol>
concept replay_scalable = requires(Pol& p, policy_port<sim_platform>& port, unsigned slot) {
  { p.open_slot(port, slot) } -> std::same_as<void>;
  { p.retire_to(port, slot) } -> std::same_as<bool>;
};

// The wrapper derives from the recorded policy: every hook it does not change (on_spawn, push,
// add_stats, on_idle, slots, park_limit_ns) is the inner policy's own, with its capabilities;
// it replaces pop, has_work, queued, describe and try_retire, extends on_spawn and
// after_message, and adds the hooks of forces_turns.
template <class Inner>
class replay_policy : public Inner {
  using P = sim_platform;
  using cell = actor_cell<P>;
  static_assert(!Inner::caps.scales_workers || replay_scalable<Inner>,
                "a policy that scales workers must offer open_slot and retire_to for replay (replay_policy.hpp)");

 public:
  static constexpr const char* name = Inner::name;
  /// The inner policy's capabilities, plus forcing each turn's length (policy.hpp).
  static constexpr policy_caps caps{.observes_work = Inner::caps.observes_work,
                                    .scales_workers = Inner::caps.scales_workers,
                                    .forces_turns = true,
                                    .holds_drained = Inner::caps.holds_drained};

  static constexpr std::uint64_t poll_ns = 500;  ///< exact mode: how long a waiting worker parks
  static constexpr unsigned stall_polls = 4;      ///< exact mode: quiet rounds that make a stall

  replay_policy(const policy_setup<P>& s, replay_script& script)
      : Inner(s), park_(s.park), script_(script), slots_(slot_count(s.config)), initial_(s.config.workers),
        burst_(s.config.burst), exact_(script.exact()), state_(slots_), scratch_(slots_), order_(script.empty_turns()),
        out_of_order_(slots_),
        opened_(slots_, false), reserved_(slots_, false), starts_(slots_, 0) {
    if (exact_) mode_ = mode::forced;  // a real run's turns never match modeled timing: force from the start
    for (unsigned v = 0; v < initial_ && v < slots_; ++v) opened_[v] = true;
  }

  void on_spawn(cell& a, int by) {
    Inner::on_spawn(a, by);
    if (a.id() >= actors_.size()) actors_.resize(std::size_t(a.id()) + 1, nullptr);
    order_.grow(actors_.size());
    actors_[a.id()] = &a;
  }

  cell* pop(unsigned w, worker_stats& st) {
    state_[w].started = true;
    state_[w].retired = false;  // adaptive reuses a retired worker's slot for a new thread
    stop_waiting(w);  // a worker inside pop is never counted as waiting
    if (exact_ && mode_ == mode::forced) return exact_pop(w, st);
    if (mode_ == mode::match) {
      cell* a = Inner::pop(w, st);  // may yield to other workers: re-read every field after it
      if (!a) return nullptr;
      if (mode_ == mode::match) {
        const recorded_turn* want = script_.peek(w);
        if (want && want->actor == a->id()) return take(w, a);
        diverge(w, want, *a);
      }
      hold(w, a);
    }
    return mode_ == mode::forced ? forced_pop(w, st) : free_pop(w, st);
  }

  bool has_work(unsigned w) const {
    if (exact_ && mode_ == mode::forced) return true;  // exact_pop waits inside for the next turn
    if (mode_ == mode::match) return Inner::has_work(w);
    if (mode_ == mode::free) return !held_.empty() || Inner::has_work(w);
    const recorded_turn* want = script_.peek(w);
    if (!want) return earliest() == slots_ || Inner::has_work(w);
    return ((earliest() == w || out_of_order_ == w) && held_.count(want->actor)) || Inner::has_work(w);
  }

  /// The turn just popped processes as many messages as its recording did (worker.hpp).
  std::uint32_t turn_burst(unsigned w) const { return state_[w].limit ? state_[w].limit : burst_; }

  /// Exact mode: the turn w just took gets its recorded messages from next_message.
  bool picks_messages(unsigned w) const { return state_[w].exact_turn; }

  envelope<P>* next_message(policy_port<P>& port, cell& a);
  void end_turn(policy_port<P>& port, cell& a);

  /// observes_work: in an exact turn of a policy that scales, the recorded scaling decisions
  /// made after this message (replay_scale_forcing.hpp) instead of the policy's own; else the
  /// policy's hook.
  void after_message(policy_port<P>& port, cell& a)
    requires(Inner::caps.observes_work);

  /// scales_workers: a waiting worker must not retire; in exact mode a worker retires where
  /// its recording did (replay_scale_forcing.hpp).
  bool try_retire(policy_port<P>& port)
    requires(Inner::caps.scales_workers);

  std::size_t queued() const { return Inner::queued() + held_.size(); }
  void describe(std::string& out) const {
    Inner::describe(out);
    out += "  replay: " + std::to_string(held_.size()) + " actors held for their recorded turns";
    if (exact_) out += ", " + std::to_string(inbox_.size()) + " messages waiting for their recorded turns";
    out += "\n";
  }

 private:
  static unsigned slot_count(const scheduler_config& c) {
    if constexpr (Inner::caps.scales_workers) return Inner::slots(c);
    else return c.workers;
  }

  enum class mode : std::uint8_t { match, forced, free };
  struct worker_state {
    bool started = false, retired = false, waiting = false;
    std::uint32_t limit = 0;  // the turn just taken: its recorded messages (0: burst)
    // exact mode: the turn being run, the recorded ids it is to consume, how far it got
    bool exact_turn = false, matched = true, in_turn = false, give_up = false, adopted = false;
    bool scaling = false;  // waits for a recorded thread start, retirement or migration
    std::vector<std::uint64_t> ids;
    std::size_t next = 0;
    std::uint64_t ordinal = 0;
    // exact mode, a policy that scales: the turn's recorded scaling decisions, how many made
    std::vector<recorded_action> actions;
    std::size_t acted = 0;
  };

  static std::string id_text(std::uint64_t id) {
    return std::to_string(id >> 32) + ":" + std::to_string(id & 0xffffffffu);
  }

  // ---- decisions-level forcing (replay_turn_order.hpp) ----
  cell* forced_pop(unsigned w, worker_stats& st);
  cell* take(unsigned w, cell* a);
  void nudge(unsigned from);
  unsigned earliest(bool held_only = false) const;
  void skip(unsigned v, unsigned w);

  // ---- message-exact forcing (replay_message_forcing.hpp) ----
  cell* exact_pop(unsigned w, worker_stats& st);
  cell* free_actor(std::uint32_t id);
  cell* exact_take(unsigned w, cell* a, unsigned v);
  void drain_held(std::uint32_t group);
  void drain_inner(unsigned w);
  bool poll(unsigned w, bool in_turn, bool scaling = false);
  std::string waits() const;
  void skip_pending(unsigned w);
  void flush(unsigned w);

  // ---- scaling forcing (replay_scale_forcing.hpp) ----
  void act(policy_port<P>& port, std::size_t after);
  bool open_recorded(policy_port<P>& port, unsigned to, std::uint32_t rank);
  void migrate_recorded(policy_port<P>& port, std::uint32_t actor, unsigned to, bool in_turn);
  bool retire_recorded(policy_port<P>& port);

  // ---- shared by the modes ----

  cell* free_turn(unsigned w, cell* a) {
    state_[w].limit = 0;
    state_[w].exact_turn = false;
    ++script_.log().free_turns;
    return a;
  }

  cell* free_pop(unsigned w, worker_stats& st) {
    stop_waiting(w);
    if (!held_.empty()) {
      auto it = held_.begin();  // lowest actor id: deterministic
      cell* a = it->second;
      held_.erase(it);
      return free_turn(w, a);
    }
    cell* a = Inner::pop(w, st);
    return a ? free_turn(w, a) : nullptr;
  }

  /// Keeps `a` for the worker whose script names it; wakes that worker if its turn is next.
  void hold(unsigned w, cell* a) {
    if (exact_ && mode_ == mode::forced) {
      inbox_.drain(*a);  // exact mode, step 1: before anyone else can take `a` from held_
      held_.emplace(a->id(), a);
      ++progress_;
      return;
    }
    held_.emplace(a->id(), a);
    if (mode_ == mode::forced) nudge(w);
  }

  void stop_waiting(unsigned w) {
    if (state_[w].waiting) {
      state_[w].waiting = false;
      --waiting_;
    }
  }

  /// A worker that runs or is about to: every worker the run starts with (its thread may
  /// not have reached its first pop yet), and any other slot once started, until it retires.
  bool present(unsigned v) const { return (v < initial_ || state_[v].started) && !state_[v].retired; }

  unsigned active() const {
    unsigned n = 0;
    for (unsigned v = 0; v < slots_; ++v) n += present(v);
    return n;
  }

  void diverge(unsigned w, const recorded_turn* want, const cell& got) {
    replay_log& log = script_.log();
    log.diverged = true;
    const std::string turn = "worker " + std::to_string(w) + "'s recorded turn #" + std::to_string(script_.next_ordinal(w));
    log.notes.push_back("first divergence: " +
                        (want ? turn + " ran actor " + std::to_string(want->actor) + " at " +
                                    std::to_string(want->time_ns) + " ns"
                              : "worker " + std::to_string(w) + " has no recorded turn left") +
                        "; at " + std::to_string(script_.plat().now_ns()) + " ns simulated the policy chose actor " +
                        std::to_string(got.id()) + ". Forcing the recorded decisions from here.");
    mode_ = mode::forced;
    wake_others(w);  // a worker parked in match mode must come back to be counted as waiting
  }

  void run_out(unsigned w) {
    replay_log& log = script_.log();
    log.ran_out = true;
    log.notes.push_back("the recorded decisions ran out at " + std::to_string(script_.plat().now_ns()) +
                        " ns simulated (worker " + std::to_string(w) +
                        " noticed); the rest of the run follows the scenario's seed");
    mode_ = mode::free;
    wake_others(w);
  }

  void wake_others(unsigned w) {
    for (unsigned v = 0; v < slots_; ++v)
      if (v != w) park_.wake(v, int(w));
  }

  parking<P>& park_;
  replay_script& script_;
  unsigned slots_, initial_;
  std::uint32_t burst_;
  bool exact_;
  std::vector<worker_state> state_;
  std::vector<worker_stats> scratch_;  // exact mode: what inner pops count inside a turn (not reported)
  replay_inbox<P> inbox_;              // exact mode: messages by id, until their recorded turn
  std::vector<cell*> actors_;          // by actor id (on_spawn): exact mode claims idle actors
  replay_receive_order order_;         // exact mode: each actor's recorded turns taken so far (step 2)
  std::uint64_t progress_ = 0, quiet_mark_ = 0;  // exact mode: stall detection (step 4)
  bool adopt_ = false;  // exact mode: run the turns of slots never started (after a stall)
  unsigned quiet_ = 0;
  std::map<std::uint32_t, cell*> held_;  // by actor id: deterministic order
  unsigned waiting_ = 0;
  mode mode_ = mode::match;
  unsigned out_of_order_ = 0;  // a worker allowed its next turn out of the recorded order (slots_: none)
  // exact mode, a policy that scales (replay_scale_forcing.hpp), by slot:
  std::vector<bool> opened_;    // the policy's forwarding names it: it started with the run or was opened here
  std::vector<bool> reserved_;  // reserved through the port for a recorded start still to come
  std::vector<std::uint32_t> starts_;  // the slot's recorded starts made (or given up) so far
};

}  // namespace twinsched
