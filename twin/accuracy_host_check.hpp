// The accuracy matrix's host check: line-transfer probes around the real runs against the model's figure.
#pragma once
#include <functional>
#include <string>

#include "twin/accuracy_summary.hpp"

namespace twinsched::twin {

/// Whether one line-transfer probe finds this machine in the state its model describes:
/// within 2x of the model's figure (a VM host's two states differ by far more: same_line_state,
/// twin/calibrate.hpp). True when the model has no figure.
bool probe_matches(const accuracy_setup& setup, double probe_ns);
/// Whether the host check passes: no compared case was left out for want of a real run in the
/// model's state, and every probe matched unless re-runs replaced what the others spoiled.
bool host_matches_model(const accuracy_setup& setup, const accuracy_summary& sum);
/// "line transfer here: 73.8 ns before the real runs, 72.1 after (70.2-75.0 over 297 probes);
/// the model: 9.4 ns; ...", with how many runs were in the model's state, how many were re-run,
/// and when cases were left out what that means and what to do; empty when nothing was probed.
std::string host_check_text(const accuracy_setup& setup, const accuracy_summary& sum);
/// The warning when the probe before the first real run disagrees with the model (the last probe in setup).
std::string host_warning(const accuracy_setup& setup);

/// The probe the matrix runs: probe_line_transfer_ns (0 on one CPU), unless the tests' seam
/// TWINSCHED_TEST_PROBES="10,10,100" gives the figures it returns, in order (the last one
/// repeats), so that a test can move the host between two chosen runs.
std::function<double()> host_probe();

}  // namespace twinsched::twin
