// The run's memory estimate (memory_estimate.hpp).
#include "memory_estimate.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>

#include "workload/workload.hpp"

namespace twinsched {
namespace {

// What the scheduler holds for each of them. An actor is its cell (two cache lines,
// actor.hpp), a behavior beside it when it does not fit the cell, and its slot in the
// arena; a queued message is one envelope (a cache line, envelope.hpp); a worker is the
// stack it touches, its envelope pools and its share of the scheduler's tables.
constexpr double actor_bytes = 192;
constexpr double message_bytes = 64;
constexpr double worker_bytes = 256 * 1024;

std::string count_text(double x) {
  char b[32];
  std::snprintf(b, sizeof b, x < 1e6 ? "%.0f" : "%.3g", x);
  return b;
}

}  // namespace

std::string bytes_text(double bytes) {
  static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"};
  unsigned u = 0;
  while (bytes >= 1024 && u + 1 < sizeof units / sizeof *units) {
    bytes /= 1024;
    ++u;
  }
  char b[32];
  std::snprintf(b, sizeof b, u == 0 ? "%.0f %s" : "%.3g %s", bytes, units[u]);
  return b;
}

memory_estimate estimate_memory(const scenario& s) {
  const workload_info* info = find_workload(s.workload);
  if (!info || !info->make) return {};
  const footprint f = info->make(with_defaults(*info, s.workload_params), s.seed)->peak();
  const double workers = std::max(s.sched.workers, s.sched.max_workers);
  memory_estimate e;
  e.bytes = f.queued_messages * message_bytes + f.actors * actor_bytes + f.bytes + workers * worker_bytes;
  e.parts = count_text(f.queued_messages) + " queued messages x " + bytes_text(message_bytes) + ", " +
            count_text(f.actors) + " actors x " + bytes_text(actor_bytes) + ", " + count_text(workers) +
            " workers x " + bytes_text(worker_bytes) + ", the workload's tables " + bytes_text(f.bytes);
  return e;
}

void check_memory(const scenario& s, std::uint64_t available) {
  const memory_estimate e = estimate_memory(s);
  if (e.bytes <= double(available)) return;
  throw config_error("this run needs an estimated " + bytes_text(e.bytes) + " of memory (" + e.parts +
                     "), more than the machine's " + bytes_text(double(available)));
}

}  // namespace twinsched
