// One lane's events, block by block.
#include "lane_cursor.hpp"

namespace twinsched::traces {

lane_cursor::lane_cursor(const trace_reader& r, std::uint16_t lane) : r_(&r), lane_(lane) {
  const auto& all = r.blocks();
  for (std::size_t k = 0; k < all.size(); ++k)
    if (all[k].lane == lane) blocks_.push_back(k);
}

bool lane_cursor::fill() {
  while (i_ == buf_.size()) {
    if (next_block_ == blocks_.size()) return false;
    r_->read_block(r_->blocks()[blocks_[next_block_++]], buf_);
    i_ = 0;
  }
  return true;
}

const trace_event* lane_cursor::peek() { return fill() ? &buf_[i_] : nullptr; }

const trace_event* lane_cursor::next() {
  if (!fill()) return nullptr;
  ++consumed_;
  return &buf_[i_++];
}

}  // namespace twinsched::traces
