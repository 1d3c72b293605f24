// Machine models: the modeled hardware's topology and costs, loaded from models/machines/*.toml.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/config.hpp"

namespace twinsched {

/// A machine file that cannot be used. what() is one line, "FILE:LINE:COL: message" (or
/// "FILE: message" without a position). Derives from config_error so the CLI exits with 2.
struct machine_error : config_error {
  using config_error::config_error;
};

/// What one modeled core, cache line, lock or park costs. All costs are in nanoseconds here;
/// files may give them in cycles (converted with clock_ghz). Documented in sim/MACHINES.md.
struct machine_model {
  std::string name = "default";
  std::string description;
  std::string source = "<embedded models/machines/default.toml>";

  // [topology]
  std::uint32_t sockets = 1;
  std::uint32_t cores_per_socket = 8;
  double clock_ghz = 3.5;

  // [costs], in ns
  double atomic_load = 0, atomic_store = 0, atomic_rmw = 0, fence = 0;
  double line_same_socket = 0, line_cross_socket = 0;
  double migration_per_kib = 0, lock_handoff = 0, queue_op = 0;
  double park = 0, unpark = 0, wake_latency = 0, spin = 0, yield = 0;
  // the runtime's own non-atomic work (models/platform.hpp contract 14) and burn_ns's fixed cost
  double message = 0, turn = 0, envelope = 0, mailbox_push = 0, mailbox_pop = 0, burn_call = 0;

  // [simulation]
  double quantum_ns = 1000;

  std::uint32_t cores() const { return sockets * cores_per_socket; }
};

/// The cost keys of a machine file's [costs] table, without the _cycles/_ns suffix, in file order.
const std::vector<std::string>& machine_cost_keys();

/// Parses machine text; `source_name` names it in errors. Unset costs keep the embedded default's.
machine_model parse_machine(std::string_view text, const std::string& source_name);
/// `name_or_path`: a name (looked up as <dir>/<name>.toml in machine_dirs(), "default" is
/// embedded) or a path to a .toml file (anything containing '/' or ending in .toml).
machine_model load_machine(const std::string& name_or_path);
/// Directories searched for machine files: ./models/machines, then the source tree's.
std::vector<std::string> machine_dirs();
/// Every loadable machine name, sorted, "default" included.
std::vector<std::string> machine_names();
/// The embedded models/machines/default.toml.
std::string_view default_machine_text();

}  // namespace twinsched
