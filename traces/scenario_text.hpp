// A scenario as canonical TOML text (what a trace header stores) and the trace header of a run of it.
#pragma once
#include <string>

#include "header.hpp"
#include "models/config.hpp"

namespace twinsched::traces {

/// The effective scenario as a scenario file: every knob written out, workload parameters
/// with defaults filled, sorted keys. Loading it (scenarios/scenario_loader.hpp) gives back
/// the same run; replay rebuilds a traced run from it. Leaves out the description and the
/// trace level, which do not change what runs.
std::string canonical_scenario_text(const scenario& s);

/// The workload's part only (kind, parameters, seed): what decides which messages are delivered.
std::string canonical_workload_text(const scenario& s);

/// A header for a trace of `s` on `backend` ("threads" | "sim"), with `lanes` worker lanes.
trace_header header_for(const scenario& s, const std::string& backend, const std::string& machine, std::uint32_t lanes,
                        trace_level level);

/// A short description of this host for the header's machine field ("12 x Intel(R) Xeon(R) ...").
std::string host_description();

}  // namespace twinsched::traces
