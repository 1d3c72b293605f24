// The local sweep runner: the simulations in the process pool (jobs/process_pool.hpp), then the real runs in turn.
#include "sweep/local_runner.hpp"

#include <chrono>
#include <exception>
#include <memory>

#include "jobs/process_pool.hpp"
#include "runtime/run_threads.hpp"
#include "sim/run_sim.hpp"

namespace twinsched {
namespace {

using clock_type = std::chrono::steady_clock;

double since(clock_type::time_point t0) { return std::chrono::duration<double>(clock_type::now() - t0).count(); }

void run_sim_cells(const std::vector<const sweep_cell*>& cells, unsigned jobs, const sweep_run_hooks& hooks) {
  std::vector<clock_type::time_point> t0(cells.size());
  jobs::pool_options o;
  o.jobs = jobs;
  o.poll_wait = o.tick_every = std::chrono::milliseconds(250);
  if (hooks.tick) o.tick = [&](std::size_t, std::size_t) { hooks.tick(); };
  jobs::run_pool(
      cells.size(), o,
      [&](std::size_t i) {
        t0[i] = clock_type::now();
        auto sim = std::make_shared<running_simulation>(start_simulation(cells[i]->s, cells[i]->o));
        return jobs::started_job{sim->fd, [sim] { return read_available(*sim); }, [&, i, sim] {
                                   const sweep_row row = make_row(*cells[i], finish_simulation(*sim), since(t0[i]));
                                   hooks.on_row(row);
                                   return row.verdict != "OK";
                                 }};
      },
      // the simulation could not start, or its process died
      [&](std::size_t i, const std::string& what) { hooks.on_row(error_row(*cells[i], what, since(t0[i]))); });
}

}  // namespace

void run_cells(const std::vector<const sweep_cell*>& cells, unsigned jobs, const sweep_run_hooks& hooks) {
  std::vector<const sweep_cell*> sim, real;
  for (const sweep_cell* c : cells) (c->backend == "sim" ? sim : real).push_back(c);
  run_sim_cells(sim, jobs, hooks);
  for (const sweep_cell* c : real) {
    if (hooks.tick) hooks.tick();
    const auto t0 = clock_type::now();
    try {
      run_result r = run_on_threads(c->s);
      hooks.on_row(make_row(*c, r, since(t0)));
    } catch (const std::exception& e) {
      hooks.on_row(error_row(*c, e.what(), since(t0)));
    }
  }
  if (hooks.tick) hooks.tick();
}

}  // namespace twinsched
