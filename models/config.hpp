// The scheduler configuration and the scenario: everything a run needs, independent of files and CLI.
#pragma once
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "trace_event.hpp"
#include "workload/workload.hpp"

namespace twinsched {

/// Idle strategy and its knobs (see models/idle/; each strategy declares the ones it reads). Times in nanoseconds.
struct idle_config {
  std::string strategy = "backoff";  ///< busy-spin | noop | yield | sleep | backoff | park
  std::uint32_t max_spins = 64;      ///< backoff: pause-spins before yielding
  std::uint32_t max_yields = 16;     ///< backoff: yields before parking
  std::uint64_t min_park_ns = 10'000;     ///< backoff: first park
  std::uint64_t max_park_ns = 1'000'000;  ///< backoff: park doubles up to this
  std::uint64_t sleep_ns = 50'000;        ///< sleep: fixed park
};

/// Most workers a run may have (scenario files, flags, adaptive's max_workers).
inline constexpr std::uint32_t workers_limit = 1024;

/// Policy-specific knobs; each policy reads the ones it needs and declares them (its
/// policy_info's knobs, models/policy/policy_info.hpp), which is where their ranges and help live.
struct scheduler_config {
  std::string policy = "stealing";  ///< shared-queue | distribution | sharing | stealing | donation | adaptive
  std::uint32_t workers = 2;
  idle_config idle;
  std::uint32_t burst = 16;       ///< max messages per actor turn
  bool fifo = false;              ///< stealing: owner pops FIFO (ForkJoinPool asyncMode)
  std::string steal = "one";      ///< stealing: "one" | "half"
  std::uint32_t donate_threshold = 2;     ///< donation: mailbox length that triggers donation
  std::uint32_t overload_after = 1000;    ///< adaptive: messages without going idle
  std::uint32_t min_workers = 1;          ///< adaptive
  std::uint32_t max_workers = 0;          ///< adaptive; 0 = same as workers
  std::uint64_t retire_after_ns = 1'000'000;  ///< adaptive: idle time before a thread retires
  bool checks = false;  ///< test builds: guard that no actor runs on two workers at once
};

/// A scenario: a workload with parameters, a scheduler configuration, a machine model.
struct scenario {
  std::string name = "unnamed";
  std::string description;
  std::string source;  ///< file the scenario came from, or "<embedded>"
  std::uint64_t seed = 1;
  std::string workload = "forward";
  std::map<std::string, param_value> workload_params;  ///< validated, defaults not filled
  scheduler_config sched;
  std::string machine = "default";  ///< name of a models/machines/*.toml file
  trace_level trace = trace_level::off;  ///< the file's `trace` key: what a run records when asked to
};

/// Names accepted in scenario files and on the command line.
const std::vector<std::string>& policy_names();
const std::vector<std::string>& idle_names();
const std::vector<std::string>& trace_level_names();  ///< in the enum's order

/// A trace level's name: "off", "decisions" or "full".
const std::string& level_name(trace_level l);
/// The one parser of a trace level's name, for scenario files and every command's flags:
/// throws std::invalid_argument("unknown trace level 'NAME' (known: off, decisions, full)").
trace_level level_from_name(const std::string& name);

}  // namespace twinsched

namespace twinsched {
/// A configuration that cannot run (unknown policy, donation without groups, ...).
/// The CLI reports it as one line and exits with code 2.
struct config_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};
/// A config_error about one knob, named by its scenario-file key ("scheduler.idle.max_park_us"),
/// so that a scenario file's error points at that key (or at `other`, when the file sets only that).
struct knob_error : config_error {
  knob_error(std::string key_, std::string other_, const std::string& message)
      : config_error(message), key(std::move(key_)), other(std::move(other_)) {}
  std::string key, other;
};
/// Throws config_error when `s` names unknown policies/strategies or has impossible knobs.
void validate(const scenario& s);
}  // namespace twinsched
