// The local sweep runner: the simulations in the process pool (jobs/process_pool.hpp), on runners that reuse one engine, then the real runs in turn.
#include "sweep/local_runner.hpp"

#include <chrono>
#include <exception>
#include <map>
#include <memory>
#include <string>

#include "jobs/process_pool.hpp"
#include "runtime/run_threads.hpp"
#include "sim/run_sim.hpp"

namespace twinsched {
namespace {

using clock_type = std::chrono::steady_clock;

double since(clock_type::time_point t0) { return std::chrono::duration<double>(clock_type::now() - t0).count(); }

/// The cells one engine can simulate: one machine, core count, context factory and cost profile.
struct engine_group {
  std::vector<const sweep_cell*> cells;
  std::unique_ptr<sim_batch> batch;  ///< made at its first cell, ended after its last
  std::size_t left = 0;              ///< cells not yet ended
};

/// Each group's cells go to one sim_batch, whose runner processes simulate cell after cell in
/// one engine: a cell costs its simulation, not a process and an engine (every row is the one
/// a fresh process makes; tests/sweep). Groups run one after another, in the order of their
/// first cell, so that only the current groups' runners are alive.
void run_sim_cells(const std::vector<const sweep_cell*>& cells, unsigned jobs, const sweep_run_hooks& hooks) {
  std::vector<engine_group> groups;
  std::map<std::string, std::size_t> by_key;
  for (const sweep_cell* c : cells) {
    const auto [it, added] = by_key.try_emplace(sim_batch::engine_key(c->s, c->o), groups.size());
    if (added) groups.emplace_back();
    groups[it->second].cells.push_back(c);
  }
  struct slot {
    engine_group* group;
    std::size_t which;  ///< the cell's index in its group
  };
  std::vector<slot> order;
  for (engine_group& g : groups) {
    g.left = g.cells.size();
    for (std::size_t k = 0; k < g.cells.size(); ++k) order.push_back({&g, k});
  }
  const auto cell = [&](std::size_t i) -> const sweep_cell& { return *order[i].group->cells[order[i].which]; };
  const auto ended = [&](std::size_t i) {
    if (--order[i].group->left == 0) order[i].group->batch.reset();
  };
  std::vector<clock_type::time_point> t0(order.size());
  jobs::pool_options o;
  o.jobs = jobs;
  o.poll_wait = o.tick_every = std::chrono::milliseconds(250);
  if (hooks.tick) o.tick = [&](std::size_t, std::size_t) { hooks.tick(); };
  jobs::run_pool(
      order.size(), o,
      [&](std::size_t i) {
        t0[i] = clock_type::now();
        engine_group& g = *order[i].group;
        if (!g.batch) {
          std::vector<const scenario*> scenarios;
          for (const sweep_cell* c : g.cells) scenarios.push_back(&c->s);
          g.batch = std::make_unique<sim_batch>(std::move(scenarios), g.cells.front()->o);
        }
        auto sim = std::make_shared<running_simulation>(g.batch->start(cell(i).o, order[i].which));
        return jobs::started_job{sim->fd, [sim] { return read_available(*sim); }, [&, i, sim] {
                                   const sweep_row row = make_row(cell(i), finish_simulation(*sim), since(t0[i]));
                                   ended(i);
                                   hooks.on_row(row);
                                   return row.verdict != "OK";
                                 }};
      },
      // the simulation could not start, or its process died
      [&](std::size_t i, const std::string& what) {
        ended(i);
        hooks.on_row(error_row(cell(i), what, since(t0[i])));
      });
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
