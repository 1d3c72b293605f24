#include "models/huge_pages.hpp"

#include <sys/mman.h>

#include <cstdint>

namespace twinsched {

/// mmap aligns to 4 KiB only, so this maps 2 MiB more than asked and unmaps what lies outside
/// the aligned span.
void* map_huge_pages(std::size_t bytes) {
  constexpr std::uintptr_t huge = std::uintptr_t(2) << 20;
  const std::size_t span = bytes + huge;
  void* raw = ::mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (start + huge - 1) & ~(huge - 1), end = aligned + bytes;
  if (aligned > start) ::munmap(raw, aligned - start);
  if (start + span > end) ::munmap(reinterpret_cast<void*>(end), start + span - end);
#ifdef MADV_HUGEPAGE
  ::madvise(reinterpret_cast<void*>(aligned), bytes, MADV_HUGEPAGE);
#endif
  return reinterpret_cast<void*>(aligned);
}

void unmap_huge_pages(void* p, std::size_t bytes) { ::munmap(p, bytes); }

}  // namespace twinsched
