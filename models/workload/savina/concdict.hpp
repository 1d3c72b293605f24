// Savina's ConcDict: the workers' request streams, the message count, the checksum terms and the
// result check, shared by the workload (concdict.cpp) and its test.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "../../rng.hpp"

namespace twinsched::savina_concdict {

/// Savina's DATA_LIMIT (Integer.MAX_VALUE / 4096): the dictionary starts with every key below it
/// mapped to itself, and every request's key is taken modulo it.
inline constexpr std::uint32_t data_limit = 2147483647u / 4096u;

/// The messages: the master's DoWork to each worker, a worker's write and read requests, the
/// dictionary's result, a worker's EndWork to the master and the master's EndWork to the dictionary.
enum tag : std::uint32_t { do_work = 1, write, read, result, worker_end, dictionary_end };

/// One request a worker sends.
struct request {
  bool write;
  std::uint32_t key;
  std::int32_t value;  ///< writes only
};

/// A worker's random stream: seeded from the workload's seed and the worker's number, so the
/// requests a worker sends never depend on the interleaving.
inline rng worker_rng(std::uint64_t seed, std::uint64_t worker) { return rng(splitmix64(seed) ^ (worker + 1)); }

/// The next request of a worker: a write with `write_percent` percent probability, else a read;
/// keys and values uniform over the 32-bit integers, keys taken as Savina does (|k| mod limit).
inline request next_request(rng& r, std::uint32_t write_percent) {
  const bool w = r.below(100) < write_percent;
  const std::uint32_t key = std::uint32_t(r.next() >> 33) % data_limit;
  const std::int32_t value = w ? std::int32_t(std::uint32_t(r.next() >> 32)) : 0;
  return {w, key, value};
}

/// Messages a correct run processes: per worker its DoWork, its requests, the results and its
/// EndWork; the dictionary's EndWork.
constexpr std::uint64_t messages(std::uint64_t workers, std::uint64_t per_worker) {
  return workers * (2 * per_worker + 2) + 1;
}

/// Checksum terms: what the dictionary adds for a request (its kind, sender, number, key and a
/// write's value), what a worker adds for a message (its kind and number, and a write's echoed
/// value: a read's answer depends on the interleaving and is checked by `values` instead).
constexpr std::uint64_t request_print(std::uint64_t worker, std::uint64_t seq, const request& q) {
  return splitmix64((std::uint64_t(q.write ? write : read) << 56) ^ (worker << 36) ^ (seq << 4)) +
         splitmix64((std::uint64_t(q.key) << 32) | std::uint32_t(q.value));
}
constexpr std::uint64_t reply_print(std::uint32_t t, std::uint64_t seq, std::uint64_t echoed) {
  return splitmix64((std::uint64_t(t) << 56) ^ seq) + echoed;
}

/// The values a correct run may show: a read of key k answers k (never written yet) or a value
/// some worker wrote to k; at the end each key holds k if nobody wrote it, else the last value
/// that some worker wrote to it (a worker's writes reach the dictionary in its order).
class values {
 public:
  values(std::uint64_t seed, std::uint64_t workers, std::uint64_t per_worker, std::uint32_t write_percent) {
    for (std::uint64_t w = 0; w < workers; ++w) {
      rng r = worker_rng(seed, w);
      std::unordered_map<std::uint32_t, std::int32_t> last;
      for (std::uint64_t i = 0; i < per_worker; ++i) {
        const request q = next_request(r, write_percent);
        if (!q.write) continue;
        written_[q.key].push_back(q.value);
        last[q.key] = q.value;
      }
      for (const auto& [k, v] : last) final_[k].push_back(v);
    }
  }
  bool read_ok(std::uint32_t key, std::int32_t v) const {
    if (v == std::int32_t(key)) return true;
    auto it = written_.find(key);
    if (it == written_.end()) return false;
    for (std::int32_t x : it->second)
      if (x == v) return true;
    return false;
  }
  /// `dict` holds key k's value at k.
  bool final_ok(const std::vector<std::int32_t>& dict) const {
    if (dict.size() != data_limit) return false;
    for (std::uint32_t k = 0; k < data_limit; ++k) {
      const std::int32_t v = dict[k];
      auto it = final_.find(k);
      if (it == final_.end()) {
        if (v != std::int32_t(k)) return false;
        continue;
      }
      bool found = false;
      for (std::int32_t x : it->second) found = found || x == v;
      if (!found) return false;
    }
    return true;
  }

 private:
  std::unordered_map<std::uint32_t, std::vector<std::int32_t>> written_, final_;
};

}  // namespace twinsched::savina_concdict
