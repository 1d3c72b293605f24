// The trace header: what ran (scenario and its canonical text, seed, backend, machine, workers, policy, clock).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "byte_io.hpp"
#include "models/trace_event.hpp"

namespace twinsched::traces {

struct trace_header {
  std::uint16_t version = 0;        ///< as read; writers always write format_version
  std::string scenario;             ///< the scenario's name
  std::uint64_t scenario_hash = 0;  ///< hash64 of scenario_text: two traces of the same scenario share it
  std::uint64_t seed = 0;
  std::string backend;        ///< "threads" | "sim"
  std::string machine;        ///< the machine model (sim) or a description of the host (threads)
  std::uint32_t workers = 0;  ///< workers started with the run
  std::uint32_t lanes = 0;    ///< worker lanes (slots; adaptive: max_workers); the outside lane is extra
  std::string policy, idle;
  std::string clock;  ///< "tsc" (sparse clock reads, interpolated), "steady", "simulated"
  trace_level level = trace_level::full;
  std::uint64_t created_unix_s = 0;
  std::string producer;             ///< "twinsched 0.1.0"
  std::string scenario_text;        ///< canonical TOML of the effective scenario: replay rebuilds the run from it
  std::uint64_t workload_hash = 0;  ///< hash of the workload, its parameters and the seed only: equal
                                    ///< for runs that must deliver the same messages (any policy)
  // How a simulated run was simulated (backend "sim"), so `replay` can simulate it again
  // exactly. Appended fields: traces written before them read as 0 / empty.
  std::uint32_t sim_cores = 0;    ///< modeled cores
  std::string sim_interleave;     ///< "coarse" | "fine"
  double sim_quantum_ns = 0;      ///< as given (0 = the machine's)
  std::string sim_machine_spec;   ///< the machine name or path the run loaded
  std::string sim_schedule;       ///< the preemptions injected (sim/schedule.hpp: describe_schedule); "" none
  std::uint32_t host_cores = 0;   ///< backend "threads": the recording host's hardware threads (replay's cores)
};

/// The complete header as written: prefix, payload, CRC.
std::vector<std::uint8_t> encode_header(const trace_header& h);
/// Reads the payload fields (the reader has checked magic, length and CRC already).
trace_header decode_header_payload(byte_source& in, std::uint16_t version);

}  // namespace twinsched::traces
