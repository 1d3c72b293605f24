// A sweep's missing cells as a Slurm job array: submitted, waited for, and the tasks' rows gathered into the sweep's own result files.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include "sweep/result_files.hpp"
#include "sweep/sweep_run.hpp"

namespace twinsched {

/// Gathers the rows finished tasks left in PREFIX.slurm; unless r.gather (gather only) or
/// nothing is missing, submits the missing cells (slurm.hpp), waits (unless r.no_wait), and
/// gathers again. Returns as finish_sweep does (0 after a submission without waiting).
int run_slurm(const sweep_request& r, const sweep_spec& spec, const std::vector<sweep_cell>& cells, result_files& results,
              const std::string& prefix, sweep_display& d, std::ostream& out, std::ostream& err);

}  // namespace twinsched
