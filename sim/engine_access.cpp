// SimGrid's clock, reached past the S4U API (engine_access.hpp says why).
#include "engine_access.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/simix.hpp>

// EngineImpl::now_: a private static of SimGrid 3.32 that libsimgrid exports, named by its symbol.
extern "C" double simgrid_engine_clock asm("_ZN7simgrid6kernel10EngineImpl4now_E");
// ActorImpl::resume() and ActorImpl::suspend(): non-virtual members, `this` their one argument.
extern "C" void simgrid_actor_resume(simgrid::kernel::actor::ActorImpl*) asm("_ZN7simgrid6kernel5actor9ActorImpl6resumeEv");
extern "C" void simgrid_actor_suspend(simgrid::kernel::actor::ActorImpl*) asm("_ZN7simgrid6kernel5actor9ActorImpl7suspendEv");

namespace twinsched::sim_detail::engine_access {

double clock() { return simgrid_engine_clock; }
void set_clock(double s) { simgrid_engine_clock = s; }

void hand_off(simgrid::s4u::Actor* self, simgrid::s4u::Actor* next) {
  simgrid::kernel::actor::ActorImpl* me = self->get_impl();
  simgrid::kernel::actor::ActorImpl* to = next->get_impl();
  // In the kernel: `to` joins the actors to run; the caller, suspended, is not answered (as
  // this_actor::suspend leaves it) until a resume puts it back on that list.
  simgrid::kernel::actor::simcall_blocking([me, to] {
    simgrid_actor_resume(to);
    simgrid_actor_suspend(me);
  });
}

}  // namespace twinsched::sim_detail::engine_access
