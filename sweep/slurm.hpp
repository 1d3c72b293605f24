// Running a sweep as a Slurm job array: the job script, sbatch, waiting on squeue, and gathering the tasks' result files.
//
// Task K of T runs the cells whose index mod T is K, as
//   twinsched sweep SPEC ... --slice K/T -o DIR/task-K --resume
// so each task appends to its own DIR/task-K.{csv,jsonl} as cells end, and a re-submitted
// task skips what it already did. Gathering appends the tasks' rows to the sweep's own files.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "sweep/sweep_row.hpp"

namespace twinsched {

struct slurm_job {
  std::string twinsched;                ///< absolute path of the twinsched binary the tasks run
  std::vector<std::string> sweep_args;  ///< SPEC (absolute) and the overrides every task repeats
  std::string dir;                      ///< absolute: job.sh, task-K.{csv,jsonl,log}
  std::size_t tasks = 1;                ///< T: the array's size
  std::vector<std::size_t> array;       ///< the task indices to submit (all, or the ones with cells missing)
  unsigned jobs = 1;                    ///< --jobs inside each task
  std::vector<std::string> sbatch_options;  ///< --slurm-opt values, passed to sbatch as they are
};

/// The batch script (bash, #SBATCH lines, one twinsched call per array task).
std::string job_script(const slurm_job& j, const std::string& job_name);
/// Writes DIR/job.sh and submits it with `sbatch --parsable`; returns the job id. Throws
/// std::runtime_error with sbatch's message if it fails (or is not installed).
std::string submit(const slurm_job& j, const std::string& job_name);
/// True while squeue lists any task of the job.
bool job_in_queue(const std::string& job_id);
/// Waits until the job has left the queue, calling `tick` every `poll_s` seconds.
void wait_for_job(const std::string& job_id, const std::function<void()>& tick, double poll_s = 1.0);

/// The task that runs cell `index` of T tasks.
inline std::size_t task_of(std::size_t index, std::size_t tasks) { return index % tasks; }
/// "DIR/task-K" (the result files' prefix of task K).
std::string task_prefix(const std::string& dir, std::size_t task);

/// Runs a command line through the shell; its stdout, and its exit status in *status.
std::string shell_output(const std::string& command, int* status);
/// 'text' quoted for the shell.
std::string shell_quoted(const std::string& text);

}  // namespace twinsched
