// Savina's PiPrecision: the Bailey-Borwein-Plouffe terms at a fixed decimal scale, in the small
// fixed-point arithmetic below (Savina uses Java's BigDecimal), and the check of the sum: Machin's
// formula in the same arithmetic, an independent value of pi. Shared by the workload
// (piprecision.cpp) and its test.
//
// A number at scale s is an integer N standing for N / 10^s, as a BigDecimal of scale s is; N is
// held in binary, little-endian 32-bit limbs, all numbers of one run the same length. Savina
// rounds each division half-even to s decimal places; so does this, so each term is bit for bit
// BigDecimal's: round(4*10^s/(8k+1)) - round(2*10^s/(8k+4)) - round(10^s/(8k+5)) -
// round(10^s/(8k+6)), that divided by 16^k (a shift by 4k bits) and rounded again.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace twinsched::savina_piprecision {

using limbs = std::vector<std::uint32_t>;

/// n *= m (m < 2^32); the limbs must have room.
inline void mul_small(limbs& n, std::uint32_t m) {
  std::uint64_t carry = 0;
  for (auto& l : n) {
    const std::uint64_t x = std::uint64_t(l) * m + carry;
    l = std::uint32_t(x);
    carry = x >> 32;
  }
}

/// q = n / d, truncated; returns the remainder.
inline std::uint32_t div_small(const limbs& n, std::uint32_t d, limbs& q) {
  q.resize(n.size());
  std::uint64_t r = 0;
  for (std::size_t i = n.size(); i-- > 0;) {
    const std::uint64_t x = r << 32 | n[i];
    q[i] = std::uint32_t(x / d);
    r = x % d;
  }
  return std::uint32_t(r);
}

/// n += 1 (no overflow past the top limb in this use).
inline void increment(limbs& n) {
  for (auto& l : n)
    if (++l != 0) break;
}

/// q = n / d rounded half to even, as BigDecimal's HALF_EVEN.
inline void div_round(const limbs& n, std::uint32_t d, limbs& q) {
  const std::uint64_t twice_r = 2 * std::uint64_t(div_small(n, d, q));
  if (twice_r > d || (twice_r == d && (q[0] & 1))) increment(q);
}

/// a -= b (a >= b), a += b.
inline void sub(limbs& a, const limbs& b) {
  std::int64_t borrow = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::int64_t x = std::int64_t(a[i]) - (i < b.size() ? b[i] : 0) - borrow;
    a[i] = std::uint32_t(x);
    borrow = x < 0;
  }
}
inline void add(limbs& a, const limbs& b) {
  std::uint64_t carry = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::uint64_t x = std::uint64_t(a[i]) + (i < b.size() ? b[i] : 0) + carry;
    a[i] = std::uint32_t(x);
    carry = x >> 32;
  }
}

/// n = n / 2^bits rounded half to even (BigDecimal dividing by 16^k).
inline void shift_round(limbs& n, std::uint64_t bits) {
  if (bits == 0) return;
  const std::size_t size = n.size();
  const std::uint64_t h = bits - 1;  // the half bit
  const bool half = h / 32 < size && (n[h / 32] >> (h % 32) & 1);
  bool below = false;  // any bit under it
  for (std::size_t i = 0; i < std::min<std::uint64_t>(h / 32, size) && !below; ++i) below = n[i] != 0;
  if (!below && h / 32 < size) below = (n[h / 32] & ((1u << (h % 32)) - 1)) != 0;
  const std::uint64_t whole = bits / 32, part = bits % 32;
  limbs q(size, 0);
  for (std::size_t i = 0; i + whole < size; ++i) {
    const std::uint64_t lo = n[i + whole], hi = i + whole + 1 < size ? n[i + whole + 1] : 0;
    q[i] = std::uint32_t((hi << 32 | lo) >> part);
  }
  n = std::move(q);
  if (half && (below || (n[0] & 1))) increment(n);
}

inline bool is_at_most(const limbs& n, std::uint32_t x) {
  for (std::size_t i = 1; i < n.size(); ++i)
    if (n[i]) return false;
  return n[0] <= x;
}

