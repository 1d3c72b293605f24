// Encoding and decoding the trace header's fields (layout in format.hpp).
#include "header.hpp"

#include <bit>
#include <stdexcept>

#include "checksum.hpp"
#include "format.hpp"

namespace twinsched::traces {

std::vector<std::uint8_t> encode_header(const trace_header& h) {
  byte_sink payload;
  payload.str(h.scenario);
  payload.u64(h.scenario_hash);
  payload.varint(h.seed);
  payload.str(h.backend);
  payload.str(h.machine);
  payload.varint(h.workers);
  payload.varint(h.lanes);
  payload.str(h.policy);
  payload.str(h.idle);
  payload.str(h.clock);
  payload.varint(std::uint64_t(h.level));
  payload.varint(h.created_unix_s);
  payload.str(h.producer);
  payload.str(h.scenario_text);
  payload.u64(h.workload_hash);
  payload.varint(h.sim_cores);
  payload.str(h.sim_interleave);
  payload.u64(std::bit_cast<std::uint64_t>(h.sim_quantum_ns));
  payload.str(h.sim_machine_spec);
  payload.str(h.sim_schedule);
  payload.varint(h.host_cores);

  byte_sink out;
  out.raw(file_magic.data(), file_magic.size());
  out.u16(format_version);
  out.u16(0);  // flags
  out.u32(std::uint32_t(payload.size()));
  out.raw(payload.bytes().data(), payload.size());
  out.u32(crc32c(out.bytes().data(), out.size()));
  return std::vector<std::uint8_t>(out.bytes().begin(), out.bytes().end());
}

trace_header decode_header_payload(byte_source& in, std::uint16_t version) {
  trace_header h;
  h.version = version;
  h.scenario = in.str();
  h.scenario_hash = in.u64();
  h.seed = in.varint();
  h.backend = in.str();
  h.machine = in.str();
  const std::size_t at_workers = in.pos();
  h.workers = std::uint32_t(in.varint());
  h.lanes = std::uint32_t(in.varint());
  if (h.lanes == 0 || h.lanes >= outside_lane || h.workers > h.lanes)
    in.fail(at_workers, "header: expected 1 <= workers <= lanes < 65535, found workers " + std::to_string(h.workers) +
                            ", lanes " + std::to_string(h.lanes));
  h.policy = in.str();
  h.idle = in.str();
  h.clock = in.str();
  const std::size_t at_level = in.pos();
  std::uint64_t level = in.varint();
  if (level > std::uint64_t(trace_level::full))
    in.fail(at_level, "header: expected a trace level 0-2, found " + std::to_string(level));
  h.level = trace_level(level);
  h.created_unix_s = in.varint();
  h.producer = in.str();
  h.scenario_text = in.str();
  h.workload_hash = in.u64();
  if (!in.done()) {  // appended after the first traces were written (header.hpp)
    h.sim_cores = std::uint32_t(in.varint());
    h.sim_interleave = in.str();
    h.sim_quantum_ns = std::bit_cast<double>(in.u64());
    h.sim_machine_spec = in.str();
    if (!in.done()) h.sim_schedule = in.str();  // appended later still: explore's schedules
    if (!in.done()) h.host_cores = std::uint32_t(in.varint());  // version 2
  }
  return h;  // trailing fields of later minor revisions are ignored
}

}  // namespace twinsched::traces
