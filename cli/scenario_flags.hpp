// The flags `run` and `sim` share: scheduler knobs, seed, workload parameters, --checks; each beats the scenario file only when given.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "models/config.hpp"
#include "models/knob.hpp"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace twinsched::cli {

/// The help of the SCENARIO argument of `run`, `sim`, `validate` and `explore` (load_scenario).
inline constexpr const char* scenario_help =
    "A stock scenario's name (forward, pingpong, savina/pingpong, ...: `twinsched list scenarios`) or a path "
    "to a scenario file (it ends in .toml, or contains a '/' and exists). Without one, the forward scenario "
    "built into the binary.";
inline constexpr const char* machine_help =
    "Machine model: a stock machine's name (`twinsched list machines`) or a path to a machine file "
    "(it contains a '/' or ends in .toml).";

/// True if the option appeared on the command line.
bool given(const CLI::Option* o);

struct scenario_flags {
  scheduler_config sched;  // holds the override values, starting at the built-in defaults
  std::uint64_t seed = scenario{}.seed;
  std::vector<std::string> params;
  bool checks = false;
  CLI::Option *workers_opt = nullptr, *policy_opt = nullptr, *idle_opt = nullptr, *burst_opt = nullptr,
              *seed_opt = nullptr;
  /// One flag per registered knob (models/registry.hpp), and how a given one sets the scenario.
  std::vector<std::pair<CLI::Option*, std::function<void(scenario&)>>> knob_flags;
  std::map<std::string, std::uint64_t> micros;  ///< the values of the knobs given in microseconds

  /// Registers the flags on `cmd`; `workers_help` says what --workers means for that command.
  void add_to(CLI::App& cmd, const std::string& workers_help);
  /// Writes every given flag into `s` (workload parameters with the file's checks).
  void apply(scenario& s) const;

 private:
  template <class C>
  void add_knob(CLI::App& cmd, const std::string& owner, const std::string& table, const knob<C>& k, C& c);
};

}  // namespace twinsched::cli
