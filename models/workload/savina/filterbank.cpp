// Savina's FilterBank: a producer paces a source, one value per request, into a bank of channels;
// each channel is a pipeline of actors (delay, FIR filter, sampler, delay, FIR filter, tag), an
// integrator gathers the channels' k-th outputs into one collection (a pointer to an array, freed by
// the combiner that sums it) and the sink receives the sums. An exit follows the last value down
// every path, each actor passing it on and stopping.
#include <bit>
#include <cstdio>
#include <deque>
#include <vector>

#include "../../rng.hpp"
#include "filterbank.hpp"
#include "savina.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_filterbank_impl {
namespace {
using namespace savina_filterbank;

enum tag : std::uint32_t { next_tag = 1, boot_tag, value_tag, sourced_tag, collection_tag, exit_tag };

struct setup {
  std::uint64_t simulations;
  std::uint32_t columns, channels;
  double tap_ns;
  std::vector<std::vector<double>> h, f;
  actor_ref producer, source, branches, integrator, combine, sink;
  std::vector<actor_ref> banks;
};

inline message value(double v) { return message{std::bit_cast<std::uint64_t>(v), 0, value_tag}; }
inline const message exit_message{0, 0, exit_tag};

/// What an actor adds to its sum for the i-th message of kind t it takes: which messages each
/// actor takes is fixed (though an integrator's exits interleave with values as the run goes).
inline std::uint64_t fingerprint(std::uint64_t id, std::uint32_t t, std::uint64_t i) {
  return splitmix64(splitmix64(id << 8 ^ t) ^ i);
}

class counted : public behavior {
 public:
  explicit counted(std::uint64_t id) : id_(id) {}
  void receive(context& ctx, const message& m) final {
    acc_ += fingerprint(id_, m.tag, taken_[m.tag]++);
    take(ctx, m);
  }
  virtual void take(context& ctx, const message& m) = 0;
  std::uint64_t acc() const { return acc_; }

 private:
  std::uint64_t id_, acc_ = 0, taken_[exit_tag + 1] = {};
};

/// ProducerActor: a boot to the source for each request, `simulations` of them, then an exit.
class producer final : public counted {
 public:
  producer(const setup& s) : counted(0), s_(s) {}
  void take(context& ctx, const message&) override {
    if (sent_ == s_.simulations) {
      ctx.send(s_.source, exit_message);
      ctx.stop();
    } else {
      ctx.send(s_.source, message{0, 0, boot_tag});
      ++sent_;
    }
  }

 private:
  const setup& s_;
  std::uint64_t sent_ = 0;
};

/// SourceActor: per boot, the next value (0 .. 999 round) down the pipeline and a request back.
class source final : public counted {
 public:
  source(const setup& s) : counted(1), s_(s) {}
  void take(context& ctx, const message& m) override {
    if (m.tag == exit_tag) {
      ctx.send(s_.branches, exit_message);
      ctx.stop();
      return;
    }
    ctx.send(s_.branches, value(double(current_)));
    current_ = (current_ + 1) % 1000;
    ctx.send(s_.producer, message{0, 0, next_tag});
  }

 private:
  const setup& s_;
  std::uint32_t current_ = 0;
};

/// BranchesActor and BankActor: a value (and the exit) to every bank, to the bank's first delay.
class fan final : public counted {
 public:
  fan(std::uint64_t id, std::vector<actor_ref> to) : counted(id), to_(std::move(to)) {}
  void take(context& ctx, const message& m) override {
    for (actor_ref r : to_) ctx.send(r, m.tag == exit_tag ? exit_message : value(std::bit_cast<double>(m.a)));
    if (m.tag == exit_tag) ctx.stop();
  }

 private:
  std::vector<actor_ref> to_;
};

/// One stage of a channel: a delay, a FIR filter, the sampler or the tagger.
class stage final : public counted {
 public:
  enum class kind { delay, fir, sample, tag };
  stage(std::uint64_t id, const setup& s, kind k, std::uint32_t channel, const std::vector<double>* coefficients,
        actor_ref next)
      : counted(id), s_(s), k_(k), channel_(channel), next_(next), delay_(k == kind::delay ? s.columns - 1 : 1),
        fir_(coefficients ? *coefficients : none_) {}
  void take(context& ctx, const message& m) override {
    if (m.tag == exit_tag) {
      ctx.send(next_, exit_message);
      ctx.stop();
      return;
    }
    const double x = std::bit_cast<double>(m.a);
    switch (k_) {
      case kind::delay: ctx.send(next_, value(delay_.push(x))); break;
      case kind::fir:
        if (fir_.push(x)) {
          ctx.send(next_, value(fir_.output()));
          ctx.did_work_ns(std::uint64_t(double(s_.columns) * s_.tap_ns));
        }
        break;
      case kind::sample:
        if (samples_ == 0) kept_.push_back(x);
        ctx.send(next_, value(samples_ == 0 ? x : 0.0));
        samples_ = (samples_ + 1) % s_.columns;
        break;
      case kind::tag: ctx.send(next_, message{m.a, channel_, sourced_tag}); break;
    }
  }
  std::vector<double> kept_;  ///< a sampler's: the values it passed on

