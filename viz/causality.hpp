// The causality DAG of a full-level trace: work, span, parallelism and the makespan bound they imply.
//
// Overview
//   A node is one message's handling (message_begin .. message_end), weighted by its
//   duration: in a real run's trace, the time from its begin to its end less what its end
//   says the worker spent off a CPU in it (preempted in a busy loop: traces/format.hpp,
//   message_end), so that the host's other load does not count as the graph's work.
//   Two kinds of edge say what a handling waited for:
//     - causality: the handling that sent message m -> m's handling. The edge's length is
//       how far into the sender's handling the send happened (a message sent at the start of
//       a long handling can be processed while its sender still runs);
//     - order: an actor handles one message at a time, so each of its handlings -> its next
//       one, with the length of the earlier handling.
//   Messages sent from the workload's start have no sender node: they may begin at 0.
//   (The issue spoke of turns as nodes. A turn of several messages can both send to an actor
//   and handle its reply, a cycle; handlings never can, and a turn is just a run of them.)
//
// What it computes
//   work = the sum of all handling durations; span = the longest path (each node's earliest
//   start is the maximum over its in-edges of the source's start plus the edge's length);
//   parallelism = work / span; on N cores no schedule of these handlings beats
//   bound(N) = max(work / N, span). The traced run's makespan over bound(cores) says how far
//   the policy (and the runtime's own cost per turn, which is not work) was from it.
//
// How, in bounded memory
//   Events arrive in time order, and a node's in-edges come from nodes that began earlier,
//   so earliest starts are computed on the fly: a send knows its sender's start, an actor's
//   previous handling has ended. Memory: one number per actor and per message in flight,
//   whatever the trace's length. The explicit DAG (Boost.Graph, dag_shortest_paths over its
//   topological order) is kept only up to max_dag_nodes handlings; it lists the critical
//   path itself and checks the streaming span.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/trace_event.hpp"

namespace twinsched::viz {

/// One handling on the critical path, in path order.
struct path_step {
  std::uint32_t actor = 0;
  std::uint64_t message = 0;
  std::uint64_t begin_ns = 0, ns = 0;  ///< when it ran in the trace, how long
};

struct causality_result {
  bool available = false;
  std::string why;  ///< when not available
  std::uint64_t handlings = 0, work_ns = 0, span_ns = 0;
  std::uint64_t off_cpu_ns = 0;  ///< left out of the handlings: their workers were off a CPU (real traces)
  std::uint64_t from_start = 0;  ///< messages sent by the workload's start (DAG roots)
  std::uint64_t reordered = 0;   ///< handlings stamped before their send whose causal edge was lost (see .cpp)
  std::uint32_t busiest_actor = 0;
  std::uint64_t busiest_actor_ns = 0;  ///< that actor's handlings, a bound on its own (it is sequential)
  bool path_listed = false;            ///< the DAG fit under max_dag_nodes
  std::uint64_t dag_span_ns = 0;       ///< Boost.Graph's longest path; equals span_ns when listed
  std::vector<path_step> path;
  std::uint64_t dag_bytes = 0;  ///< memory the explicit DAG took (about)
  double parallelism() const { return span_ns ? double(work_ns) / double(span_ns) : 0; }
  /// max(work / cores, span): no schedule of this DAG on `cores` cores ends sooner.
  std::uint64_t bound_ns(unsigned cores) const;
};

/// Fed every event of a trace in merged time order (traces::merged_cursor).
class causality_builder {
 public:
  explicit causality_builder(std::size_t max_dag_nodes = 1'000'000);
  ~causality_builder();
  causality_builder(const causality_builder&) = delete;
  causality_builder& operator=(const causality_builder&) = delete;

  void add(const trace_event& e);
  /// full: the trace's level recorded sends and messages.
  causality_result finish(bool full);

 private:
  struct state;
  std::unique_ptr<state> s_;
};

}  // namespace twinsched::viz
