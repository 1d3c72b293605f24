// The cost model's out-of-line parts: the simulation's state, paying pending charges with one simcall, resuming after one.
#include "cost_model.hpp"

#include <bit>

#include <simgrid/s4u.hpp>

namespace sg = simgrid::s4u;

namespace twinsched::sim_detail {

state g;

void resume(actor_state* me) {
  g.cur = me;
  double clk = sg::Engine::get_clock();
  me->base_ns = clk * 1e9;
  mix((std::uint64_t(std::uint32_t(me->worker + 1)) << 40) ^ std::bit_cast<std::uint64_t>(clk));
}

void flush() {
  actor_state* me = g.cur;
  if (g.aborting) halt();
  double p = me->pending_ns;
  me->pending_ns = 0;
  next_yield_at(me);
  ++g.flushes;
  if (p > 0) {
    if (me->shared_core) sg::this_actor::execute(p * g.clock_ghz);  // cycles at clock_ghz: shares the core
    else sg::this_actor::sleep_for(p * 1e-9);                        // the core is ours: same time, cheaper
  } else {
    sg::this_actor::yield();
  }
  resume(me);
  if (g.aborting) halt();
}

void halt() {
  // Never return into models/ code: the run is over. Everyone blocked => the engine stops.
  for (;;) sg::this_actor::suspend();
}

}  // namespace twinsched::sim_detail
