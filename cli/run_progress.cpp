// run_on_threads() with a progress line: a ticker over the workers' own counters (run_watch).
#include "cli/run_progress.hpp"

namespace twinsched::cli {

run_result run_with_progress(progress& p, const scenario& s, const trace_request& t, const std::string& what,
                             cost_profile* profile) {
  if (!p.enabled()) return run_on_threads(s, t, nullptr, profile);
  run_watch watch;
  const double t0 = p.elapsed_s();
  progress_ticker ticker(p, [&] {
    const double took = p.elapsed_s() - t0;
    const std::uint64_t n = watch.messages();
    return what + ": " + count_of_text(n, watch.expected(), "messages") + ", " +
           count_text(took > 0 ? double(n) / took : 0) + "/s, " + duration_text(took);
  });
  return run_on_threads(s, t, &watch, profile);
}

}  // namespace twinsched::cli
