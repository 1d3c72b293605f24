// Running a sweep's missing cells as a Slurm job array and gathering the tasks' rows.
#include "sweep/slurm_run.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <ostream>
#include <set>
#include <stdexcept>

#include "scenarios/scenario_loader.hpp"
#include "sweep/slurm.hpp"
#include "sweep/sweep_summary.hpp"

namespace twinsched {
namespace {

namespace fs = std::filesystem;

/// Appends the tasks' done rows that the sweep's own files lack; returns how many.
std::size_t gather(const sweep_spec& spec, const std::vector<sweep_cell>& cells, const std::string& dir,
                   result_files& results) {
  std::set<std::string> keys;
  for (const auto& cell : cells) keys.insert(cell.key);
  std::size_t added = 0;
  std::error_code ec;
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".jsonl" && e.path().filename().string().rfind("task-", 0) == 0)
      files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    auto rows = read_rows(spec, f);
    check_rows(cells, rows, f);
    for (auto& [key, row] : rows) {
      if (!keys.count(key) || !row.done()) continue;
      auto it = results.rows().find(key);
      if (it != results.rows().end() && it->second.done()) continue;
      results.append(row);
      ++added;
    }
  }
  return added;
}

}  // namespace

int run_slurm(const sweep_request& r, const sweep_spec& spec, const std::vector<sweep_cell>& cells, result_files& results,
              const std::string& prefix, sweep_display& d, std::ostream& out, std::ostream& err) {
  const std::string dir = fs::absolute(prefix + ".slurm").lexically_normal().string();
  fs::create_directories(dir);
  if (r.overwrite && !r.gather)
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().filename().string().rfind("task-", 0) == 0) fs::remove(e.path());
  std::size_t gathered = gather(spec, cells, dir, results);
  if (gathered) err << "sweep: gathered " << plural(gathered, "row") << " from " << dir << '\n';
  auto missing = missing_cells(cells, results.rows());
  if (r.gather || missing.empty())
    return finish_sweep(r, spec, cells, results, missing.empty() ? "nothing left to run" : "gathered from " + dir, out);

  slurm_job job;
  job.twinsched = fs::read_symlink("/proc/self/exe").string();
  job.sweep_args.push_back(fs::absolute(r.file).lexically_normal().string());
  for (const auto& a : r.axes) job.sweep_args.push_back("--axis=" + a);
  for (const auto& p : r.params) job.sweep_args.push_back("--param=" + p);
  job.dir = dir;
  job.tasks = std::min(r.tasks, cells.size());
  std::set<std::size_t> array;
  for (const sweep_cell* cell : missing) array.insert(task_of(cell->index, job.tasks));
  job.array.assign(array.begin(), array.end());
  job.jobs = 1;
  job.sbatch_options = r.slurm_opts;
  std::string id;
  try {
    id = submit(job, "twinsched-" + spec.name);
  } catch (const std::runtime_error& e) {
    throw scenario_error("--slurm", 0, 0, e.what());
  }
  out << "sweep " << spec.name << ": submitted Slurm job " << id << " (" << plural(job.array.size(), "array task") << " of "
      << job.tasks << " for " << plural(missing.size(), "cell") << "; script " << dir << "/job.sh)\n"
      << std::flush;
  if (r.no_wait) {
    out << "when it has ended: twinsched sweep " << r.file << " --slurm --gather -o " << prefix
        << " (then --slurm --resume re-submits what failed)\n";
    return 0;
  }
  d.start();
  auto count_done = [&] {
    std::size_t n = 0;
    for (std::size_t k : job.array) {
      std::ifstream f(task_prefix(dir, k) + ".jsonl");
      n += std::size_t(std::count(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>(), '\n'));
    }
    return n;
  };
  wait_for_job(id, [&] {
    d.update("Slurm job " + id + ": " + std::to_string(count_done()) + "/" + std::to_string(missing.size()) + " cells, " +
             d.duration_text(d.elapsed_s()) + " elapsed");
  });
  d.finish();
  gathered = gather(spec, cells, dir, results);
  const std::string ran = "Slurm job " + id + " ran " + plural(gathered, "cell") + " in " + d.duration_text(d.elapsed_s());
  auto still = missing_cells(cells, results.rows());
  if (!still.empty()) {
    std::map<std::size_t, std::size_t> per_task;
    for (const sweep_cell* cell : still) ++per_task[task_of(cell->index, job.tasks)];
    for (auto& [k, n] : per_task)
      err << "sweep: task " << k << " failed: " << plural(n, "cell") << " missing (log " << dir << "/task-" << k << ".log)\n";
    err << "sweep: re-submit the failed tasks with --slurm --resume\n";
  }
  return finish_sweep(r, spec, cells, results, ran, out);
}

}  // namespace twinsched
