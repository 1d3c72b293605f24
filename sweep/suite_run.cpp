// A whole suite: its plan, its cells in the sweep's local runner, its table, JSON and page.
#include "sweep/suite_run.hpp"

#include <ostream>

#include "sweep/local_runner.hpp"
#include "sweep/suite_report.hpp"
#include "sweep/suite_table.hpp"
#include "sweep/sweep_summary.hpp"
#include "traces/output_file.hpp"

namespace twinsched {

int run_suite(const suite_request& r, sweep_display& d, std::ostream& out, std::ostream& err) {
  const suite_plan p = plan_suite(r);
  if (!r.report.empty()) {
    std::vector<std::string> inputs;
    for (const auto& b : p.benchmarks) inputs.push_back(p.specs.front().axis_scenarios.at(b.scenario).source);
    files::check_output(r.report, "--report", inputs);
  }
  err << "suite " << p.name << ": " << plural(p.benchmarks.size(), "benchmark") << ", " << plural(p.cells.size(), "cell");
  if (!p.skipped.empty()) err << " (" << p.skipped.size() << " more cannot run: n/a in the table)";
  if (!p.sizes.empty()) err << "; " << p.sizes.size() << " at test sizes";
  err << '\n';
  std::vector<const sweep_cell*> todo;
  for (const auto& c : p.cells) todo.push_back(&c);
  suite_rows rows;
  cell_tally t;
  t.total = todo.size();
  d.start();
  sweep_run_hooks hooks;
  hooks.on_row = [&](const sweep_row& row) {
    rows[row.key] = row;
    t.count(row);
    if (row.verdict != "OK") {
      const std::string why = row.error.empty() ? "the run's verdict failed" : row.error.substr(0, row.error.find('\n'));
      d.note("suite: " + row.key + ": " + row.verdict + ": " + why);
    }
    d.update(t.status(d));
  };
  hooks.tick = [&] { d.update(t.status(d)); };
  run_cells(todo, r.jobs, hooks);
  d.finish();
  if (r.json)
    out << suite_json(p, rows).dump(2) << '\n';
  else
    print_suite_table(out, p, rows);
  if (!r.report.empty()) {
    files::output_file f(r.report);
    write_suite_report(f.stream(), p, rows);
    f.commit();
    err << "report " << r.report << '\n';
  }
  const bool ok = suite_ok(p, rows);
  err << "suite " << p.name << ": " << t.ok << " OK, " << t.fail << " FAIL, " << t.error << " ERROR in "
      << d.duration_text(d.elapsed_s()) << (ok ? "" : "; exit code 1") << '\n';
  return ok ? 0 : 1;
}

}  // namespace twinsched
