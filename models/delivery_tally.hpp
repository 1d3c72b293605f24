// What each actor was delivered, tallied by the worker that ran it while a run is traced at full level: the per-actor digests.
//
// Why at full level only
//   The digest localizes a payload difference to an actor (diff, replay). That a run delivered
//   the right payloads at all is proven without it at every level: each builtin workload's
//   checksum folds every delivered payload with its receiver and must equal the sequential
//   reference (run_result::ok), and diff and replay compare the two runs' checksums. At
//   decisions level the tally was the largest single part of the recording's cost on forward
//   (a hash and a table row per message; docs/PERFORMANCE.md), so a decisions trace names
//   which actor got different payloads only when the counts differ too; a full trace always does.
//
// Why per worker, not in the actor
//   A trace ends with every actor's message count and a digest of the payloads it was
//   delivered (run_result.hpp's per_actor: the diff's and the replay check's logical
//   equivalence). Kept in the actor's cell, the two made every traced turn write a cache line
//   the untraced turn does not touch; an actor run by the other core last time then cost a
//   second line transfer (on forward over 2 workers, a large part of the decisions level's
//   overhead). A worker's own table, indexed by actor id, stays in its own cache; the run's
//   results add the workers' digests (the digest is a sum, so the order of addition is free).
//
// Why no message count
//   The per-actor message counts come from the trace itself: every turn's run_end records how
//   many messages it processed, and the recorder adds them up per actor as it decodes the
//   lanes (traces/recorder.hpp, `delivered_`). Counting here too was one more load and store
//   per traced message. The digest cannot come from the trace: no level records payloads.
//
// Protocol: a table is written only by its worker; it is read (collect) after the workers
// stopped, ordered by their join (threads) or by the simulation's single thread.
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>

#include "message.hpp"

namespace twinsched {

/// One message's contribution to its receiver's digest: a hash of its payload (a, b, tag).
/// Each field through its own odd multiplier (so swapping a and b changes it), the mix
/// multiplied again and its high half folded down, so that the hash is not linear in any
/// field (a sum of linear hashes would not tell {1, 4} from {2, 3}). Three multiplies and a
/// shift: ~10 instructions per traced message fewer than splitmix64 over a mix (format 2's
/// hash, ~20), on a path every traced message takes. Changing it changes every digest:
/// bump the trace format (traces/format.hpp), whose readers compare digests only between
/// traces of the same hash (footer.hpp `digest_format`).
inline std::uint64_t delivery_hash(const message& m) {
  std::uint64_t h = (m.a * 0x9e3779b97f4a7c15ull) ^ (m.b * 0xc2b2ae3d27d4eb4full) ^ m.tag;
  h *= 0xff51afd7ed558ccdull;
  return h ^ (h >> 32);
}

class delivery_tally {
 public:
  /// One more message processed by actor `id`.
  void add(std::uint32_t id, const message& m) {
    if (id >= size_) [[unlikely]]
      grow(id);
    if (m.flags & message_stamped) [[unlikely]] {  // the arrival time is not the sender's payload
      message sent = m;
      sent.b = 0;
      digests_[id] += delivery_hash(sent);
      return;
    }
    digests_[id] += delivery_hash(m);
  }
  /// Actor `id`'s digest (0 if this worker never ran it).
  std::uint64_t digest(std::uint32_t id) const { return id < size_ ? digests_[id] : 0; }

 private:
  // A bare array and its size, not a vector: the bounds check is one compare with a field (a
  // vector's size is end - begin: two loads and a shift on every traced message).
  [[gnu::noinline, gnu::cold]] void grow(std::uint32_t id) {
    const std::size_t size = std::bit_ceil(std::size_t(id) + 1);
    auto wider = std::make_unique<std::uint64_t[]>(size);  // zeroed
    std::copy_n(digests_.get(), size_, wider.get());
    digests_ = std::move(wider);
    size_ = size;
  }
  std::unique_ptr<std::uint64_t[]> digests_;
  std::size_t size_ = 0;
};

}  // namespace twinsched