 private:
  static inline const std::vector<double> none_{0.0};
  const setup& s_;
  kind k_;
  std::uint32_t channel_;
  actor_ref next_;
  delay delay_;
  fir fir_;
  std::uint32_t samples_ = 0;
};

/// IntegratorActor: the channels' k-th values gathered into row k (a value goes to the first row
/// still lacking its channel); a full first row goes to the combiner as one collection, the
/// values in channel order. Stops after every channel's exit.
class integrator final : public counted {
 public:
  integrator(const setup& s) : counted(2), s_(s), got_(s.channels, 0) {}
  void take(context& ctx, const message& m) override {
    if (m.tag == exit_tag) {
      if (++exits_ == s_.channels) {
        ctx.send(s_.combine, exit_message);
        ctx.stop();
      }
      return;
    }
    // Each channel's values arrive in order, so the first row lacking channel c is its next.
    const std::uint64_t row = got_[m.b]++ - popped_;
    if (row == rows_.size()) rows_.push_back({std::vector<double>(s_.channels), 0});
    rows_[row].v[m.b] = std::bit_cast<double>(m.a);
    if (++rows_[row].filled == s_.channels) {  // only row 0 can fill: a channel's values come in order
      auto* values = new std::vector<double>(std::move(rows_.front().v));
      ctx.send(s_.combine, message{std::uint64_t(values), 0, collection_tag});
      rows_.pop_front();
      ++popped_;
    }
  }

 private:
  struct row_of {
    std::vector<double> v;
    std::uint32_t filled;
  };
  const setup& s_;
  std::vector<std::uint64_t> got_;
  std::deque<row_of> rows_;
  std::uint64_t popped_ = 0;
  std::uint32_t exits_ = 0;
};

/// CombineActor: the sum of a collection (freed here) to the sink.
class combine final : public counted {
 public:
  combine(const setup& s) : counted(3), s_(s) {}
  void take(context& ctx, const message& m) override {
    if (m.tag == exit_tag) {
      ctx.send(s_.sink, exit_message);
      ctx.stop();
      return;
    }
    const auto* values = reinterpret_cast<const std::vector<double>*>(m.a);
    double sum = 0;
    for (double v : *values) sum += v;
    delete values;
    ctx.send(s_.sink, value(sum));
  }

 private:
  const setup& s_;
};

class sink final : public counted {
 public:
  sink() : counted(4) {}
  void take(context& ctx, const message& m) override {
    if (m.tag == exit_tag)
      ctx.stop();
    else
      got_.push_back(std::bit_cast<double>(m.a));
  }
  std::vector<double> got_;
};

class filterbank final : public savina_workload {
 public:
  explicit filterbank(const workload_params& p) {
    s_.simulations = std::uint64_t(p.integer("num_simulations"));
    s_.columns = std::uint32_t(p.integer("num_columns"));
    s_.channels = std::uint32_t(p.integer("num_channels"));
    s_.tap_ns = p.real("tap_ns");
  }

  void start(context& ctx) override {
    for (std::uint32_t j = 0; j < s_.channels; ++j) {
      s_.h.push_back(h_coefficients(j, s_.columns, s_.channels));
      s_.f.push_back(f_coefficients(j, s_.columns));
    }
    auto add = [&](auto made) {
      actors_.push_back(&made.behavior);
      return made.ref;
    };
    s_.producer = add(ctx.spawn_as<producer>({.name = "filterbank-producer"}, s_));
    auto snk = ctx.spawn_as<sink>({.name = "filterbank-sink"});
    sink_ = &snk.behavior;
    actors_.push_back(sink_);
    s_.sink = snk;
    s_.combine = add(ctx.spawn_as<combine>({.name = "filterbank-combine"}, s_));
    s_.integrator = add(ctx.spawn_as<integrator>({.name = "filterbank-integrator"}, s_));
    using k = stage::kind;
    for (std::uint32_t j = 0; j < s_.channels; ++j) {
      const std::uint64_t id = 16 + 8 * std::uint64_t(j);
      actor_ref next = add(ctx.spawn_as<stage>({}, id + 6, s_, k::tag, j, nullptr, s_.integrator));
      next = add(ctx.spawn_as<stage>({}, id + 5, s_, k::fir, j, &s_.f[j], next));
      next = add(ctx.spawn_as<stage>({}, id + 4, s_, k::delay, j, nullptr, next));
      auto sampler = ctx.spawn_as<stage>({}, id + 3, s_, k::sample, j, nullptr, next);
      samplers_.push_back(&sampler.behavior);
      next = add(sampler);
      next = add(ctx.spawn_as<stage>({}, id + 2, s_, k::fir, j, &s_.h[j], next));
      next = add(ctx.spawn_as<stage>({}, id + 1, s_, k::delay, j, nullptr, next));
      s_.banks.push_back(add(ctx.spawn_as<fan>({}, id, std::vector<actor_ref>{next})));
    }
    s_.branches = add(ctx.spawn_as<fan>({.name = "filterbank-branches"}, std::uint64_t(5), s_.banks));
    s_.source = add(ctx.spawn_as<source>({.name = "filterbank-source"}, s_));
    ctx.send(s_.producer, message{0, 0, next_tag});
  }