/// The constants of one scale: 10^s, 2*10^s and 4*10^s, in limbs enough for 4*10^s.
struct scale_constants {
  std::uint32_t scale;
  limbs one, two, four;
  explicit scale_constants(std::uint32_t s) : scale(s) {
    // 10^s < 2^(3.33 s): 4*10^s fits in 3.33 s + 3 bits.
    one.assign((std::size_t(s) * 3322 / 1000 + 3) / 32 + 2, 0);
    one[0] = 1;
    for (std::uint32_t i = 0; i < s; i += 9) mul_small(one, i + 9 <= s ? 1000000000u : [&] {
      std::uint32_t p = 1;
      for (std::uint32_t j = i; j < s; ++j) p *= 10;
      return p;
    }());
    two = one, four = one;
    mul_small(two, 2);
    mul_small(four, 4);
  }
  /// The cost unit of a term: one limb of one of its four divisions.
  std::uint64_t units_per_term() const { return 4 * one.size(); }
};

/// Savina's calculateBbpTerm(scale, k): (4/(8k+1) - 2/(8k+4) - 1/(8k+5) - 1/(8k+6)) / 16^k.
inline limbs bbp_term(const scale_constants& c, std::uint32_t k) {
  const std::uint32_t e = 8 * k;
  limbs term, part;
  div_round(c.four, e + 1, term);
  div_round(c.two, e + 4, part);
  sub(term, part);
  div_round(c.one, e + 5, part);
  sub(term, part);
  div_round(c.one, e + 6, part);
  sub(term, part);
  shift_round(term, 4 * std::uint64_t(k));
  return term;
}

/// Savina's master stops asking for terms once one is at most its tolerance, 10^-s: 1 at scale s.
inline bool below_tolerance(const limbs& term) { return is_at_most(term, 1); }

/// The terms Savina's master asks for when it acts on the results in term order: the first
/// min(s, 10 w) at once, then one more for each result until the first term below the tolerance.
inline std::uint32_t terms_requested(const scale_constants& c, std::uint32_t workers) {
  const std::uint32_t first = std::min(c.scale, 10 * workers);
  std::uint32_t k = 0;
  while (!below_tolerance(bbp_term(c, k))) ++k;
  return first + k;
}

/// pi at scale s + guard by Machin's formula, 16 atan(1/5) - 4 atan(1/239), each series
/// truncated term by term (an error of a few units per term, far below the guard digits).
inline limbs machin_pi(std::uint32_t s, std::uint32_t guard) {
  const scale_constants c(s + guard);
  auto atan_inv = [&](std::uint32_t x) {
    limbs power, term, sum(c.one.size(), 0);
    div_small(c.one, x, power);
    bool minus = false;
    for (std::uint32_t n = 1; !is_at_most(power, 0); n += 2, minus = !minus) {
      div_small(power, n, term);
      if (minus)
        sub(sum, term);
      else
        add(sum, term);
      limbs next;
      div_small(power, x * x, next);
      power = std::move(next);
    }
    return sum;
  };
  limbs pi = atan_inv(5), b = atan_inv(239);
  mul_small(pi, 16);
  mul_small(b, 4);
  sub(pi, b);
  return pi;
}

/// Decimal digits of n at scale s: "3.14159..." with `digits` places.
inline std::string decimal(const limbs& n, std::uint32_t s, std::uint32_t digits) {
  std::string all;
  limbs q = n, next;
  while (!is_at_most(q, 0) || all.size() <= s) {
    all.push_back(char('0' + div_small(q, 10, next)));
    q = std::move(next);
  }
  std::reverse(all.begin(), all.end());
  const std::size_t point = all.size() - s;
  return all.substr(0, point) + "." + all.substr(point, digits);
}

/// The master's sum is pi: within 10^6 units at scale s of Machin's value (the BBP terms' own
/// roundings add up to a few units per term).
inline bool pi_ok(const limbs& sum, std::uint32_t s) {
  constexpr std::uint32_t guard = 9;
  limbs scaled = sum, pi = machin_pi(s, guard);
  scaled.resize(pi.size(), 0);
  mul_small(scaled, 1000000000u);
  limbs diff = scaled;
  bool above = false;
  for (std::size_t i = pi.size(); i-- > 0;)
    if (scaled[i] != pi[i]) {
      above = scaled[i] > pi[i];
      break;
    }
  if (above) {
    sub(diff, pi);
  } else {
    diff = pi;
    sub(diff, scaled);
  }
  // 10^6 units at scale s are 10^15 at scale s + 9: below 2^50.
  for (std::size_t i = 2; i < diff.size(); ++i)
    if (diff[i]) return false;
  return (std::uint64_t(diff[1]) << 32 | diff[0]) <= 1000000000000000ull;
}

}  // namespace twinsched::savina_piprecision
