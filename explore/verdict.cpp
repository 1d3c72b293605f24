// Judging an explored run: the invariant its first error names, or the verdict's own failure.
#include "explore/verdict.hpp"

#include <sstream>

namespace twinsched::explore {

std::string kind_of(const std::string& error) {
  if (error.find("parked with no timeout") != std::string::npos) return "lost-wakeup";
  if (error.find("entered by worker") != std::string::npos) return "two-workers";
  if (error.find("per-sender order") != std::string::npos) return "per-sender-order";
  if (error.find("simulated time limit") != std::string::npos) return "time-limit";
  if (error.find("platform operations without ending") != std::string::npos) return "livelock";
  if (error.find("failed:") != std::string::npos) return "behavior-error";
  return "verdict";
}

outcome judge(const sim_result& r) {
  outcome o;
  o.result = r;
  o.failed = !r.ok();
  if (!o.failed) return o;
  if (!r.run.errors.empty()) {
    o.error = r.run.errors.front();
  } else {
    std::ostringstream w;
    w << "the run's verdict failed: " << r.run.messages << " of " << r.run.expected_messages << " messages processed, "
      << r.run.leftover << " left over, checksum " << (r.run.checksum == r.run.reference ? "matches" : "differs")
      << (r.run.workload_ok ? "" : ", the workload's own check failed");
    o.error = w.str();
  }
  o.kind = kind_of(o.error);
  return o;
}

}  // namespace twinsched::explore
