// SimGrid's clock, reached past the S4U API (engine_access.hpp says why).
#include "engine_access.hpp"

// EngineImpl::now_: a private static of SimGrid 3.32 that libsimgrid exports, named by its symbol.
extern "C" double simgrid_engine_clock asm("_ZN7simgrid6kernel10EngineImpl4now_E");

namespace twinsched::sim_detail::engine_access {

double clock() { return simgrid_engine_clock; }
void set_clock(double s) { simgrid_engine_clock = s; }

}  // namespace twinsched::sim_detail::engine_access
