// Helpers shared by the trace tests: temporary files, synthetic traces with every event kind, byte-level damage.
#pragma once
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "traces/footer.hpp"
#include "traces/format.hpp"
#include "traces/header.hpp"
#include "traces/trace_writer.hpp"

namespace twinsched::test {

/// One event as a test writes it: kind, time, lane, then the fields it needs.
inline trace_event ev(event_kind k, std::uint64_t t, std::uint16_t w, std::uint32_t actor = 0,
                      std::uint64_t msg = 0, std::uint32_t other = 0) {
  trace_event e;
  e.kind = k;
  e.time_ns = t;
  e.worker = w;
  e.actor = actor;
  e.message = msg;
  e.other = other;
  return e;
}

/// A path in the temp directory, unique in this process, removed with the object.
class temp_file {
 public:
  explicit temp_file(const std::string& stem) {
    static std::atomic<int> n{0};
    path_ = (std::filesystem::temp_directory_path() /
             ("twinsched-" + stem + "-" + std::to_string(::getpid()) + "-" + std::to_string(n++) + ".tst"))
                .string();
  }
  ~temp_file() {
    std::error_code ec;
    std::filesystem::remove(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

inline std::vector<std::uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), {});
}

inline void write_bytes(const std::string& path, const std::vector<std::uint8_t>& b) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

inline traces::trace_header synthetic_header(const std::string& backend = "sim") {
  traces::trace_header h;
  h.scenario = "synthetic";
  h.scenario_text = "name = \"synthetic\"\n";
  h.scenario_hash = 0x1234;
  h.workload_hash = 0x5678;
  h.seed = 7;
  h.backend = backend;
  h.machine = "test machine";
  h.workers = 2;
  h.lanes = 3;
  h.policy = "stealing";
  h.idle = "park";
  h.clock = "simulated";
  h.level = trace_level::full;
  h.created_unix_s = 1700000000;
  h.producer = "test";
  return h;
}

/// Events of one lane with every kind and awkward values: zero and maximal ids, equal and
/// large time steps, messages from several senders, sequence numbers going backwards.
inline std::vector<trace_event> every_kind(std::uint16_t lane, std::uint64_t t0) {
  std::vector<trace_event> v;
  std::uint64_t t = t0;
  const std::uint64_t messages[] = {0,
                                    1,
                                    (std::uint64_t(1) << 48) | 5,
                                    (std::uint64_t(2) << 48) | 3,
                                    (std::uint64_t(1) << 48) | 4,
                                    (std::uint64_t(0xffff) << 48) | traces::seq_mask,
                                    (std::uint64_t(3) << 48) | 1};
  const std::uint32_t actors[] = {0, 1, 1000, 17, ~0u, 17, 2};
  const std::uint32_t others[] = {0, 1, ~0u, 2, 65535};
  for (unsigned round = 0; round < 3; ++round) {
    for (unsigned k = 0; k < traces::kind_count; ++k) {
      trace_event e;
      e.kind = event_kind(k);
      e.worker = lane;
      e.time_ns = t;
      e.actor = actors[(k + round) % 7];
      e.message = messages[(k * 3 + round) % 7];
      e.other = others[(k + 2 * round) % 5];
      v.push_back(e);
      t += (k % 4 == 0) ? 0 : (k % 4 == 1 ? 1 : (k % 4 == 2 ? 1234567 : (std::uint64_t(1) << 40)));
    }
  }
  return v;
}

inline traces::trace_footer synthetic_footer() {
  traces::trace_footer f;
  f.messages = 42;
  f.expected_messages = 42;
  f.wall_ns = 123456789;
  f.checksum = f.reference = 0xabcdef;
  f.detail = "detail line";
  f.error_count = 1;
  f.errors = {"actor 'x' failed: boom"};
  worker_stats w;
  w.messages = 21;
  w.turns = 20;
  w.steals = 3;
  w.parks = 2;
  w.wakeups = 1;
  w.donations = 4;
  w.migrations = 5;
  w.busy_ns = 1000;
  w.idle_ns = 500;
  f.per_worker = {w, w};
  f.has_actors = true;
  f.has_digests = true;
  f.actors = {{1, 0, 20, 0x1111}, {2, 1, 22, 0x2222}, {70000, 3, 0, 0}};
  f.clock_note = "exact simulated times";
  return f;
}

/// Writes a synthetic trace: lanes 0, 1 and outside, each in `blocks` blocks of every_kind().
/// Returns the events per lane as written.
inline std::vector<std::vector<trace_event>> write_synthetic(const std::string& path, int blocks = 2,
                                                             const std::string& backend = "sim") {
  std::vector<std::vector<trace_event>> lanes(3);
  traces::trace_writer w(path, synthetic_header(backend));
  const std::uint16_t ids[] = {0, 1, traces::outside_lane};
  std::uint64_t t[3] = {100, 50, 0};
  for (int b = 0; b < blocks; ++b) {
    for (int l = 0; l < 3; ++l) {
      auto ev = every_kind(ids[l], t[l]);
      t[l] = ev.back().time_ns + 10;
      w.write_events(ids[l], ev);
      lanes[std::size_t(l)].insert(lanes[std::size_t(l)].end(), ev.begin(), ev.end());
    }
  }
  w.finish(synthetic_footer());
  return lanes;
}

}  // namespace twinsched::test
