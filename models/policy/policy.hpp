// The policy interface: what every scheduling policy provides, the capabilities a policy may add, and the narrow port its hooks act through.
//
// A policy decides where a runnable actor waits and which actor an idle worker takes next.
// The scheduler and the worker loop (scheduler.hpp, worker.hpp) use a policy Pol over
// platform P only through what is declared here, and check it at compile time
// (check_policy, below), so a policy that does not fit fails with the concept's name.
//
// Required of every policy (concept `scheduling_policy`):
//   static constexpr const char* name                 -- the name scenarios use
//   static constexpr policy_caps caps                  -- the capabilities it declares
//   Pol(const policy_setup<P>&, extra...)              -- parking, config, seed, tracer
//   void on_spawn(actor_cell<P>&, int spawner)         -- bind a new actor (distribution: home)
//   void push(int from, actor_cell<P>&, push_reason)   -- the actor became runnable; `from` is
//                                                         the pushing worker or -1 (outside);
//                                                         the policy wakes a sleeper if needed
//   actor_cell<P>* pop(unsigned w, worker_stats&)      -- next actor for w, or null
//   bool has_work(unsigned w) const                    -- re-check before parking: true if a
//                                                         pop by w could succeed now
//   std::size_t queued() const                         -- actors still queued (quiescent: 0)
//   void add_stats(unsigned w, worker_stats&) const    -- policy-side counters, at collection
//   void describe(std::string&) const                  -- its queues, for the hang report
//
// Capabilities: each is a group of hooks declared together, switched on in `caps` and
// checked as a whole. Declaring a capability without all of its hooks (or with one
// misspelled) fails to compile naming the capability's concept; a hook of a capability
// the policy does not declare fails too, instead of being silently never called.
//   observes_work   void after_message(policy_port<P>&, actor_cell<P>&) -- after each message,
//                                                                          by the actor's owner
//                   void on_idle(policy_port<P>&)    -- each time the worker found no work
//   scales_workers  static unsigned slots(const scheduler_config&) -- worker slots (>= workers)
//                   bool try_retire(policy_port<P>&) -- while idle: true makes the worker leave
//                                                       the run; the policy must first move
//                                                       everything queued for it elsewhere
//                   std::uint64_t park_limit_ns(unsigned w) const -- bound on any park (0: none),
//                                                       so that a parked worker notices it may retire
//                   The policy then starts workers with policy_port::start_worker (scheduler.hpp
//                   argues quiescence with a changing worker count).
//   forces_turns    std::uint32_t turn_burst(unsigned w) const -- message limit of the turn w just
//                                                       popped, instead of `burst` (replay)
//                   bool picks_messages(unsigned w) const -- true: the turn w just popped takes
//                                                       its messages from next_message, not
//                                                       from the mailbox in arrival order
//                   envelope<P>* next_message(policy_port<P>&, actor_cell<P>&) -- the turn's next
//                                                       message, in an envelope the worker now
//                                                       owns (it recycles it), or null: the turn ends
//                   void end_turn(policy_port<P>&, actor_cell<P>&) -- after such a turn, before
//                                                       the actor is released (replay: message-exact)
//   holds_drained   (no hooks) the worker holds a drained actor for one more turn (worker.hpp)
//
// The port: hooks never see the worker or the scheduler. policy_port<P> says what they may
// do: know which worker calls, read the time, record a decision in the trace, count a
// donation or migration, take and give back an envelope, start a worker.
//
// Wake-ups: a push to another worker's queue must wake it with the strict `wake`/`wake_one`
// (parking.hpp), never the hint: the pusher will not run that work itself.
#pragma once
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>

#include "../actor.hpp"
#include "../config.hpp"
#include "../envelope_pool.hpp"
#include "../parking.hpp"
#include "../run_result.hpp"
#include "../trace_event.hpp"
#include "../tracer.hpp"

