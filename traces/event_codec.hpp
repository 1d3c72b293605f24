// The block codec: a run of one lane's events <-> the compact delta/varint payload described in format.hpp.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "byte_io.hpp"
#include "models/trace_event.hpp"

namespace twinsched::traces {

/// Appends the encoding of `events` (one lane, times non-decreasing) to `out`.
/// `first_time_ns` must be events.front().time_ns; it goes into the block header.
void encode_events(std::span<const trace_event> events, byte_sink& out);

/// Decodes exactly `count` events of lane `lane` from all of `in` (throws trace_error on any
/// malformed event, a payload that ends early, or bytes left over).
void decode_events(byte_source& in, std::uint32_t count, std::uint64_t first_time_ns, std::uint16_t lane,
                   std::vector<trace_event>& out);

}  // namespace twinsched::traces
