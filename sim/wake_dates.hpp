// The dates at which waiting actors wake by themselves, earliest first: what flush's lookahead must not overtake.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

namespace twinsched::sim_detail {

/// A binary min-heap of (date, actor) with each actor's position kept in the actor
/// (`Actor::wake_slot`, -1: none), so an actor's date can be set or cleared in O(log n).
/// Only the minimum date is ever read: the order among equal dates, and so the actors'
/// addresses, never matter.
template <class Actor>
class wake_dates {
 public:
  /// `a` wakes at `date` (simulated seconds) unless something else wakes it first.
  void set(Actor* a, double date) {
    if (a->wake_slot < 0) {
      a->wake_slot = int(heap_.size());
      heap_.push_back({date, a});
    } else {
      heap_[std::size_t(a->wake_slot)].date = date;
      down(std::size_t(a->wake_slot));
    }
    up(std::size_t(a->wake_slot));
  }
  /// `a` runs again (or waits for nothing dated).
  void clear(Actor* a) {
    if (a->wake_slot < 0) return;
    const std::size_t i = std::size_t(a->wake_slot);
    a->wake_slot = -1;
    const entry last = heap_.back();
    heap_.pop_back();
    if (i == heap_.size()) return;
    place(i, last);
    down(i);
    up(i);
  }
  bool empty() const { return heap_.empty(); }
  double earliest() const { return heap_.front().date; }
  void reset() {
    for (entry& e : heap_) e.actor->wake_slot = -1;
    heap_.clear();
  }

 private:
  struct entry {
    double date;
    Actor* actor;
  };
  void place(std::size_t i, entry e) {
    heap_[i] = e;
    e.actor->wake_slot = int(i);
  }
  void up(std::size_t i) {
    while (i > 0) {
      const std::size_t parent = (i - 1) / 2;
      if (!(heap_[i].date < heap_[parent].date)) return;
      swap(i, parent);
      i = parent;
    }
  }
  void down(std::size_t i) {
    for (;;) {
      std::size_t least = i;
      for (std::size_t c = 2 * i + 1; c <= 2 * i + 2 && c < heap_.size(); ++c)
        if (heap_[c].date < heap_[least].date) least = c;
      if (least == i) return;
      swap(i, least);
      i = least;
    }
  }
  void swap(std::size_t i, std::size_t j) {
    const entry a = heap_[i], b = heap_[j];
    place(i, b);
    place(j, a);
  }
  std::vector<entry> heap_;
};

}  // namespace twinsched::sim_detail
