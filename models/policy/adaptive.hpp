// Policy `adaptive`: actors bound to dispatcher threads; an overloaded thread starts another and migrates its largest backlogs to it; idle threads retire.
//
// Overview
//   Like `distribution`, each actor has a home dispatcher and waits in that dispatcher's
//   queue; it stays put unless moved. The number of dispatcher threads changes with the
//   load, between `min_workers` and `max_workers` (0: `workers`), starting from `workers`:
//   - Overload: a thread whose loop has not gone idle for `overload_after` messages takes
//     its pending actors out of its queue and measures their mailboxes; SUM_QUEUED of a
//     thread is the total of its actors' mailboxes, the running actor's included (it cannot
//     move: it is ours until its turn ends). The rules are the Kontraktor post's (seed 002):
//     2. Below the maximum it starts a new thread (through its policy_port: start_worker)
//        and moves to it the actors with the largest mailboxes "as long as SUM_QUEUED(A) >
//        SUM_QUEUED(B)", checked before each move (plan_split). Two equal actors sharing a
//        thread are split (12 + 12 > 0: one moves); a rule that moved an actor only if the
//        receiver then held less than the giver never split them, and left pi's 8 actors on
//        6 threads of 8 (docs/KONTRAKTOR_PI.md).
//     3. At the maximum it rebalances "based on summation of queued messages and overload
//        observations": each thread publishes whether it is overloaded (ran overload_after
//        messages since it last went idle). A running thread that is not (it has gone idle
//        since) is preferred as the target and treated like a new thread, its queued actors
//        counted one message each (they arrived since it was idle). If every other thread is
//        overloaded, the least-queued one is the target only on a 2:1 imbalance, and an actor
//        moves only if the target then holds less than we do (plan_rebalance); otherwise two
//        loaded threads, each busy with an actor whose mailbox the other cannot see, would
//        trade actors back and forth.
//     Nothing to move (one actor holds all the work): no thread is started. Mailboxes are
//     measured with a bounded walk (walk_budget), so a rebalance costs O(1) per message.
//   - Retirement: a thread that has been idle for `retire_after` (and is not among the
//     last `min_workers`) redirects its actors to the least-loaded running thread and
//     leaves the run (scheduler::retire_worker).
//
// Forwarding: `home` and `fwd_`
//   Actors a thread holds (taken from its queue) get their new `home` written directly, by
//   the holder, as in sharing.hpp. Idle actors homed on a retiring thread cannot be
//   touched (anyone may claim them at any moment), so homes go through a forwarding table:
//   an actor is queued at fwd_[home]. Invariant: fwd_[i] == i for every running slot i,
//   and fwd_[i] is a running (or just retiring) slot for every other i. A retiring slot R:
//     1. under scale_mutex_, redirects every fwd_ entry that names R to the target T
//        (release stores; a pusher's acquire load pairs with them)
//     2. closes its queue and takes what is in it (dispatcher_queue: close_and_take)
//     3. re-homes those actors to T and pushes them there, waking T
//   A pusher that read fwd_ before step 1 and reaches R's queue after step 2 is refused
//   under R's queue lock, which also makes step 1 visible to it: it reads fwd_ again and
//   finds T (or, if T retired meanwhile, T's own target). A message that reaches the old
//   dispatcher is thereby forwarded. A restarted slot S reopens its queue before
//   fwd_[S] = S is published.
//
// Quiescence with a changing thread count is argued in scheduler.hpp; this policy keeps
// its side of it: retirement happens only in `try_retire` (the worker is idle), and only
// after step 3, so a retiring worker leaves no actor queued behind it; a new thread is
// started by a worker in the middle of a turn.
//
// Wake-ups: a push onto another dispatcher's queue wakes it with the strict `wake`; onto
// the pusher's own queue, nobody (no one else may run it). Idle workers park at most
// `retire_after` at a time (park_limit_ns), so that a parked thread notices it may retire.
// Per-sender order: actors move whole, with their mailboxes, so it is kept.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../config.hpp"
#include "../parking.hpp"
#include "../run_result.hpp"
#include "../trace_event.hpp"
#include "dispatcher_queue.hpp"
#include "policy.hpp"
#include "policy_info.hpp"

