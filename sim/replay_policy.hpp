// Replay: a policy that wraps the recorded run's policy and makes each worker run the actors its recorded turns ran.
//
// Overview
//   A trace lists, per worker, the turns it ran (run_begin events, in order). `replay` runs
//   the trace's scenario in the simulator with the recorded policy wrapped in this one. Each
//   worker has a script: the actor ids of its recorded turns, read lazily from the trace
//   (replay_script.hpp: one decoded block per worker in memory). Three modes, in this order,
//   never back:
//     match   the inner policy decides; each pop is compared with the script. While they
//             agree (always, for a simulated trace replayed on its own machine model) the
//             wrapper adds no platform operation, so timing and every event are as recorded.
//     forced  from the first disagreement on: a worker takes its next scripted actor. Every
//             other actor the inner policy hands it goes to `held`, a pool keyed by actor id,
//             where the worker whose script names it will find it. A worker whose scripted
//             actor is not runnable yet waits (returns no work; its idle strategy runs).
//     free    once every worker's script has ended, nothing more is forced: every worker
//             takes from `held` (lowest id first), then from the inner policy, under the
//             scenario's seed. (A worker whose own script ends first waits for the others:
//             the recording had it run nothing more either.)
//   What is forced is which worker runs which actor in which order, and how many messages
//   each turn processes (run_end records it; worker.hpp's turn_burst hook applies it). Steals,
//   donations and (but in exact mode: replay_scale_forcing.hpp) migrations are the inner
//   policy's own work under that order (its pops and hooks still run), so a replay's steals
//   are those the forced order leads to.
//
// The class is declared in replay_policy_decl.hpp; the forcing of each kind of decision
// lives in its own part, which defines its members (each part includes the declaration,
// and this header includes them all):
//   replay_turn_order.hpp      forced mode of a decisions-level (or simulated) trace: which
//                              actor each worker runs, started in the recorded order of
//                              run_begin times across workers; stalls skip a turn
//   replay_message_forcing.hpp message-exact mode (a full-level trace of a real run): each
//                              turn takes exactly its recorded messages, each actor's turns
//                              keep their recorded order (replay_receive_order.hpp), waiting
//                              workers poll, stalls give way
//   replay_scale_forcing.hpp   message-exact mode of a policy that scales (adaptive): thread
//                              starts, retirements and migrations where the recording made
//                              them, instead of the policy deciding by its own measure
//
// Concurrency: none of this state is shared through platform atomics. It relies on the
//   simulator's guarantee (sim_platform.hpp, invariants) that exactly one S4U actor runs at
//   a time and switches only inside simcalls, so plain fields are consistent between two
//   platform operations; after each one (an inner pop, a wake-up) everything is re-read. It is a simulator-only
//   instrument, like FoundationDB's simulation-only code; it is never compiled for threads.
#pragma once
#include "replay_policy_decl.hpp"
#include "replay_message_forcing.hpp"
#include "replay_scale_forcing.hpp"
#include "replay_turn_order.hpp"
