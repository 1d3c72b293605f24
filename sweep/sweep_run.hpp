// `twinsched sweep` as one call: the sweep file and its overrides, the cells left to run, run here (the process pool) or as a Slurm job array, the result files, the summary and the report.
#pragma once
#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

namespace twinsched {

/// What a sweep is asked to do (the command's flags).
struct sweep_request {
  std::string file;                   ///< the sweep file
  std::string out;                    ///< the results' prefix (empty: the sweep's name, here)
  std::string report, heatmap;        ///< an HTML report to write after the sweep; its heat map's axes "X,Y"
  std::vector<std::string> axes;      ///< --axis NAME=V1,V2
  std::vector<std::string> params;    ///< --param KEY=VALUE
  std::vector<std::string> slurm_opts;  ///< options passed to sbatch
  std::size_t slice_k = 0, slice_t = 1;  ///< only the cells whose index mod slice_t is slice_k
  unsigned jobs = 1;                  ///< simulations at once
  std::size_t tasks = 16;             ///< Slurm array tasks the cells are dealt over
  bool resume = false, overwrite = false, dry_run = false;
  bool slurm = false, no_wait = false, gather = false;
};

/// Where a sweep shows how far it has got: the command's progress line on stderr.
class sweep_display {
 public:
  virtual ~sweep_display() = default;
  virtual void start() = 0;                               ///< a live line begins; elapsed_s counts from here
  virtual void update(const std::string& status) = 0;    ///< the live line's text
  virtual void note(const std::string& line) = 0;        ///< a line that stays, printed above the live one
  virtual void finish() = 0;                              ///< the live line goes
  virtual double elapsed_s() const = 0;
  virtual std::string duration_text(double s) const = 0;  ///< "4.2 s", "1:05"
};

/// Runs the sweep `r` asks for: the summary, the result files' paths and the report's go to
/// `out`, what was skipped, gathered or failed to `err`. Returns 0 if every cell is OK (or
/// a dry run, or a Slurm job submitted without waiting), else 1. Throws scenario_error for a
/// bad sweep file or flag value or another sweep's results, files::path_error for a bad output
/// path, before any cell runs.
int run_sweep(const sweep_request& r, sweep_display& d, std::ostream& out, std::ostream& err);

}  // namespace twinsched