namespace twinsched {

template <class P>
class adaptive_policy;

template <>
struct policy_info<adaptive_policy> {
  static constexpr const char* name = "adaptive";
  static constexpr const char* description =
      "actors bound to threads; an overloaded thread starts another and migrates actors; idle ones retire";
  static constexpr knob<scheduler_config> knobs[] = {
      {.key = "overload_after",
       .help = "messages a thread runs without going idle before it counts as overloaded",
       .u32 = &scheduler_config::overload_after,
       .min = 1},
      {.key = "min_workers",
       .help = "threads never retire below this",
       .u32 = &scheduler_config::min_workers,
       .min = 1,
       .max = workers_limit},
      {.key = "max_workers",
       .help = "threads never grow above this; 0 = workers",
       .u32 = &scheduler_config::max_workers,
       .max = workers_limit},
      {.key = "retire_after_us",
       .help = "idle time after which a thread retires",
       .u64 = &scheduler_config::retire_after_ns,
       .min = 1,
       .micros = true},
  };
  static void check(const scenario& s) {
    const scheduler_config& c = s.sched;
    auto n = [](std::uint32_t v) { return std::to_string(v); };
    if (c.max_workers != 0 && c.min_workers > c.max_workers)
      throw config_error("adaptive: min_workers (" + n(c.min_workers) + ") must not exceed max_workers (" +
                         n(c.max_workers) + ")");
    if (c.workers < c.min_workers)
      throw config_error("adaptive: workers (" + n(c.workers) + ") must be at least min_workers (" + n(c.min_workers) + ")");
    if (c.max_workers != 0 && c.workers > c.max_workers)
      throw config_error("adaptive: workers (" + n(c.workers) + ") must not exceed max_workers (" + n(c.max_workers) + ")");
  }
};

template <class P>
class adaptive_policy {
 public:
  static constexpr const char* name = policy_info<adaptive_policy>::name;
  static constexpr policy_caps caps{.observes_work = true, .scales_workers = true};
  static constexpr std::size_t backlog_cap = 1024;  // mailboxes are measured up to this...
  static constexpr std::size_t walk_budget = 2;      // ...and all of them together up to this
                                                     // many nodes per message since the last
                                                     // rebalance (walking a mailbox is a chain
                                                     // of cache misses)

  static unsigned slots(const scheduler_config& c) { return std::max(c.workers, c.max_workers); }

  explicit adaptive_policy(const policy_setup<P>& s)
      : park_(s.park), n_(slots(s.config)), initial_(s.config.workers), min_(s.config.min_workers),
        overload_after_(s.config.overload_after), retire_after_(s.config.retire_after_ns), fwd_(std::make_unique<typename P::template atomic<std::uint32_t>[]>(n_)) {
    for (unsigned i = 0; i < n_; ++i) {
      slots_.push_back(std::make_unique<slot>());
      fwd_[i].store(i, std::memory_order_relaxed);  // before any thread: starting them publishes it
      slots_[i]->on = i < initial_;
      if (!slots_[i]->on) slots_[i]->q.close_and_take();
    }
    active_ = initial_;
    active_count_.store(initial_, std::memory_order_relaxed);  // before any thread, as above
  }

  /// Round robin over the initial threads when spawned from outside; the spawner's own
  /// thread otherwise. Relaxed: a counter that orders nothing.
  void on_spawn(actor_cell<P>& a, int by) {
    a.home = by >= 0 ? unsigned(by) : next_.fetch_add(1, std::memory_order_relaxed) % initial_;
  }

  void push(int from, actor_cell<P>& a, push_reason) { send_home(from, a); }

  actor_cell<P>* pop(unsigned w, worker_stats&) {
    slot& me = *slots_[w];
    actor_cell<P>* a = me.q.pop();
    if (a) me.idle_since = 0;
    return a;
  }

  bool has_work(unsigned w) const { return slots_[w]->q.size() != 0; }
  std::size_t queued() const {
    std::size_t n = 0;
    for (auto& s : slots_) n += s->q.size();
    return n;
  }
  std::uint64_t park_limit_ns(unsigned) const { return retire_after_; }

  /// Hang report: each slot's queue, whether a thread runs it, and where it forwards.
  void describe(std::string& out) const {
    for (unsigned i = 0; i < n_; ++i) {
      out += "  slot " + std::to_string(i) + (slots_[i]->on ? " (thread on)" : " (no thread)") + ", forwards to " +
             std::to_string(fwd_[i].load(std::memory_order_relaxed)) + ", queue: ";
      slots_[i]->q.describe(out);
      out += "\n";
    }
  }