  std::uint64_t checksum() const override { return sum_of_acc(actors_); }
  std::uint64_t reference_checksum() const override {
    std::uint64_t acc = 0;
    for (const take& t : takes())
      for (std::uint64_t i = 0; i < t.count; ++i) acc += fingerprint(t.id, t.kind, i);
    return acc;
  }
  std::uint64_t expected_messages() const override {
    std::uint64_t n = 0;
    for (const take& t : takes()) n += t.count;
    return n;
  }
  /// The sink got the sequential pipeline's values, every one, and the samplers kept its values.
  bool result_ok() const override {
    outputs got{sink_->got_, {}};
    for (const stage* s : samplers_) got.kept.push_back(s->kept_);
    return outputs_ok(got, reference(s_.simulations, s_.columns, s_.channels));
  }
  footprint peak() const override {
    const double actors = 6 + 7.0 * s_.channels;
    return {actors, double(s_.channels) * 4 + 8, 8.0 * 8 * s_.channels * s_.columns};
  }
  std::string detail() const override {
    double total = 0, kept = 0;
    for (double v : sink_->got_) total += v;
    for (const stage* s : samplers_)
      for (double v : s->kept_) kept += v;
    char buf[128];
    std::snprintf(buf, sizeof buf, "%zu sums at the sink, their total %.6e; the samplers kept values totalling %.6e",
                  sink_->got_.size(), total, kept);
    return buf;
  }

 private:
  /// How many messages of each kind each actor takes: values (or requests, boots, collections)
  /// and one exit each; the integrator one exit per channel; the producer one more request than
  /// boots it sends. A filter of c taps gives one value less than c for each value in.
  struct take {
    std::uint64_t id;
    std::uint32_t kind;
    std::uint64_t count;
  };
  std::vector<take> takes() const {
    const std::uint64_t n = s_.simulations, o1 = fir_outputs(n, s_.columns), o2 = fir_outputs(o1, s_.columns);
    std::vector<take> all{{0, next_tag, n + 1}, {1, boot_tag, n},          {1, exit_tag, 1},
                          {5, value_tag, n},    {5, exit_tag, 1},          {2, sourced_tag, s_.channels * o2},
                          {2, exit_tag, s_.channels}, {3, collection_tag, o2}, {3, exit_tag, 1},
                          {4, value_tag, o2},   {4, exit_tag, 1}};
    for (std::uint32_t j = 0; j < s_.channels; ++j) {
      const std::uint64_t id = 16 + 8 * std::uint64_t(j);
      const std::uint64_t in[] = {n, n, n, o1, o1, o1, o2};  // bank, delay, H, sampler, delay, F, tag
      for (std::uint64_t i = 0; i < 7; ++i) all.push_back({id + i, value_tag, in[i]}), all.push_back({id + i, exit_tag, 1});
    }
    return all;
  }

  setup s_{};
  std::vector<counted*> actors_;
  std::vector<stage*> samplers_;
  sink* sink_ = nullptr;
};

}  // namespace
}  // namespace savina_filterbank_impl

workload_info savina_filterbank_workload() {
  using namespace savina_filterbank_impl;
  return {"savina-filterbank",
          "Savina FilterBank: values paced through channels of delay, FIR and sampler actors, gathered per step and summed",
          {{"num_simulations", std::int64_t(34816), "values the source sends (Savina's NUM_SIMULATIONS)", 1, 1e9},
           {"num_columns", std::int64_t(16384), "taps of each FIR filter, and the sampling period (Savina's NUM_COLUMNS)",
            2, 1 << 24},
           {"num_channels", std::int64_t(8), "channels in the bank (Savina's NUM_CHANNELS)", 2, 33},
           {"tap_ns", 0.52,
            "simulation only: modeled ns per FIR tap, a multiply-add (unset: the machine's calibrated "
            "savina_filterbank_tap, else 0.52: 16384-tap filters at -O2 on the 2-vCPU EPYC VM)",
            0}},
          [](const workload_params& p, std::uint64_t) { return std::make_unique<filterbank>(p); },
          {{"savina_filterbank_tap", "tap_ns", [](std::uint64_t units) {
              // The default run's filter: 16384 taps of channel 1's H over a full ring.
              static const std::vector<double> h = h_coefficients(1, 16384, 8);
              fir filter(h);
              for (std::uint32_t t = 0; t < 16384; ++t) filter.push(double(t % 1000));
              double kept = 0;
              for (std::uint64_t i = 0; i < units / 16384; ++i) kept += filter.output(), filter.push(double(i));
              return std::bit_cast<std::uint64_t>(kept);
            }}}};
}

}  // namespace twinsched
