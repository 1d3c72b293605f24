// What a scheduling policy provides to the worker loop: the interface all six policies implement.
//
// A policy decides where a runnable actor waits and which actor an idle worker takes next.
// The worker loop (worker.hpp) calls, for policy type Pol over platform P:
//
//   Pol(parking<P>&, const scheduler_config&, std::uint64_t seed)
//   void on_spawn(actor_cell<P>&, int spawner)       -- bind a new actor (distribution: home)
//   void push(int from, actor_cell<P>&, push_reason) -- the actor became runnable; `from` is
//                                                       the pushing worker or -1 (outside);
//                                                       the policy wakes a sleeper if needed
//   actor_cell<P>* pop(unsigned w, worker_stats&)    -- next actor for w, or null
//   bool has_work(unsigned w) const                  -- re-check before parking: true if a
//                                                       pop by w could succeed now
//   std::size_t queued() const                       -- actors still queued (quiescent: 0)
//
// Optional hooks, called only if the policy declares them (donation, sharing, adaptive).
// `W` is the calling worker (worker.hpp): index(), counters(), note(), plat(), sched().
//   void after_message(W&, actor_cell<P>&)           -- after each message, by its owner
//   void on_idle(W&)                                 -- each time the worker found no work
//   bool try_retire(W&)                              -- while idle: true makes the worker
//                                                       leave the run; the policy must first
//                                                       move everything queued for it elsewhere
//   std::uint64_t park_limit_ns(unsigned w)          -- bound on any park (0: none)
//   std::uint32_t turn_burst(unsigned w)             -- message limit of the turn w just
//                                                       popped, instead of `burst` (replay)
//   void add_stats(unsigned w, worker_stats&) const  -- policy-side counters, at collection
//   static unsigned slots(const scheduler_config&)   -- worker slots if more than `workers`
//   static constexpr bool dynamic_workers = true     -- the policy starts and retires workers
//                                                       (scheduler.hpp: start_reserved,
//                                                       retire_worker)
//   void set_tracer(const tracer<P>&)                -- for decisions made inside pop/push
//                                                       (stealing: steal); emit only when
//                                                       tracer.on(trace_level::decisions)
//
// Wake-ups: a push to another worker's queue must wake it with the strict `wake`/`wake_one`
// (parking.hpp), never the hint: the pusher will not run that work itself.
#pragma once
#include <cstdint>

namespace twinsched {

enum class push_reason : std::uint8_t {
  sent,      ///< a message reached an idle actor
  yielded,   ///< the actor used its burst, or its mailbox was mid-push, and still has work
  external,  ///< injected before the run (workload start)
};

}  // namespace twinsched