  void add_stats(unsigned, worker_stats&) const {}

  void after_message(policy_port<P>& port, actor_cell<P>& a) {
    slot& me = *slots_[port.index()];
    if (++me.since_idle < overload_after_) return;
    me.since_idle = 0;
    if (!me.overloaded_mine) {
      me.overloaded_mine = true;
      me.overloaded.store(true, std::memory_order_relaxed);  // a hint for least_loaded: orders nothing
    }
    rebalance(port, a);
  }

  void on_idle(policy_port<P>& port) {
    slot& me = *slots_[port.index()];
    me.since_idle = 0;
    if (me.overloaded_mine) {
      me.overloaded_mine = false;
      me.overloaded.store(false, std::memory_order_relaxed);  // a hint, as above
    }
    if (me.idle_since == 0) me.idle_since = port.now_ns() + 1;
  }

  bool try_retire(policy_port<P>& port) {
    slot& me = *slots_[port.index()];
    if (me.idle_since == 0 || port.now_ns() + 1 - me.idle_since < retire_after_) return false;
    // relaxed: a hint read without the lock; the decision is re-taken under it
    if (active_count_.load(std::memory_order_relaxed) <= min_) return false;
    return retire(port, -1);
  }

  // ---- the replay's seam (sim/replay_scale_forcing.hpp): a recorded decision carried out ----
  // Replay of a real trace starts and retires threads where the recording did, instead of
  // deciding by its own measure; these do what the rules above do once they have decided.

  /// Opens slot `s` (the caller has reserved it through its port) for a thread the caller
  /// starts next, as the growing rule does before it migrates actors to it.
  void open_slot(policy_port<P>& port, unsigned s) {
    lock_guard g(scale_mutex_);
    open_locked(port, s);
  }

  /// Retires the calling worker's slot now, its actors going to slot `target`, or, if that
  /// slot does not run now, to the slot it forwards to, or else to the least loaded running
  /// slot. False (nothing done) if no slot other than the caller's runs.
  bool retire_to(policy_port<P>& port, unsigned target) { return retire(port, int(target)); }

 private:
  struct held_actor {
    std::size_t backlog;
    actor_cell<P>* a;
    bool moving;
  };

  struct alignas(64) slot {
    dispatcher_queue<P> q;
    bool on = false;                   // a thread runs (or is about to run) this slot; under scale_mutex_
    std::uint32_t since_idle = 0;      // owner only: messages since the loop last went idle
    std::uint64_t idle_since = 0;      // owner only: now_ns + 1 when the idle spell began, 0 if busy
    std::vector<held_actor> held;      // owner only: scratch for rebalance
    bool overloaded_mine = false;      // owner only: the value last stored in `overloaded`
    // Overloaded (ran overload_after messages without going idle) since the loop last went
    // idle: written by the owner, read by other threads' rebalancing as a hint.
    typename P::template atomic<bool> overloaded{false};
  };

  /// Retirement steps 1-3 (header: forwarding), toward least_loaded (forced < 0: the rule's
  /// own, which keeps min_workers and an empty queue) or toward slot `forced` (retire_to).
  bool retire(policy_port<P>& port, int forced) {
    unsigned w = port.index();
    slot& me = *slots_[w];
    actor_cell<P>* left;
    unsigned t;
    {
      lock_guard g(scale_mutex_);
      if (forced < 0) {
        if (active_ <= min_ || me.q.size() != 0) return false;
        t = least_loaded(w);
      } else {
        t = fwd_[unsigned(forced)].load(std::memory_order_relaxed);  // under the lock, as below
        if (t == w || !slots_[t]->on) t = least_loaded(w);
        if (t == w) return false;
      }
      // step 1; relaxed load: fwd_ is written only under scale_mutex_, which we hold;
      // the release store pairs with send_home's acquire load
      for (unsigned i = 0; i < n_; ++i)
        if (fwd_[i].load(std::memory_order_relaxed) == w) fwd_[i].store(t, std::memory_order_release);
      me.on = false;
      active_count_.store(--active_, std::memory_order_relaxed);  // a mirror read only as a hint
      port.note_running(-1);  // in the order of the decisions (policy.hpp)
      left = me.q.close_and_take();  // step 2
    }
    while (left) {  // step 3
      actor_cell<P>* x = left;
      left = x->next_runnable;
      x->home = t;
      port.count_migration();
      port.note(event_kind::migrate, x->id(), 0, t);
      send_home(int(w), *x);
    }
    me.idle_since = 0;
    port.note(event_kind::thread_retire, 0, 0, t);
    return true;
  }

