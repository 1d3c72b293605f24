// What this platform reads and writes of SimGrid's engine beyond the S4U API: its clock.
//
// SimGrid 3.32 keeps its clock in a private static (EngineImpl::now_, exported by libsimgrid)
// and offers no way to reset an engine or to move its clock. sim_platform sets the clock back
// to 0 between two runs of one process (nothing else is left of a run that ended cleanly), and
// flush's lookahead (cost_model.cpp) moves it where SimGrid would have; both are checked
// against fresh processes and against SimGrid itself by tests (tests/sim/batch_test.cpp,
// tests/sim/lookahead_test.cpp).
#pragma once

namespace twinsched::sim_detail::engine_access {

/// SimGrid's clock, in seconds (Engine::get_clock(), read directly).
double clock();
void set_clock(double s);

}  // namespace twinsched::sim_detail::engine_access
