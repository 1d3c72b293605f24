// Savina's FilterBank: its coefficients, the stateful filters its pipeline actors run, the pipeline
// run sequentially (the reference) and the check of what reached the sink, shared by the workload
// (filterbank.cpp) and its test.
#pragma once
#include <cstdint>
#include <vector>

namespace twinsched::savina_filterbank {

/// Savina's H (first FIR) and F (second FIR) coefficients of channel j, `columns` taps each.
inline std::vector<double> h_coefficients(std::uint32_t j, std::uint32_t columns, std::uint32_t channels) {
  std::vector<double> h(columns);
  for (std::uint32_t i = 0; i < columns; ++i)
    h[i] = 1.0 * i * columns + 1.0 * j * channels + j + i + j + 1;
  return h;
}
inline std::vector<double> f_coefficients(std::uint32_t j, std::uint32_t columns) {
  std::vector<double> f(columns);
  for (std::uint32_t i = 0; i < columns; ++i) f[i] = 1.0 * i * j + 1.0 * j * j + j + i;
  return f;
}

/// Savina's DelayActor: each value out is the one that came `length` values before (0 at first).
struct delay {
  std::vector<double> state;
  std::size_t at = 0;
  explicit delay(std::uint32_t length) : state(length, 0.0) {}
  double push(double x) {
    const double out = state[at];
    state[at] = x;
    at = (at + 1) % state.size();
    return out;
  }
};

/// Savina's FirFilterActor: a ring of the last `peek` values; once it is full, every value in
/// produces sum_i data[i] * c[peek - 1 - i] over the ring as it lies (Savina does not rotate it).
struct fir {
  std::vector<double> data;
  const std::vector<double>* c;
  std::size_t at = 0;
  bool full = false;
  explicit fir(const std::vector<double>& coefficients) : data(coefficients.size(), 0.0), c(&coefficients) {}
  /// Takes x; true when an output is due (then `output()` is it).
  bool push(double x) {
    data[at] = x;
    if (++at == data.size()) full = true, at = 0;
    return full;
  }
  /// data.size() multiply-adds.
  double output() const {
    const std::size_t n = data.size();
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += data[i] * (*c)[n - i - 1];
    return sum;
  }
};

/// Outputs a filter of `peek` taps gives for `in` values in.
inline std::uint64_t fir_outputs(std::uint64_t in, std::uint64_t peek) { return in + 1 > peek ? in + 1 - peek : 0; }

/// What the pipeline gives: the values the sink receives and, per channel, the values its sampler
/// keeps (its H filter's every `columns`-th output). With Savina's defaults the sampled values
/// never reach the sink through the second delay, so the sink gets only zeros and the kept values
/// are what shows the filters' arithmetic.
struct outputs {
  std::vector<double> sink;
  std::vector<std::vector<double>> kept;
  friend bool operator==(const outputs&, const outputs&) = default;
};

/// The pipeline run sequentially. Source value t is t mod 1000; per channel a delay, the H filter,
/// the sampler (every `columns`-th value, else 0), a delay and the F filter; the combiner adds the
/// channels' k-th outputs in channel order. The H filter's output is computed only where the
/// sampler keeps it (the sampler zeroes the rest, whatever they are).
inline outputs reference(std::uint64_t simulations, std::uint32_t columns, std::uint32_t channels) {
  const std::uint64_t outs = fir_outputs(fir_outputs(simulations, columns), columns);
  outputs r{std::vector<double>(outs, 0.0), std::vector<std::vector<double>>(channels)};
  for (std::uint32_t j = 0; j < channels; ++j) {
    const auto h = h_coefficients(j, columns, channels), f = f_coefficients(j, columns);
    delay d1(columns - 1), d2(columns - 1);
    fir fh(h), ff(f);
    std::uint64_t sampled = 0, k = 0;
    for (std::uint64_t t = 0; t < simulations; ++t) {
      if (!fh.push(d1.push(double(t % 1000)))) continue;
      double kept = 0.0;
      if (sampled++ % columns == 0) r.kept[j].push_back(kept = fh.output());
      if (ff.push(d2.push(kept))) r.sink[k] = j == 0 ? 0.0 + ff.output() : r.sink[k] + ff.output(), ++k;
    }
  }
  return r;
}

/// What reached the sink and what the samplers kept are the sequential pipeline's, value for
/// value (every sum runs in the same order, so bit for bit).
inline bool outputs_ok(const outputs& got, const outputs& expected) { return got == expected; }

}  // namespace twinsched::savina_filterbank
