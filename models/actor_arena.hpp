// Stable, chunked storage for the actors one spawner creates: no allocation per actor, no per-actor malloc overhead.
//
// A million idle actors must fit in 256 bytes each; a heap block per actor cell (64-byte
// aligned) wastes up to 64 bytes and a pointer to it 8 more. The arena hands out cells from
// 64-byte-aligned chunks of `per_chunk`, owned by one spawner (a worker, or the injector),
// so appends need no lock. Addresses never move; destruction runs in creation order.
#pragma once
#include <cstddef>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace twinsched {

template <class T, std::size_t per_chunk = 1024>
class arena {
 public:
  arena() = default;
  arena(const arena&) = delete;
  arena& operator=(const arena&) = delete;
  ~arena() {
    for_each([](T& x) { x.~T(); });
  }

  template <class... Args>
  T* emplace(Args&&... args) {
    // not zeroed: each cell is constructed before use, and a chunk's untouched pages are never faulted in
    if (size_ == chunks_.size() * per_chunk) chunks_.push_back(std::make_unique_for_overwrite<chunk>());
    T* slot = reinterpret_cast<T*>(chunks_.back()->bytes) + size_ % per_chunk;
    T* x = new (slot) T(std::forward<Args>(args)...);
    ++size_;
    return x;
  }

  template <class F>
  void for_each(F&& f) {
    for (std::size_t i = 0; i < size_; ++i)
      f(*std::launder(reinterpret_cast<T*>(chunks_[i / per_chunk]->bytes) + i % per_chunk));
  }
  std::size_t size() const { return size_; }

 private:
  struct chunk {
    alignas(T) std::byte bytes[per_chunk * sizeof(T)];
  };
  std::vector<std::unique_ptr<chunk>> chunks_;
  std::size_t size_ = 0;
};

}  // namespace twinsched
