// Savina's ConcSLL: the sorted linked list its list actor holds, the workers' request streams,
// the message count, the checksum terms and the result check, shared by the workload (concsll.cpp)
// and its test.
#pragma once
#include <algorithm>
#include <cstdint>
#include <deque>
#include <unordered_set>
#include <vector>

#include "../../rng.hpp"

namespace twinsched::savina_concsll {

/// Savina's SortedLinkedList: a singly linked list kept in ascending order (duplicates kept, a
/// new item after its equals). Each operation returns how many nodes it visited: the work the
/// simulator charges.
class sorted_list {
 public:
  std::uint64_t add(std::int32_t v) {
    nodes_.push_back({v, nullptr});
    node* n = &nodes_.back();
    if (!head_ || v < head_->item) {
      n->next = head_;
      head_ = n;
      return 1;
    }
    std::uint64_t visits = 1;
    node* before = head_;
    for (node* after = head_->next; after && !(v < after->item); after = after->next, ++visits) before = after;
    n->next = before->next;
    before->next = n;
    return visits;
  }
  /// Whether v is in the list; `visits` gets the nodes looked at.
  bool contains(std::int32_t v, std::uint64_t& visits) const {
    visits = 0;
    for (const node* n = head_; n; n = n->next) {
      ++visits;
      if (n->item == v) return true;
    }
    return false;
  }
  std::uint64_t size() const {
    std::uint64_t r = 0;
    for (const node* n = head_; n; n = n->next) ++r;
    return r;
  }
  std::vector<std::int32_t> items() const {
    std::vector<std::int32_t> out;
    for (const node* n = head_; n; n = n->next) out.push_back(n->item);
    return out;
  }

 private:
  struct node {
    std::int32_t item;
    node* next;
  };
  std::deque<node> nodes_;  // stable addresses; the list order is the links'
  node* head_ = nullptr;
};

/// The messages: the master's DoWork, a worker's write, contains and size requests, the list's
/// result, a worker's EndWork to the master and the master's EndWork to the list.
enum tag : std::uint32_t { do_work = 1, write, contains, size, result, worker_end, list_end };

struct request {
  std::uint32_t kind;  ///< write, contains or size
  std::int32_t value;  ///< write and contains only
};

/// A worker's random stream, seeded from the workload's seed and the worker's number.
inline rng worker_rng(std::uint64_t seed, std::uint64_t worker) { return rng(splitmix64(seed + 0x51l) ^ (worker + 1)); }

/// Savina's choice: a size request with `size_percent` percent probability, a write with
/// `write_percent`, else a contains; values uniform over the 32-bit integers.
inline request next_request(rng& r, std::uint32_t write_percent, std::uint32_t size_percent) {
  const std::uint32_t x = r.below(100);
  if (x < size_percent) return {size, 0};
  return {x < size_percent + write_percent ? std::uint32_t(write) : std::uint32_t(contains),
          std::int32_t(std::uint32_t(r.next() >> 32))};
}

/// Messages a correct run processes: per worker its DoWork, its requests, the results and its
/// EndWork; the list's EndWork.
constexpr std::uint64_t messages(std::uint64_t workers, std::uint64_t per_worker) {
  return workers * (2 * per_worker + 2) + 1;
}

/// Checksum terms: the list adds each request (kind, sender, number, value); a worker adds each
/// message it gets (kind, number, and a write's echoed value: the answers to contains and size
/// depend on the interleaving and are checked by `answers` instead).
constexpr std::uint64_t request_print(std::uint64_t worker, std::uint64_t seq, const request& q) {
  return splitmix64((std::uint64_t(q.kind) << 56) ^ (worker << 36) ^ (seq << 4)) + std::uint32_t(q.value);
}
constexpr std::uint64_t reply_print(std::uint32_t t, std::uint64_t seq, std::uint64_t echoed) {
  return splitmix64((std::uint64_t(t) << 56) ^ seq) + echoed;
}

/// What a correct run's answers can be. The list ends holding every written value, in order. A
/// contains answers true only for a value someone wrote, and must answer true if the asking worker
/// wrote it before (its write was answered first). A size answer lies between the asking worker's
/// own answered writes and all writes.
class answers {
 public:
  answers(std::uint64_t seed, std::uint64_t workers, std::uint64_t per_worker, std::uint32_t write_percent,
          std::uint32_t size_percent) {
    for (std::uint64_t w = 0; w < workers; ++w) {
      rng r = worker_rng(seed, w);
      for (std::uint64_t i = 0; i < per_worker; ++i) {
        const request q = next_request(r, write_percent, size_percent);
        if (q.kind == write) final_.push_back(q.value);
      }
    }
    std::sort(final_.begin(), final_.end());
    written_.insert(final_.begin(), final_.end());
  }
  bool contains_ok(std::int32_t v, bool answer, bool wrote_it_before) const {
    return answer ? written_.contains(v) : !wrote_it_before;
  }
  bool size_ok(std::uint64_t answer, std::uint64_t own_writes_before) const {
    return answer >= own_writes_before && answer <= final_.size();
  }
  bool final_ok(const std::vector<std::int32_t>& items) const { return items == final_; }
  std::uint64_t writes() const { return final_.size(); }

 private:
  std::vector<std::int32_t> final_;  // every write, sorted
  std::unordered_set<std::int32_t> written_;
};

}  // namespace twinsched::savina_concsll
