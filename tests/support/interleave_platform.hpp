// A single-threaded test platform whose every atomic operation and fence is a numbered point where a test can run another party's steps.
//
// It models sequential consistency at the granularity of one atomic operation, which is
// what the protocols in models/ are argued under (TSan builds force it too): running
// party B's whole step sequence at point k of party A's is one interleaving. A test that
// tries every k tries every way B can land inside A, deterministically, without threads.
// Only what parking<P> needs is here: atomic<T>, fence, parker (a token flag; "park" with
// no token means the caller would block, which the test reads from has_token()).
#pragma once
#include <atomic>  // std::memory_order only
#include <cstdint>
#include <functional>

namespace twinsched::testing {

struct interleave_platform {
  /// Called at every point with its number (0, 1, ...) since the last reset().
  static inline std::function<void(unsigned)> at_point;
  static inline unsigned points = 0;
  static void reset(std::function<void(unsigned)> f = {}) {
    at_point = std::move(f);
    points = 0;
  }
  static void point() {
    unsigned k = points++;
    if (at_point) {
      auto f = std::move(at_point);  // the injected steps run without points of their own
      f(k);
      at_point = std::move(f);
    }
  }

  template <class T>
  class atomic {
   public:
    atomic() = default;
    atomic(T v) : v_(v) {}  // NOLINT: implicit like std::atomic
    T load(std::memory_order = std::memory_order_seq_cst) const {
      point();
      return v_;
    }
    void store(T v, std::memory_order = std::memory_order_seq_cst) {
      point();
      v_ = v;
    }
    T exchange(T v, std::memory_order = std::memory_order_seq_cst) {
      point();
      T old = v_;
      v_ = v;
      return old;
    }
    T fetch_add(T d, std::memory_order = std::memory_order_seq_cst) {
      point();
      T old = v_;
      v_ = T(old + d);
      return old;
    }
    T fetch_sub(T d, std::memory_order = std::memory_order_seq_cst) {
      point();
      T old = v_;
      v_ = T(old - d);
      return old;
    }

   private:
    T v_{};
  };

  static void fence(std::memory_order) { point(); }

  class parker {
   public:
    void unpark() { token_ = true; }
    void park() { token_ = false; }
    void park_for(std::uint64_t) { token_ = false; }
    bool has_token() const { return token_; }

   private:
    bool token_ = false;
  };
};

}  // namespace twinsched::testing
