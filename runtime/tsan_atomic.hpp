// ThreadSanitizer builds only: std::atomic with every operation made seq_cst, so fences can be dropped.
//
// TSan does not model std::atomic_thread_fence (GCC rejects it under -fsanitize=thread), so
// fence-based code (the Chase-Lev deque, the parking handshake) would be reported as racy.
// In TSan builds the real platform therefore hands models/ this atomic, which ignores the
// requested order and uses seq_cst, and makes `fence` a no-op: every algorithm here is
// correct under sequential consistency, and TSan then checks what it is good at, the data
// accesses that the atomics are supposed to order (actor state, messages, queue slots).
// The weaker orders of the release build are argued in each file's essay instead.
#pragma once
#include <atomic>

namespace twinsched {

template <class T>
class tsan_atomic : public std::atomic<T> {
  using base = std::atomic<T>;
  static constexpr auto sc = std::memory_order_seq_cst;

 public:
  using base::base;
  using base::operator=;
  T load(std::memory_order = sc) const noexcept { return base::load(sc); }
  void store(T v, std::memory_order = sc) noexcept { base::store(v, sc); }
  T exchange(T v, std::memory_order = sc) noexcept { return base::exchange(v, sc); }
  bool compare_exchange_strong(T& e, T d, std::memory_order = sc, std::memory_order = sc) noexcept {
    return base::compare_exchange_strong(e, d, sc, sc);
  }
  bool compare_exchange_weak(T& e, T d, std::memory_order = sc, std::memory_order = sc) noexcept {
    return base::compare_exchange_weak(e, d, sc, sc);
  }
  template <class U = T>
  T fetch_add(U v, std::memory_order = sc) noexcept {
    return base::fetch_add(v, sc);
  }
  template <class U = T>
  T fetch_sub(U v, std::memory_order = sc) noexcept {
    return base::fetch_sub(v, sc);
  }
};

}  // namespace twinsched
