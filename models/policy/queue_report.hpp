// Listing the actors in an intrusive run queue for the hang report, without its lock.
//
// Run queues link actors through `next_runnable`. The hang report (scheduler::state_report)
// walks them while the run is presumed stuck, so it takes no lock (a holder that is stuck
// would hang the report too) and stops after `max` actors: a snapshot that may be stale if
// the run was not stuck after all, never a basis for a decision.
#pragma once
#include <cstddef>
#include <string>

#include "../actor.hpp"

namespace twinsched {

/// Appends "<size> [id id ...]" for a queue holding `size` actors from `head`.
template <class P>
void append_queue(std::string& out, const actor_cell<P>* head, std::size_t size, std::size_t max = 8) {
  out += std::to_string(size);
  if (size == 0) return;
  out += " [";
  std::size_t k = 0;
  for (const actor_cell<P>* a = head; a && k < max; a = a->next_runnable, ++k) out += (k ? " " : "") + std::to_string(a->id());
  if (size > k) out += " ...";
  out += "]";
}

}  // namespace twinsched
