// The memory of the machine this process runs on: what a run's estimate is checked against (models/memory_estimate.hpp).
#pragma once
#include <cstdint>
#include <limits>

#include <unistd.h>

namespace twinsched {

/// Physical memory in bytes; the largest value when the system cannot say (nothing refused).
inline std::uint64_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return std::numeric_limits<std::uint64_t>::max();
  return std::uint64_t(pages) * std::uint64_t(page);
}

}  // namespace twinsched
