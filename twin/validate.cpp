#include "twin/validate.hpp"

#include <algorithm>
#include <thread>
#include <vector>

#include "traces/diff_text.hpp"
#include "traces/output_file.hpp"
#include "traces/trace_reader.hpp"

namespace twinsched {

std::uint32_t cap_workers_to_machine(scenario& s) {
  const std::uint32_t asked = s.sched.workers;
  s.sched.workers = std::min<std::uint32_t>(asked, std::max(1u, std::thread::hardware_concurrency()));
  return asked;
}

validate_outcome validate_scenario(const validate_request& r, const validate_hooks& hooks) {
  validate_outcome v;
  scenario s = r.s;
  s.trace = r.level;
  v.workers = s.sched.workers;
  v.real_path = r.out_dir + "/" + s.name + ".real.tst";
  v.sim_path = r.out_dir + "/" + s.name + ".sim.tst";
  files::check_output_folder(r.out_dir, "--out", false);
  const std::vector<std::string> inputs{r.scenario_file, r.machine.empty() ? s.machine : r.machine};
  files::check_output(v.real_path, "--out", inputs);
  files::check_output(v.sim_path, "--out", inputs);

  const trace_request t{v.real_path, r.level};
  v.real = hooks.run_real ? hooks.run_real(s, t) : run_on_threads(s, t);
  sim_options o;
  o.cores = s.sched.workers;
  o.machine = r.machine;
  o.trace_path = v.sim_path;
  v.sim = hooks.simulate ? hooks.simulate(s, o) : simulate(s, o);
  const traces::trace_reader a(v.real_path), b(v.sim_path);
  v.diff = hooks.diff ? hooks.diff(a, b, r.diff) : traces::diff_traces(a, b, r.diff);
  return v;
}

void print_validation(std::ostream& out, const validate_outcome& v) {
  out << "real          " << v.workers << " threads: " << v.real.messages << " messages in " << v.real.wall_s
      << " s, verdict " << (v.real.ok() ? "OK" : "FAIL") << ", trace " << v.real_path << '\n'
      << "simulated     " << v.sim.cores << " cores of " << v.sim.machine << ": " << v.sim.run.messages
      << " messages in " << v.sim.sim_s << " simulated s, verdict " << (v.sim.ok() ? "OK" : "FAIL") << ", trace "
      << v.sim_path << "\n\n";
  traces::print_diff(out, v.diff);
}

}  // namespace twinsched
