// Memory in 2 MiB-aligned spans advised onto transparent huge pages, for large arrays that are
// written once through: a page fault per 2 MiB instead of one per 4 KiB. On a VM a fault costs
// microseconds, so an array of megabytes filled once spent longer faulting than being filled.
#pragma once
#include <cstddef>
#include <memory>
#include <new>
#include <utility>

namespace twinsched {

/// `bytes` of zeroed memory, 2 MiB aligned, advised MADV_HUGEPAGE (advice only: without free
/// huge pages the kernel backs it with small ones). Throws std::bad_alloc.
void* map_huge_pages(std::size_t bytes);
/// Returns what map_huge_pages(bytes) gave.
void unmap_huge_pages(void* p, std::size_t bytes);

/// A std::vector allocator for large arrays of trivial values: from 2 MiB up, its memory comes
/// from map_huge_pages, below that from the heap; and new elements stay uninitialized, so a
/// vector sized for every value it might keep and written in turn touches each page once.
template <class T>
struct big_array_allocator : std::allocator<T> {
  static constexpr std::size_t huge_from = std::size_t(2) << 20;
  template <class U>
  struct rebind {
    using other = big_array_allocator<U>;
  };
  big_array_allocator() = default;
  template <class U>
  big_array_allocator(const big_array_allocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    if (n * sizeof(T) < huge_from) return std::allocator<T>::allocate(n);
    return static_cast<T*>(map_huge_pages(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) {
    if (n * sizeof(T) < huge_from) return std::allocator<T>::deallocate(p, n);
    unmap_huge_pages(p, n * sizeof(T));
  }
  template <class U, class... A>
  void construct(U* p, A&&... a) {
    if constexpr (sizeof...(A) == 0)
      ::new (static_cast<void*>(p)) U;
    else
      ::new (static_cast<void*>(p)) U(std::forward<A>(a)...);
  }
};

}  // namespace twinsched
