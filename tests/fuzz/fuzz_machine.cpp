// libFuzzer harness: machine model TOML text -> parse_machine (toml++ parsing, key and range checks).
//
// A rejected input is a machine_error (file:line:col); anything else that escapes, and every
// crash, leak, hang or sanitizer report, is a bug. An accepted model must be one the
// simulator can use: at least one core, a positive finite clock and quantum, every cost
// finite and not negative (sim/MACHINES.md).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_common.hpp"
#include "sim/machine_model.hpp"

using namespace twinsched;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (fuzz::hits_toml_unicode_bug(text)) return 0;  // a known toml++ 3.3.0 bug (fuzz_common.hpp)
  machine_model m;
  try {
    m = parse_machine(text, "fuzz.toml");
  } catch (const machine_error&) {
    return 0;
  } catch (const std::exception& e) {
    fuzz::other_exception(e);
    return 0;
  }
  if (m.sockets == 0 || m.cores_per_socket == 0) fuzz::broken("accepted a machine without cores");
  if (!(m.clock_ghz > 0) || !std::isfinite(m.clock_ghz)) fuzz::broken("accepted clock_ghz", std::to_string(m.clock_ghz).c_str());
  if (!(m.quantum_ns > 0) || !std::isfinite(m.quantum_ns)) fuzz::broken("accepted quantum_ns", std::to_string(m.quantum_ns).c_str());
  for (double c : {m.atomic_load, m.atomic_store, m.atomic_rmw, m.fence, m.line_same_socket, m.line_cross_socket,
                   m.migration_per_kib, m.lock_handoff, m.contended_unlock, m.queue_op, m.locked_queue_op, m.park,
                   m.unpark, m.wake_latency, m.spin, m.yield, m.message, m.turn, m.envelope, m.mailbox_push,
                   m.mailbox_pop, m.burn_call, m.cold_actor, m.llc_actor, m.memory_load,
                   m.stream_load})
    if (!(c >= 0) || !std::isfinite(c)) fuzz::broken("accepted a cost of", std::to_string(c).c_str());
  return 0;
}
