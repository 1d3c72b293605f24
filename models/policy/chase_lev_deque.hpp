// A work-stealing deque (Chase-Lev), growable: the owner pushes and pops at the bottom, thieves take from the top.
//
// Overview
//   The C11 formulation of Lê, Pop, Cohen and Zappa Nardelli, "Correct and Efficient
//   Work-Stealing for Weak Memory Models" (PPoPP 2013). The owner works at `bottom_`
//   without read-modify-writes except when racing a thief for the last element; thieves
//   CAS `top_`. The ring grows by doubling; old rings stay alive until the deque dies
//   (a thief may still be reading one), which bounds garbage by the final capacity.
//
// Invariants
//   - top_ <= bottom_ + 1 at all times; the elements are ring[top_ .. bottom_).
//   - Only the owner writes bottom_ and the ring pointer; top_ only increases.
//
// Protocol (memory orders name what they pair with)
//   push (owner): write slot b; fence(release) [pairs with steal's acquire of bottom];
//                 bottom = b + 1 (relaxed)
//   pop  (owner): bottom = b - 1; fence(seq_cst) [orders against steal's fence]; read top;
//                 if top < b-1+1 the slot is ours, except when top == b-1 (last element):
//                 then CAS top (seq_cst) against thieves and restore bottom
//   steal (thief): read top (acquire); fence(seq_cst) [pairs with pop's fence]; read bottom
//                 (acquire, pairs with push's release); if non-empty read the slot, CAS top
//                 (seq_cst); a failed CAS means another party took it: report `lost`
//   Why correct: see the paper; the two seq_cst fences make the owner's decrement of bottom
//   and a thief's read of top totally ordered, so the last element goes to exactly one.
#pragma once
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "../platform.hpp"

namespace twinsched {

template <class P, class T>
class chase_lev_deque {
  static_assert(std::is_pointer_v<T>, "elements are pointers (null means none)");

 public:
  explicit chase_lev_deque(std::size_t capacity = 64) {
    rings_.push_back(std::make_unique<ring>(capacity));
    ring_.store(rings_.back().get(), std::memory_order_relaxed);
  }

  /// Owner only.
  void push(T x) {
    P::queue_op();
    std::int64_t b = bottom_.load(std::memory_order_relaxed);
    std::int64_t t = top_.load(std::memory_order_acquire);
    ring* r = ring_.load(std::memory_order_relaxed);
    if (b - t > std::int64_t(r->mask)) r = grow(r, t, b);
    r->put(b, x);
    P::fence(std::memory_order_release);  // pairs with steal's acquire load of bottom_
    bottom_.store(b + 1, std::memory_order_relaxed);
  }

  /// Owner only: the most recently pushed element (LIFO), or null.
  T pop() {
    P::queue_op();
    std::int64_t b = bottom_.load(std::memory_order_relaxed) - 1;
    ring* r = ring_.load(std::memory_order_relaxed);
    bottom_.store(b, std::memory_order_relaxed);
    P::fence(std::memory_order_seq_cst);  // pairs with the fence in steal
    std::int64_t t = top_.load(std::memory_order_relaxed);
    if (t > b) {  // empty
      bottom_.store(b + 1, std::memory_order_relaxed);
      return nullptr;
    }
    T x = r->get(b);
    if (t == b) {  // last element: race thieves for it
      if (!top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst, std::memory_order_relaxed)) x = nullptr;
      bottom_.store(b + 1, std::memory_order_relaxed);
    }
    return x;
  }

  enum class steal_status { taken, empty, lost };

  /// Anyone (the owner too, for FIFO order): the oldest element.
  steal_status steal(T& out) {
    P::queue_op();
    std::int64_t t = top_.load(std::memory_order_acquire);
    P::fence(std::memory_order_seq_cst);  // pairs with the fence in pop
    std::int64_t b = bottom_.load(std::memory_order_acquire);  // pairs with push's release fence
    if (t >= b) return steal_status::empty;
    ring* r = ring_.load(std::memory_order_acquire);  // pairs with grow's release store
    T x = r->get(t);
    if (!top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst, std::memory_order_relaxed))
      return steal_status::lost;
    out = x;
    return steal_status::taken;
  }

  /// Approximate size; exact when no one else is operating.
  std::int64_t size() const {
    std::int64_t b = bottom_.load(std::memory_order_acquire);
    std::int64_t t = top_.load(std::memory_order_acquire);
    return b > t ? b - t : 0;
  }

 private:
  struct ring {
    explicit ring(std::size_t cap) : mask(cap - 1), slots(std::make_unique<typename P::template atomic<T>[]>(cap)) {}
    std::size_t mask;
    std::unique_ptr<typename P::template atomic<T>[]> slots;
    // Slots are atomics only so a thief's racy read of a slot the owner may overwrite is
    // defined; relaxed suffices, ordering comes from the fences on top_/bottom_.
    T get(std::int64_t i) const { return slots[std::size_t(i) & mask].load(std::memory_order_relaxed); }
    void put(std::int64_t i, T x) { slots[std::size_t(i) & mask].store(x, std::memory_order_relaxed); }
  };

  ring* grow(ring* old, std::int64_t t, std::int64_t b) {
    rings_.push_back(std::make_unique<ring>((old->mask + 1) * 2));
    ring* r = rings_.back().get();
    for (std::int64_t i = t; i < b; ++i) r->put(i, old->get(i));
    ring_.store(r, std::memory_order_release);  // pairs with steal's acquire load of ring_
    return r;
  }

  alignas(64) typename P::template atomic<std::int64_t> top_{0};
  alignas(64) typename P::template atomic<std::int64_t> bottom_{0};
  typename P::template atomic<ring*> ring_{nullptr};
  std::vector<std::unique_ptr<ring>> rings_;  // owner only; keeps retired rings alive
};

}  // namespace twinsched
