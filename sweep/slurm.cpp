// Slurm job arrays for sweeps: the script, submission with sbatch, waiting with squeue.
#include "sweep/slurm.hpp"

#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <thread>

#include "traces/output_file.hpp"

namespace twinsched {

std::string shell_quoted(const std::string& text) {
  std::string q = "'";
  for (char c : text) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string shell_output(const std::string& command, int* status) {
  std::FILE* p = ::popen(command.c_str(), "r");
  if (!p) throw std::runtime_error("cannot run: " + command);
  std::string out;
  char buf[4096];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int rc = ::pclose(p);
  if (status) *status = WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
  return out;
}

std::string task_prefix(const std::string& dir, std::size_t task) { return dir + "/task-" + std::to_string(task); }

std::string job_script(const slurm_job& j, const std::string& job_name) {
  std::string array;
  for (std::size_t k : j.array) array += (array.empty() ? "" : ",") + std::to_string(k);
  std::string s = "#!/bin/bash\n";
  s += "# twinsched sweep: task K of " + std::to_string(j.tasks) + " runs the cells whose index mod " +
       std::to_string(j.tasks) + " is K.\n";
  s += "#SBATCH --job-name=" + job_name + "\n";
  s += "#SBATCH --array=" + array + "\n";
  s += "#SBATCH --output=" + j.dir + "/task-%a.log\n";
  s += "#SBATCH --cpus-per-task=" + std::to_string(j.jobs) + "\n";
  s += "set -euo pipefail\n";
  s += "exec " + shell_quoted(j.twinsched) + " sweep";
  for (const auto& a : j.sweep_args) s += " " + shell_quoted(a);
  s += " --slice \"${SLURM_ARRAY_TASK_ID}/" + std::to_string(j.tasks) + "\" -o " + shell_quoted(j.dir) +
       "/task-\"${SLURM_ARRAY_TASK_ID}\" --resume --jobs " + std::to_string(j.jobs) + "\n";
  return s;
}

std::string submit(const slurm_job& j, const std::string& job_name) {
  const std::string path = j.dir + "/job.sh";
  files::write_whole(path, job_script(j, job_name));
  std::string cmd = "sbatch --parsable";
  for (const auto& o : j.sbatch_options) cmd += " " + shell_quoted(o);
  cmd += " " + shell_quoted(path) + " 2>&1";
  int status = 0;
  std::string out = shell_output(cmd, &status);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  if (status != 0) {
    if (status == 127) throw std::runtime_error("sbatch not found: install Slurm's client (slurm-client) or run without --slurm");
    for (char& c : out)
      if (c == '\n') c = ' ';
    throw std::runtime_error("sbatch failed (exit " + std::to_string(status) + "): " + out);
  }
  const auto semi = out.find(';');  // "ID;cluster" on a federation
  const auto nl = out.rfind('\n');  // warnings before the id
  std::string id = out.substr(nl == std::string::npos ? 0 : nl + 1);
  return semi == std::string::npos ? id : id.substr(0, id.find(';'));
}

bool job_in_queue(const std::string& job_id) {
  int status = 0;
  std::string out = shell_output("squeue -h -o %i -j " + shell_quoted(job_id) + " 2>/dev/null", &status);
  // squeue fails for a job id it no longer knows: the job has left the queue.
  return status == 0 && out.find_first_not_of(" \n") != std::string::npos;
}

void wait_for_job(const std::string& job_id, const std::function<void()>& tick, double poll_s) {
  while (job_in_queue(job_id)) {
    if (tick) tick();
    std::this_thread::sleep_for(std::chrono::duration<double>(poll_s));
  }
}

}  // namespace twinsched
