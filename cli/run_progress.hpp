// A run on threads with a progress line that says how far it has got: messages, rate.
#pragma once
#include <string>

#include "cli/progress.hpp"
#include "runtime/run_threads.hpp"

namespace twinsched::cli {

/// run_on_threads(s, t), updating `p` with "`what`: 1.2 M of 4.0 M messages, 3.1 M/s, 2.4 s"
/// from a progress_ticker (run_watch reads the workers' own counters). The ticker's thread
/// has ended when it returns, so a simulation may fork after it. With `profile`, each turn's
/// own code is timed into it (run_on_threads).
run_result run_with_progress(progress& p, const scenario& s, const trace_request& t, const std::string& what,
                             cost_profile* profile = nullptr);

}  // namespace twinsched::cli
