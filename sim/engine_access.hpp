// What this platform reads and writes of SimGrid's engine beyond the S4U API: its clock, and
// one simcall that resumes an actor and suspends the caller.
//
// SimGrid 3.32 keeps its clock in a private static (EngineImpl::now_, exported by libsimgrid)
// and offers no way to reset an engine or to move its clock. sim_platform sets the clock back
// to 0 between two runs of one process (nothing else is left of a run that ended cleanly), and
// flush's lookahead (cost_model.cpp) moves it where SimGrid would have; both are checked
// against fresh processes and against SimGrid itself by tests (tests/sim/batch_test.cpp,
// tests/sim/lookahead_test.cpp). The lookahead's hand-off from one worker to the next is one
// simcall that does in the kernel what Actor::resume and this_actor::suspend do in two (S4U
// refuses a suspend issued from the kernel); it calls ActorImpl's resume and suspend, which
// libsimgrid exports but does not install the header of.
#pragma once

#include <simgrid/forward.h>

namespace twinsched::sim_detail::engine_access {

/// SimGrid's clock, in seconds (Engine::get_clock(), read directly).
double clock();
void set_clock(double s);
/// Resumes `next` (suspended) and suspends the calling actor, in one simcall; returns when
/// someone resumes the caller.
void hand_off(simgrid::s4u::Actor* self, simgrid::s4u::Actor* next);

}  // namespace twinsched::sim_detail::engine_access