namespace twinsched {

enum class push_reason : std::uint8_t {
  sent,      ///< a message reached an idle actor
  yielded,   ///< the actor used its burst, or its mailbox was mid-push, and still has work
  external,  ///< injected before the run (workload start)
};

/// The capabilities a policy declares (see the header).
struct policy_caps {
  bool observes_work = false;
  bool scales_workers = false;
  bool forces_turns = false;
  /// No hooks: the worker keeps the actor whose turn just drained for one more turn instead
  /// of releasing it at once (worker.hpp, "Holding a drained actor"). For policies whose
  /// push accepts, at any time, an actor the pushing worker owns.
  bool holds_drained = false;
};

/// What a policy is built from.
template <class P>
struct policy_setup {
  parking<P>& park;
  const scheduler_config& config;
  std::uint64_t seed;
  const tracer<P>& trace;  ///< for decisions made inside push and pop (stealing: steal)
};

/// Starting workers: implemented by the scheduler (rare: a virtual call is fine here).
class worker_control {
 public:
  /// Reserves a worker slot with no thread: its index, or -1 if every slot has one.
  virtual int reserve_worker() = 0;
  /// Starts a thread on a slot reserve_worker returned. Only from a worker that is not idle.
  virtual void start_worker(unsigned slot) = 0;
  /// The policy's count of running threads changed by `delta` (a start it decided, +1; a
  /// retirement, -1): the run's thread timeline records it. Call it where the policy orders
  /// its starts and retirements (adaptive: under its scale lock), so that the timeline lists
  /// them in the order they were decided. The scheduler's own count changes later, when the
  /// thread really starts or leaves: recorded there, a retirement decided after a start
  /// could come first, and the timeline dipped below min_workers (seen under TSan).
  virtual void note_running(int delta) = 0;

 protected:
  ~worker_control() = default;
};

/// What a policy's hooks may do, on behalf of the worker that calls them.
template <class P>
class policy_port {
 public:
  policy_port(unsigned index, P& plat, const tracer<P>& t, worker_stats& stats, envelope_pool<P>& pool,
              worker_control& control)
      : index_(index), plat_(plat), tracer_(t), stats_(stats), pool_(pool), control_(control) {}

  unsigned index() const { return index_; }
  std::uint64_t now_ns() const { return plat_.now_ns(); }
  /// Records a decision (donate, migrate, thread start/retire) when tracing decisions.
  void note(event_kind k, std::uint32_t actor, std::uint64_t msg, std::uint32_t other) const {
    if (tracer_.on(trace_level::decisions)) tracer_(k, index_, actor, msg, other);
  }
  void count_donations(std::uint64_t n) { stats_.donations += n; }
  void count_migration() { ++stats_.migrations; }
  /// An envelope from this worker's pool (a claimed mailbox needs one: mailbox.hpp), and back.
  envelope<P>* take_envelope() { return pool_.get(); }
  void give_back_envelope(envelope<P>* e) { pool_.put(e); }
  int reserve_worker() { return control_.reserve_worker(); }
  void start_worker(unsigned slot) { control_.start_worker(slot); }
  void note_running(int delta) { control_.note_running(delta); }