  /// Opens slot s for a thread about to start. Under scale_mutex_.
  void open_locked(policy_port<P>& port, unsigned s) {
    slot& ns = *slots_[s];
    ns.q.reopen();  // before fwd_[s] = s is published (header)
    ns.on = true;
    ns.idle_since = 0;
    ns.since_idle = 0;
    ns.overloaded_mine = false;
    ns.overloaded.store(false, std::memory_order_relaxed);  // a hint; start_worker publishes it
    fwd_[s].store(s, std::memory_order_release);  // pairs with send_home's acquire
    active_count_.store(++active_, std::memory_order_relaxed);  // a mirror read only as a hint
    port.note_running(1);  // in the order of the decisions (policy.hpp)
  }

  /// Queues `a` at its home's current dispatcher (header: forwarding) and wakes it.
  void send_home(int from, actor_cell<P>& a) {
    for (;;) {
      unsigned d = fwd_[a.home].load(std::memory_order_acquire);  // pairs with try_retire's / rebalance's release
      if (slots_[d]->q.push_if_open(a)) {
        if (int(d) != from) park_.wake(d, from);
        return;
      }
      // refused: d retired after we read fwd_; its redirect is visible now (header)
    }
  }

  /// The running slot other than `except` with the fewest queued actors; with `calm_first`,
  /// one that is not overloaded, if there is one, before any that is. Under scale_mutex_.
  unsigned least_loaded(unsigned except, bool calm_first = false) const {
    unsigned best = except;
    std::size_t best_load = ~std::size_t(0);
    bool best_calm = false;
    for (unsigned i = 0; i < n_; ++i) {
      if (i == except || !slots_[i]->on) continue;
      std::size_t l = slots_[i]->q.size();
      // relaxed: a hint (slot::overloaded); a stale value costs one rebalance, not correctness
      bool calm = calm_first && !slots_[i]->overloaded.load(std::memory_order_relaxed);
      if ((calm && !best_calm) || (calm == best_calm && l < best_load)) best = i, best_load = l, best_calm = calm;
    }
    return best;
  }

  /// Growing (the post's rule 2): marks, largest backlog first, the actors to move to a
  /// newly started thread "as long as SUM_QUEUED(A) > SUM_QUEUED(B)": each is moved if, before
  /// it moves, our queued total (the running actor's included) still exceeds the new thread's.
  /// Two equal actors sharing a thread are split (24 > 0: one moves, 12 and 12). An empty
  /// mailbox changes neither total and stays. Returns how many.
  static std::size_t plan_split(std::vector<held_actor>& held, std::size_t own_total, std::size_t target_total = 0) {
    std::size_t moves = 0;
    for (auto* h : largest_first(held)) {
      h->moving = h->backlog != 0 && own_total > target_total;
      if (!h->moving) continue;
      target_total += h->backlog;
      own_total -= h->backlog;
      ++moves;
    }
    return moves;
  }

  /// Rebalancing at the maximum (rule 3): marks, largest backlog first, the actors to move to
  /// a running thread so that its queued total (starting at `target_total`, an estimate from
  /// its queue) stays below ours. Stricter than plan_split on purpose: the target is busy
  /// with an actor whose backlog we cannot see, and with the growing rule two loaded threads
  /// would hand one actor back and forth. Returns how many.
  static std::size_t plan_rebalance(std::vector<held_actor>& held, std::size_t own_total, std::size_t target_total) {
    std::size_t moves = 0;
    for (auto* h : largest_first(held)) {
      h->moving = target_total + h->backlog < own_total - h->backlog;
      if (!h->moving) continue;
      target_total += h->backlog;
      own_total -= h->backlog;
      ++moves;
    }
    return moves;
  }

