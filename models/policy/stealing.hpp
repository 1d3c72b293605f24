// Policy `stealing`: per-worker deques, owner LIFO (or FIFO: ForkJoinPool asyncMode), idle workers steal from a random victim.
//
// An actor made runnable by a worker goes onto that worker's deque; one made runnable from
// outside goes to the injector. A worker takes, in order: its own deque (bottom for LIFO,
// top for FIFO), the injector, then steals from the top of victims' deques, starting at a
// random victim and trying each once. `steal = "half"` takes up to half of the victim's
// deque in one visit, keeping the first and pushing the rest onto its own deque.
//
// LIFO slot (owner LIFO only, as in tokio): the actor a worker's running actor just made
// runnable goes into a one-actor slot that only the owner reads, and whatever the slot held
// moves to the deque. The owner runs the slot first. So a message chain (ping -> pong ->
// ping) stays on one core with no deque traffic and nothing for thieves to fight over,
// while every other runnable actor is in the deque, stealable. At most one actor per
// worker is out of thieves' reach. With `fifo = true` there is no slot.
//
// Holding (caps.holds_drained; worker.hpp): a worker keeps the actor whose turn drained for
// one more turn; if a message reached it meanwhile, the worker pushes it as `sent`, so it
// goes into the slot and runs next. pingpong's reply thus finds its actor held: no release
// and no re-scheduling per message.
//
// Wake-ups: a push into the pusher's own slot or deque wakes a sleeper only as a hint
// (parking.hpp: the pusher runs the work itself if nobody steals it); an outside push to
// the injector wakes one for sure.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "../config.hpp"
#include "../parking.hpp"
#include "../rng.hpp"
#include "../run_result.hpp"
#include "../tracer.hpp"
#include "chase_lev_deque.hpp"
#include "locked_fifo.hpp"
#include "policy.hpp"
#include "policy_info.hpp"

namespace twinsched {

template <class P>
class stealing_policy;

template <>
struct policy_info<stealing_policy> {
  static constexpr const char* name = "stealing";
  static constexpr const char* description =
      "per-worker deques; owner pops LIFO (or FIFO with fifo), idle workers steal (steal = one|half)";
  static constexpr knob<scheduler_config> knobs[] = {
      {.key = "fifo",
       .help = "a worker runs its oldest runnable actor first (FIFO, ForkJoinPool asyncMode), not its newest (LIFO)",
       .boolean = &scheduler_config::fifo},
      {.key = "steal",
       .help = "an idle worker takes one actor or half of a random victim's queue",
       .text = &scheduler_config::steal,
       .choices = "one|half"},
  };
};

template <class P>
class stealing_policy {
 public:
  static constexpr const char* name = policy_info<stealing_policy>::name;
  static constexpr policy_caps caps{.holds_drained = true};  // a held actor with mail goes to the slot

  explicit stealing_policy(const policy_setup<P>& s)
      : park_(s.park), tracer_(s.trace), fifo_(s.config.fifo), half_(s.config.steal == "half"), n_(s.config.workers) {
    for (unsigned i = 0; i < n_; ++i) locals_.push_back(std::make_unique<local>(s.seed, i));
  }

  void on_spawn(actor_cell<P>&, int) {}

  /// The slot inline (once per message in a chain: an empty slot takes the actor and that
  /// is all), the deque and the injector out of line.
  [[gnu::always_inline]] void push(int from, actor_cell<P>& a, push_reason why) {
    if (from >= 0 && !fifo_ && why == push_reason::sent) {
      local& me = *locals_[unsigned(from)];
      actor_cell<P>* before = me.slot;
      me.slot = &a;
      if (before) push_queued(from, *before);  // the slot's actor moves to the deque
      return;
    }
    push_queued(from, a);
  }

  /// Onto worker `from`'s deque (never the LIFO slot), waking a sleeper for sure: for an
  /// actor the pusher wants started elsewhere at once (donation's recipients).
  void push_and_wake(unsigned from, actor_cell<P>& a) {
    locals_[from]->deque.push(&a);
    park_.wake_one(int(from));
  }

