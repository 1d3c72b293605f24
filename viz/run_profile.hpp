// What a report draws of one trace, gathered in one streaming pass and downsampled to fixed-size bins.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "causality.hpp"
#include "comm_graph.hpp"
#include "traces/histogram.hpp"
#include "traces/trace_reader.hpp"

namespace twinsched::viz {

struct profile_options {
  unsigned bins = 600;                  ///< time columns the run is cut into (fewer with many workers)
  std::size_t max_segments = 40000;     ///< exact running/idle/parked spells kept for zooming in
  std::size_t max_dag_nodes = 1000000;  ///< handlings the explicit DAG may hold (critical path listed)
  std::size_t top = 15;                 ///< hottest actors and busiest edges listed
};

/// A worker's state over time. `other`: between states (finding work, the runtime's own cost).
enum class worker_state : std::uint8_t { other, running, idle, parked, off };

/// One exact spell of a worker, for the timeline's close-up.
struct spell {
  std::uint64_t begin_ns, end_ns;  ///< since the run began
  std::uint32_t actor;             ///< running: the actor of the turn
  std::uint16_t lane;
  worker_state state;
};

/// Queueing delays (send -> message_begin) of one actor group, log-binned: 4 bins per octave.
struct delay_histogram {
  traces::histogram exact;        ///< quantiles within ~3%
  std::vector<std::uint64_t> bins;  ///< bins[k]: delays d with floor(4 log2(d + 1)) == k
  static unsigned bin_of(std::uint64_t ns);
  static double bin_low(unsigned k);  ///< the smallest delay (ns) of bin k
};

struct hot_actor {
  std::uint32_t actor = 0, group = 0;
  std::uint64_t messages = 0, turn_ns = 0, turns = 0;
};

/// What the host took from one worker of a real run (traces::lane_summary).
struct host_time {
  std::uint16_t lane = 0;
  std::int64_t run_delay_ns = -1;  ///< the kernel's run delay over the worker's life; -1: unknown
  std::uint64_t off_cpu_ns = 0;    ///< what its handlings were off a CPU: left out of their work
};

struct run_profile {
  traces::trace_header header;
  std::uint64_t makespan_ns = 0, messages = 0, events = 0;
  bool ok = true;
  /// The footer's latency and CPU figures (traces recorded before the runtime measured them: none).
  bool latency_recorded = false;
  latency_summary request_latency, scheduling_delay;
  std::uint64_t cpu_ns = 0;
  unsigned cores = 0;  ///< modeled cores (sim) or workers (threads): the N of the bound
  /// When the run began on the trace's clock (traces::run_start_ns). Every other time in the
  /// profile, the critical path's included, is since then: the time base `trace step` and
  /// the Perfetto export share.
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;  ///< the last event, since the run began
  std::uint64_t bin_ns = 1;
  unsigned bins = 0;
  /// Per worker lane: fraction of each bin spent running, idle (not parked) and parked.
  std::map<std::uint16_t, std::array<std::vector<float>, 3>> workers;
  std::vector<float> throughput;  ///< messages per second, per bin
  std::vector<float> runnable, parked, threads;  ///< time-weighted mean per bin
  std::vector<float> steals, donations, migrations;  ///< counts per bin
  std::vector<spell> spells;      ///< time order; complete up to spells_until_ns
  bool spells_complete = true;
  std::uint64_t spells_until_ns = 0;  ///< since the run began
  std::map<std::uint32_t, delay_histogram> delays;  ///< by group (0: actors in no group)
  std::vector<hot_actor> hottest;  ///< by turn time
  std::size_t actors_seen = 0;
  comm_counter comm;
  comm_summary graph;
  causality_result causality;
  std::uint64_t totals[16] = {};  ///< events by kind
  /// A real run's trace: whether it records time off a CPU (older ones do not), and per worker.
  bool off_cpu_recorded = false;
  std::vector<host_time> host;
};

/// For a real run's trace, the rule by which a handling leaves out time off a CPU and how much
/// the host took from each worker, as lines for a person; empty for a simulation's.
std::vector<std::string> off_cpu_lines(const run_profile& p);

/// Reads `r` once in time order (one block per lane in memory, plus one entry per message in
/// flight and per actor). Throws trace_error on a damaged block.
run_profile profile_trace(const traces::trace_reader& r, const profile_options& o = {});

}  // namespace twinsched::viz