  static std::vector<held_actor*> largest_first(std::vector<held_actor>& held) {
    std::vector<held_actor*> order;
    for (auto& h : held) order.push_back(&h);
    std::stable_sort(order.begin(), order.end(), [](auto* x, auto* y) { return x->backlog > y->backlog; });
    return order;
  }

  void rebalance(policy_port<P>& port, actor_cell<P>& running) {
    unsigned w = port.index();
    slot& me = *slots_[w];
    if (n_ == 1) return;           // no other thread can exist
    std::size_t queued = me.q.size();
    if (queued == 0) return;       // nothing queued to move: another thread would idle
    auto& held = me.held;
    held.clear();
    // Each mailbox is measured up to `cap`, so that one rebalance walks about
    // walk_budget * overload_after nodes however many actors are queued; past `cap`,
    // backlogs look alike and the plan balances actor counts instead.
    std::size_t cap = std::clamp<std::size_t>(walk_budget * overload_after_ / (queued + 1), 1, backlog_cap);
    std::size_t own_total = running.box().backlog(cap);  // we are its consumer
    for (actor_cell<P>* x = me.q.take_all(); x; x = x->next_runnable) {
      // we hold every actor taken from our queue, so we may read its mailbox (actor.hpp)
      held.push_back({x->box().backlog(cap), x, false});
      own_total += held.back().backlog;
    }
    // Worth the lock? Only if the growing rule, the more generous one, would move something
    // to an empty thread.
    if (plan_split(held, own_total) == 0) return keep_all(w, held);

    int target = -1;
    bool started = false, calm = false;
    {
      lock_guard g(scale_mutex_);
      if (active_ < n_) {
        int s = port.reserve_worker();
        if (s >= 0) {
          open_locked(port, unsigned(s));
          target = s;
          started = true;
        }
      }
      if (!started) {
        unsigned t = least_loaded(w, true);
        if (t != w) target = int(t), calm = !slots_[t]->overloaded.load(std::memory_order_relaxed);  // a hint
      }
    }
    if (target < 0) return keep_all(w, held);
    if (!started) {
      // the target's backlog, estimated from its queue (we may not walk its mailboxes)
      std::size_t tq = slots_[unsigned(target)]->q.size();
      if (calm) {
        // rule 3's overload observation: the target went idle since it last ran
        // overload_after messages, so what is queued there arrived since: one message per
        // queued actor. It is given work as a new thread would be.
        if (plan_split(held, own_total, tq) == 0) return keep_all(w, held);
      } else if (std::size_t est = tq * std::max<std::size_t>(1, own_total / held.size());  // at our average
                 2 * est >= own_total || plan_rebalance(held, own_total, est) == 0) {
        // both overloaded: rebalance only on a 2:1 imbalance, and only so that the target stays
        // below us, or two loaded threads trade actors back and forth
        return keep_all(w, held);
      }
    }  // started: moves as plan_split marked them above
    for (auto& h : held) {
      if (!h.moving) continue;
      h.a->home = unsigned(target);  // before it moves: we hold it
      port.count_migration();
      port.note(event_kind::migrate, h.a->id(), 0, unsigned(target));
      send_home(int(w), *h.a);
    }
    put_back(w, held);
    if (started) {
      port.note(event_kind::thread_start, 0, 0, unsigned(target));
      port.start_worker(unsigned(target));
    }
  }

  /// Nothing moves after all: every actor goes back, whatever the plan marked.
  void keep_all(unsigned w, std::vector<held_actor>& held) {
    for (auto& h : held) h.moving = false;
    put_back(w, held);
  }

  /// The actors we keep go back onto our own queue, in their original order.
  void put_back(unsigned w, std::vector<held_actor>& held) {
    for (auto& h : held)
      if (!h.moving) slots_[w]->q.push(*h.a);
    held.clear();
  }

  parking<P>& park_;
  unsigned n_, initial_, min_;
  std::uint32_t overload_after_;
  std::uint64_t retire_after_;
  std::unique_ptr<typename P::template atomic<std::uint32_t>[]> fwd_;
  std::vector<std::unique_ptr<slot>> slots_;
  typename P::template atomic<std::uint32_t> next_{0};
  typename P::mutex scale_mutex_;
  unsigned active_ = 0;  // under scale_mutex_
  alignas(64) typename P::template atomic<std::uint32_t> active_count_{0};  // mirror of active_, read as a hint
};

}  // namespace twinsched