  /// The slot inline (once per message in a chain), the rest out of line.
  [[gnu::always_inline]] actor_cell<P>* pop(unsigned w, worker_stats& st) {
    local& me = *locals_[w];
    if (actor_cell<P>* a = me.slot) {
      me.slot = nullptr;
      return a;
    }
    return pop_queued(w, st);
  }

 private:
  /// Onto worker `from`'s deque (waking a sleeper as a hint: the pusher runs it itself if
  /// nobody steals it), or from outside (`from` < 0) to the injector, waking one for sure.
  [[gnu::noinline]] void push_queued(int from, actor_cell<P>& a) {
    if (from < 0) {
      injector_.push(a);
      park_.wake_one(from);
      return;
    }
    locals_[unsigned(from)]->deque.push(&a);
    park_.wake_one_hint(from);
  }

  [[gnu::noinline]] actor_cell<P>* pop_queued(unsigned w, worker_stats& st) {
    local& me = *locals_[w];
    if (actor_cell<P>* a = fifo_ ? take_oldest(me.deque) : me.deque.pop()) return a;
    if (actor_cell<P>* a = injector_.pop()) return a;
    if (n_ == 1) return nullptr;
    unsigned start = me.rand.below(n_);
    for (unsigned k = 0; k < n_; ++k) {
      unsigned v = (start + k) % n_;
      if (v == w) continue;  // a thief never steals from itself
      if (actor_cell<P>* a = steal_from(locals_[v]->deque, me.deque, w, v)) {
        ++st.steals;
        return a;
      }
    }
    return nullptr;
  }

 public:
  bool has_work(unsigned w) const {
    if (locals_[w]->slot || injector_.size() != 0) return true;
    for (auto& l : locals_)
      if (l->deque.size() != 0) return true;
    return false;
  }

  std::size_t queued() const {
    std::size_t n = injector_.size();
    for (auto& l : locals_) n += std::size_t(l->deque.size()) + (l->slot != nullptr);
    return n;
  }
  void add_stats(unsigned, worker_stats&) const {}

  /// Hang report: each worker's deque length and LIFO slot, and the injector.
  void describe(std::string& out) const {
    for (unsigned i = 0; i < n_; ++i) {
      out += "  worker " + std::to_string(i) + ": deque " + std::to_string(locals_[i]->deque.size());
      out += locals_[i]->slot ? ", LIFO slot holds actor " + std::to_string(locals_[i]->slot->id()) + "\n" : ", LIFO slot empty\n";
    }
    out += "  injector: ";
    injector_.describe(out);
    out += "\n";
  }

 private:
  using deque_t = chase_lev_deque<P, actor_cell<P>*>;

  static actor_cell<P>* take_oldest(deque_t& d) {
    for (;;) {
      actor_cell<P>* a = nullptr;
      auto s = d.steal(a);
      if (s == deque_t::steal_status::taken) return a;
      if (s == deque_t::steal_status::empty) return nullptr;
    }
  }

  actor_cell<P>* steal_from(deque_t& victim, deque_t& mine, unsigned thief, unsigned v) const {
    actor_cell<P>* first = nullptr;
    if (victim.steal(first) != deque_t::steal_status::taken) return nullptr;
    note_steal(thief, v, *first);
    if (half_) {
      for (std::int64_t extra = victim.size() / 2; extra > 0; --extra) {
        actor_cell<P>* a = nullptr;
        if (victim.steal(a) != deque_t::steal_status::taken) break;
        note_steal(thief, v, *a);
        mine.push(a);
      }
    }
    return first;
  }

  void note_steal(unsigned thief, unsigned victim, const actor_cell<P>& a) const {
    // recorded as it happens: thief, what was taken, victim
    if (tracer_.on(trace_level::decisions)) tracer_(event_kind::steal, thief, a.id(), 0, victim);
  }

  struct local {
    local(std::uint64_t seed, unsigned i) : rand(seed * 0x100000001b3ull + i) {}
    actor_cell<P>* slot = nullptr;  // owner only
    deque_t deque;
    rng rand;
  };

  parking<P>& park_;
  const tracer<P>& tracer_;
  bool fifo_, half_;
  unsigned n_;
  std::vector<std::unique_ptr<local>> locals_;
  locked_fifo<P> injector_;
};

}  // namespace twinsched
