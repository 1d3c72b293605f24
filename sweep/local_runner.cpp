// The local sweep runner: a pool of simulation processes polled together, then the real runs in turn.
#include "sweep/local_runner.hpp"

#include <fcntl.h>
#include <poll.h>

#include <algorithm>
#include <chrono>
#include <exception>

#include "runtime/run_threads.hpp"
#include "sim/run_sim.hpp"

namespace twinsched {
namespace {

using clock_type = std::chrono::steady_clock;

double since(clock_type::time_point t0) { return std::chrono::duration<double>(clock_type::now() - t0).count(); }

void run_sim_cells(const std::vector<const sweep_cell*>& cells, unsigned jobs, const sweep_run_hooks& hooks) {
  struct slot {
    const sweep_cell* cell;
    running_simulation sim;
    clock_type::time_point t0;
  };
  std::vector<slot> running;
  std::size_t next = 0;
  auto last_tick = clock_type::now();
  while (next < cells.size() || !running.empty()) {
    while (running.size() < std::max(1u, jobs) && next < cells.size()) {
      const sweep_cell* c = cells[next++];
      const auto t0 = clock_type::now();
      try {
        running_simulation sim = start_simulation(c->s, c->o);
        ::fcntl(sim.fd, F_SETFL, ::fcntl(sim.fd, F_GETFL) | O_NONBLOCK);
        running.push_back({c, std::move(sim), t0});
      } catch (const std::exception& e) {
        hooks.on_row(error_row(*c, e.what(), since(t0)));
      }
    }
    if (running.empty()) continue;
    std::vector<pollfd> fds;
    for (auto& r : running) fds.push_back({r.sim.fd, POLLIN, 0});
    ::poll(fds.data(), fds.size(), 250);
    for (std::size_t k = 0; k < running.size();) {
      if (!read_available(running[k].sim)) {
        ++k;
        continue;
      }
      sweep_row row;
      try {
        sim_result r = finish_simulation(running[k].sim);
        row = make_row(*running[k].cell, r, since(running[k].t0));
      } catch (const std::exception& e) {  // the simulation process died
        row = error_row(*running[k].cell, e.what(), since(running[k].t0));
      }
      running.erase(running.begin() + std::ptrdiff_t(k));
      hooks.on_row(row);
    }
    if (hooks.tick && clock_type::now() - last_tick >= std::chrono::milliseconds(250)) {
      hooks.tick();
      last_tick = clock_type::now();
    }
  }
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