 private:
  unsigned index_;
  P& plat_;
  const tracer<P>& tracer_;
  worker_stats& stats_;
  envelope_pool<P>& pool_;
  worker_control& control_;
};

// (The constructor is not part of the concept: a wrapping policy takes more arguments after
// the setup (replay_policy), and a wrong constructor fails where the scheduler calls it.)
template <class Pol, class P>
concept scheduling_policy =
    requires(Pol& p, const Pol& cp, actor_cell<P>& a, unsigned w, int from, push_reason why, worker_stats& st,
             std::string& out) {
      { Pol::name } -> std::convertible_to<const char*>;
      { Pol::caps } -> std::convertible_to<policy_caps>;
      { p.on_spawn(a, from) } -> std::same_as<void>;
      { p.push(from, a, why) } -> std::same_as<void>;
      { p.pop(w, st) } -> std::same_as<actor_cell<P>*>;
      { cp.has_work(w) } -> std::same_as<bool>;
      { cp.queued() } -> std::same_as<std::size_t>;
      { cp.add_stats(w, st) } -> std::same_as<void>;
      { cp.describe(out) } -> std::same_as<void>;
    };

template <class Pol, class P>
concept observes_work = requires(Pol& p, policy_port<P>& port, actor_cell<P>& a) {
  { p.after_message(port, a) } -> std::same_as<void>;
  { p.on_idle(port) } -> std::same_as<void>;
};

template <class Pol, class P>
concept scales_workers = requires(Pol& p, const Pol& cp, policy_port<P>& port, const scheduler_config& c, unsigned w) {
  { Pol::slots(c) } -> std::same_as<unsigned>;
  { p.try_retire(port) } -> std::same_as<bool>;
  { cp.park_limit_ns(w) } -> std::same_as<std::uint64_t>;
};

template <class Pol, class P>
concept forces_turns = requires(Pol& p, const Pol& cp, unsigned w, policy_port<P>& port, actor_cell<P>& a) {
  { cp.turn_burst(w) } -> std::same_as<std::uint32_t>;
  { cp.picks_messages(w) } -> std::same_as<bool>;
  { p.next_message(port, a) } -> std::same_as<envelope<P>*>;
  { p.end_turn(port, a) } -> std::same_as<void>;
};

/// True if Pol declares any hook of a capability (callable as the worker would call it):
/// with the capability undeclared, that hook would silently never be called.
template <class Pol, class P>
concept has_work_hooks = requires(Pol& p, policy_port<P>& port, actor_cell<P>& a) { p.after_message(port, a); } ||
                         requires(Pol& p, policy_port<P>& port) { p.on_idle(port); };
template <class Pol, class P>
concept has_scaling_hooks = requires(Pol& p, policy_port<P>& port) { p.try_retire(port); } ||
                            requires(const Pol& p, unsigned w) { p.park_limit_ns(w); } ||
                            requires(const scheduler_config& c) { Pol::slots(c); };
template <class Pol, class P>
concept has_turn_hooks = requires(const Pol& p, unsigned w) { p.turn_burst(w); } ||
                         requires(const Pol& p, unsigned w) { p.picks_messages(w); } ||
                         requires(Pol& p, policy_port<P>& port, actor_cell<P>& a) { p.next_message(port, a); } ||
                         requires(Pol& p, policy_port<P>& port, actor_cell<P>& a) { p.end_turn(port, a); };

/// Compile-time check of a policy against this interface; the scheduler asserts it.
template <class Pol, class P>
consteval bool check_policy() {
  static_assert(scheduling_policy<Pol, P>, "the policy does not satisfy twinsched::scheduling_policy (policy.hpp)");
  if constexpr (Pol::caps.observes_work)
    static_assert(observes_work<Pol, P>, "caps.observes_work: the policy must declare both hooks of observes_work");
  else
    static_assert(!has_work_hooks<Pol, P>, "after_message/on_idle are hooks of observes_work, which caps does not declare");
  if constexpr (Pol::caps.scales_workers)
    static_assert(scales_workers<Pol, P>, "caps.scales_workers: the policy must declare every hook of scales_workers");
  else
    static_assert(!has_scaling_hooks<Pol, P>, "slots/try_retire/park_limit_ns are hooks of scales_workers, which caps does not declare");
  if constexpr (Pol::caps.forces_turns)
    static_assert(forces_turns<Pol, P>, "caps.forces_turns: the policy must declare every hook of forces_turns");
  else
    static_assert(!has_turn_hooks<Pol, P>,
                  "turn_burst/picks_messages/next_message/end_turn are hooks of forces_turns, which caps does not declare");
  return true;
}

}  // namespace twinsched
