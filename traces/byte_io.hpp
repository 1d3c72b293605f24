// Little-endian fixed-width and varint encoding into a byte buffer, and bounds-checked decoding out of one.
#pragma once
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "trace_error.hpp"

namespace twinsched::traces {

inline std::uint64_t zigzag(std::int64_t v) { return (std::uint64_t(v) << 1) ^ std::uint64_t(v >> 63); }
inline std::int64_t unzigzag(std::uint64_t v) { return std::int64_t(v >> 1) ^ -std::int64_t(v & 1); }

/// Writes a varint at p (at most 10 bytes); returns the byte after it.
inline std::uint8_t* put_varint(std::uint8_t* p, std::uint64_t v) {
  while (v >= 0x80) {
    *p++ = std::uint8_t(v | 0x80);
    v >>= 7;
  }
  *p++ = std::uint8_t(v);
  return p;
}

/// std::allocator that leaves new elements uninitialized (a buffer about to be overwritten).
template <class T>
struct uninitialized_allocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = uninitialized_allocator<U>;
  };
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

/// Appends encoded values to a growing byte vector.
class byte_sink {
 public:
  using buffer = std::vector<std::uint8_t, uninitialized_allocator<std::uint8_t>>;
  buffer& bytes() { return b_; }
  const buffer& bytes() const { return b_; }
  /// Room for `n` more bytes written through the pointer; then commit(end).
  std::uint8_t* grow(std::size_t n) {
    const std::size_t at = b_.size();
    b_.resize(at + n);  // uninitialized: no zeroing
    return b_.data() + at;
  }
  void commit(const std::uint8_t* end) { b_.resize(std::size_t(end - b_.data())); }
  std::size_t size() const { return b_.size(); }
  void clear() { b_.clear(); }

  void u8(std::uint8_t v) { b_.push_back(v); }
  void u16(std::uint16_t v) { fixed(v, 2); }
  void u32(std::uint32_t v) { fixed(v, 4); }
  void u64(std::uint64_t v) { fixed(v, 8); }
  void raw(const void* p, std::size_t n) {
    const auto* c = static_cast<const std::uint8_t*>(p);
    b_.insert(b_.end(), c, c + n);
  }
  void varint(std::uint64_t v) {
    while (v >= 0x80) {
      b_.push_back(std::uint8_t(v | 0x80));
      v >>= 7;
    }
    b_.push_back(std::uint8_t(v));
  }
  void svarint(std::int64_t v) { varint(zigzag(v)); }
  void str(std::string_view s) {
    varint(s.size());
    raw(s.data(), s.size());
  }

 private:
  void fixed(std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) b_.push_back(std::uint8_t(v >> (8 * i)));
  }
  buffer b_;
};

/// Reads encoded values from a byte range; every overrun or malformed value throws a
/// trace_error naming the absolute file offset (`base` is the range's offset in the file).
class byte_source {
 public:
  byte_source(const std::uint8_t* p, std::size_t n, std::uint64_t base, std::string file, std::string what)
      : p_(p), n_(n), base_(base), file_(std::move(file)), what_(std::move(what)) {}

  std::size_t pos() const { return i_; }
  std::size_t left() const { return n_ - i_; }
  bool done() const { return i_ == n_; }
  std::uint64_t offset() const { return base_ + i_; }

  std::uint8_t u8() {
    need(1, "a byte");
    return p_[i_++];
  }
  std::uint16_t u16() { return std::uint16_t(fixed(2, "a 2-byte integer")); }
  std::uint32_t u32() { return std::uint32_t(fixed(4, "a 4-byte integer")); }
  std::uint64_t u64() { return fixed(8, "an 8-byte integer"); }
  std::uint64_t varint() {
    std::uint64_t v = 0;
    const std::size_t start = i_;
    for (unsigned shift = 0;; shift += 7) {
      if (i_ == n_) fail(start, what_ + ": a varint runs past the end");
      std::uint8_t b = p_[i_++];
      if (shift == 63 && b > 1) fail(start, what_ + ": varint longer than 64 bits");
      v |= std::uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
  }
  std::int64_t svarint() { return unzigzag(varint()); }
  std::string str(std::size_t max = 1u << 20) {
    const std::size_t start = i_;
    std::uint64_t len = varint();
    if (len > max || len > left())
      fail(start, what_ + ": a string of " + std::to_string(len) + " bytes runs past the end");
    std::string s(reinterpret_cast<const char*>(p_ + i_), std::size_t(len));
    i_ += std::size_t(len);
    return s;
  }

  [[noreturn]] void fail(std::size_t at, const std::string& msg) const { throw trace_error(file_, base_ + at, msg); }

 private:
  void need(std::size_t k, const char* what) {
    if (left() < k) fail(i_, what_ + ": expected " + what + ", found the end");
  }
  std::uint64_t fixed(int k, const char* what) {
    need(std::size_t(k), what);
    std::uint64_t v = 0;
    for (int j = 0; j < k; ++j) v |= std::uint64_t(p_[i_ + std::size_t(j)]) << (8 * j);
    i_ += std::size_t(k);
    return v;
  }
  const std::uint8_t* p_;
  std::size_t n_, i_ = 0;
  std::uint64_t base_;
  std::string file_;
  std::string what_;
};

}  // namespace twinsched::traces
