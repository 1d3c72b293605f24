// A binary heap of lane cursors keyed by their next event's (time, lane).
#include "merged_cursor.hpp"

#include <utility>

namespace twinsched::traces {

merged_cursor::merged_cursor(const trace_reader& r) {
  for (std::uint16_t l : r.lanes()) {
    auto c = std::make_unique<lane_cursor>(r, l);
    if (c->peek()) lanes_.push_back(std::move(c));
  }
  for (std::size_t i = 0; i < lanes_.size(); ++i) heap_.push_back(i);
  for (std::size_t i = heap_.size() / 2; i-- > 0;) sift_down(i);
}

bool merged_cursor::before(std::size_t a, std::size_t b) {
  const trace_event* x = lanes_[heap_[a]]->peek();
  const trace_event* y = lanes_[heap_[b]]->peek();
  if (x->time_ns != y->time_ns) return x->time_ns < y->time_ns;
  return lanes_[heap_[a]]->lane() < lanes_[heap_[b]]->lane();
}

void merged_cursor::sift_down(std::size_t i) {
  for (;;) {
    std::size_t l = 2 * i + 1, r = l + 1, m = i;
    if (l < heap_.size() && before(l, m)) m = l;
    if (r < heap_.size() && before(r, m)) m = r;
    if (m == i) return;
    std::swap(heap_[i], heap_[m]);
    i = m;
  }
}

const trace_event* merged_cursor::next() {
  if (heap_.empty()) return nullptr;
  lane_cursor& top = *lanes_[heap_[0]];
  current_ = *top.next();
  if (!top.peek()) {
    heap_[0] = heap_.back();
    heap_.pop_back();
  }
  if (!heap_.empty()) sift_down(0);
  ++count_;
  return &current_;
}

}  // namespace twinsched::traces
