// Policy `stealing`: per-worker deques, owner LIFO (or FIFO: ForkJoinPool asyncMode), idle workers steal from a random victim.
//
// An actor made runnable by a worker goes onto that worker's deque; one made runnable from
// outside goes to the injector. A worker takes, in order: its own deque (bottom for LIFO,
// top for FIFO), the injector, then steals from the top of victims' deques, starting at a
// random victim and trying each once. `steal = "half"` takes up to half of the victim's
// deque in one visit, keeping the first and pushing the rest onto its own deque.
#pragma once
#include <memory>
#include <vector>

#include "../config.hpp"
#include "../parking.hpp"
#include "../rng.hpp"
#include "../run_result.hpp"
#include "chase_lev_deque.hpp"
#include "locked_fifo.hpp"
#include "policy.hpp"

namespace twinsched {

template <class P>
class stealing_policy {
 public:
  static constexpr const char* name = "stealing";

  stealing_policy(parking<P>& park, const scheduler_config& c, std::uint64_t seed)
      : park_(park), fifo_(c.fifo), half_(c.steal == "half"), n_(c.workers) {
    for (unsigned i = 0; i < n_; ++i) locals_.push_back(std::make_unique<local>(seed, i));
  }

  void on_spawn(actor_cell<P>&, int) {}

  void push(int from, actor_cell<P>& a, push_reason) {
    if (from < 0) injector_.push(a);
    else locals_[unsigned(from)]->deque.push(&a);
    park_.wake_one(from);
  }

  actor_cell<P>* pop(unsigned w, worker_stats& st) {
    local& me = *locals_[w];
    if (actor_cell<P>* a = fifo_ ? take_oldest(me.deque) : me.deque.pop()) return a;
    if (actor_cell<P>* a = injector_.pop()) return a;
    if (n_ == 1) return nullptr;
    unsigned start = me.rand.below(n_);
    for (unsigned k = 0; k < n_; ++k) {
      unsigned v = (start + k) % n_;
      if (v == w) continue;  // a thief never steals from itself
      if (actor_cell<P>* a = steal_from(locals_[v]->deque, me.deque)) {
        ++st.steals;
        return a;
      }
    }
    return nullptr;
  }

  bool has_work(unsigned) const {
    if (injector_.size() != 0) return true;
    for (auto& l : locals_)
      if (l->deque.size() != 0) return true;
    return false;
  }

  std::size_t queued() const {
    std::size_t n = injector_.size();
    for (auto& l : locals_) n += std::size_t(l->deque.size());
    return n;
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

  actor_cell<P>* steal_from(deque_t& victim, deque_t& mine) const {
    actor_cell<P>* first = nullptr;
    if (victim.steal(first) != deque_t::steal_status::taken) return nullptr;
    if (half_) {
      for (std::int64_t extra = victim.size() / 2; extra > 0; --extra) {
        actor_cell<P>* a = nullptr;
        if (victim.steal(a) != deque_t::steal_status::taken) break;
        mine.push(a);
      }
    }
    return first;
  }

  struct local {
    local(std::uint64_t seed, unsigned i) : rand(seed * 0x100000001b3ull + i) {}
    deque_t deque;
    rng rand;
  };

  parking<P>& park_;
  bool fifo_, half_;
  unsigned n_;
  std::vector<std::unique_ptr<local>> locals_;
  locked_fifo<P> injector_;
};

}  // namespace twinsched
