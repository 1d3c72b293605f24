// The public actor API: behaviors, the context they act through, and references to actors.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "message.hpp"

namespace twinsched {

class actor;
class context;

/// A reference to an actor; copyable, comparable, valid for the whole run.
class actor_ref {
 public:
  actor_ref() = default;
  explicit actor_ref(actor* a) : a_(a) {}
  actor* get() const { return a_; }
  explicit operator bool() const { return a_ != nullptr; }
  friend bool operator==(actor_ref, actor_ref) = default;

 private:
  actor* a_ = nullptr;
};

/// What an actor does with a message. Behaviors never block: they compute, send, spawn,
/// become another behavior, or stop. They run on one worker at a time.
class behavior {
 public:
  virtual ~behavior() = default;
  virtual void receive(context& ctx, const message& m) = 0;
};

/// Options for spawning an actor.
struct spawn_options {
  std::string_view name = {};      ///< shown in errors; defaults to "actor#<id>"
  std::uint32_t group = 0;         ///< nonzero: member of a group of equals (donation)
  std::uint32_t state_bytes = 64;  ///< declared state size (the simulator charges migration)
};

/// How to build a behavior where the runtime says (context::spawn_made, from spawn_as): its
/// size and alignment, and a function that constructs it at `at`, or on the heap if `at` is
/// null, from `args`.
struct behavior_maker {
  std::size_t size, align;
  behavior* (*make)(void* at, void* args);
  void* args;
};

/// What spawn_as returns: the new actor, and its behavior (valid for the whole run, until the
/// actor becomes another behavior).
template <class B>
struct spawned {
  actor_ref ref;
  B& behavior;
  operator actor_ref() const { return ref; }
};

/// The door from a behavior to the runtime. On a worker it is that worker; before the run
/// it is the runtime's injector.
class context {
 public:
  virtual actor_ref spawn(std::unique_ptr<behavior> b, const spawn_options& o = {}) = 0;
  /// Spawns an actor whose behavior `m` builds in memory the runtime chooses (a small one
  /// inside the actor: spawn_as calls this).
  virtual actor_ref spawn_made(const behavior_maker& m, const spawn_options& o) = 0;
  virtual void send(actor_ref to, const message& m) = 0;
  /// send(to, m) for a message that carries `bytes` of data besides its words: an array or a
  /// block its sender wrote, in memory the receiver reads through the message (a pointer or
  /// index in `m`), `bytes` being what the receiver will read. Real cores pay for moving them
  /// by themselves; the simulator charges it where the receiving turn runs on another core
  /// than the send (platform.hpp 14b). Elsewhere (no scheduler), a plain send.
  virtual void send_data(actor_ref to, const message& m, std::uint32_t /*bytes*/) { send(to, m); }
  /// Replace the current actor's behavior, effective from the next message.
  virtual void become(std::unique_ptr<behavior> b) = 0;
  /// Stop the current actor; messages still queued or sent later become dead letters.
  virtual void stop() = 0;
  /// Model `ns` nanoseconds of CPU work: burned on real cores, charged in simulation.
  virtual void burn_ns(std::uint64_t ns) = 0;
  /// Declare that work the behavior really did costs `ns` on the modeled machine: free on
  /// real cores (the work already ran), charged in simulation.
  virtual void did_work_ns(std::uint64_t ns) = 0;
  /// The actor whose message is being processed (empty outside a behavior).
  virtual actor_ref self() const = 0;

  /// Time, in nanoseconds since the run's platform was made: the steady clock on real cores,
  /// the calling worker's simulated time in simulation.
  virtual std::uint64_t now_ns() const = 0;
  /// Sends `m` to `to` after `delay_ns` (a timer: models/timer_service.hpp). With
  /// `stamp_arrival`, the runtime overwrites the delivered message's `b` with now_ns() at
  /// the moment it enters the mailbox, so that its receiver can measure what happened to it
  /// since (an open-loop request's latency). Only a workload that declares
  /// `workload::uses_timers` may set timers (its runs start the timer service); elsewhere this
  /// throws std::logic_error. Timer messages are not ordered with the sender's other sends.
  virtual void send_after(actor_ref /*to*/, const message& /*m*/, std::uint64_t /*delay_ns*/,
                          bool /*stamp_arrival*/ = false) {
    throw std::logic_error("send_after outside a run");
  }
  /// Records one request's latency (`ns`: arrival to completion, measured by the behavior)
  /// into the run's latency histogram (p50, p99, p99.9, max in the summary). No allocation.
  virtual void record_latency(std::uint64_t /*ns*/) {}
  /// The run's worker count (at the start, for a policy that grows: adaptive), so a workload
  /// can size its load to the machine.
  virtual unsigned worker_count() const { return 1; }

  /// Shared words: a table of `workload::shared_words()` 64-bit words, all 0 when the
  /// workload's `start` runs, that every behavior of the run (and `start`, through the
  /// injector) may read and compare-and-swap, for a benchmark whose reference shares memory
  /// between its actors (Savina's A* claims grid nodes by compare-and-swap mid-search).
  /// Messages stay the way to pass anything else.
  ///   Protocol: each operation is atomic and sequentially consistent (std::atomic's seq_cst,
  ///   Java's volatile read and compareAndSet): a load that sees a value a CAS wrote happens
  ///   after that CAS. Word i is index i of the table; an index at or past its size throws
  ///   std::out_of_range, which fails the actor like any exception in a behavior.
  ///   Cost: each word is the platform's atomic (P::atomic<std::uint64_t>), so the machine
  ///   pays what it pays for any atomic: on real cores a load is a plain load and a CAS a
  ///   locked cmpxchg, eight words to a 64-byte line (neighbors share lines); in simulation
  ///   a load costs the machine's atomic_load and a CAS its atomic_rmw, failed or not, each
  ///   plus a line transfer when another core wrote the word last, every word modeled as a
  ///   line of its own (no false sharing), and each is a scheduling point.
  ///   A context that runs no scheduler (a test's sequential harness) need not offer them:
  ///   these defaults throw std::logic_error.
  virtual std::uint64_t shared_load(std::uint64_t /*i*/) { throw std::logic_error("shared words outside a run"); }
  /// If word `i` holds `expected`, stores `desired` there and returns true; otherwise stores
  /// the word's value into `expected` and returns false (std::atomic's compare_exchange_strong:
  /// it never fails spuriously).
  virtual bool shared_cas(std::uint64_t /*i*/, std::uint64_t& /*expected*/, std::uint64_t /*desired*/) {
    throw std::logic_error("shared words outside a run");
  }

  /// Spawns an actor with a new B(args...) as its behavior. Prefer it to spawn(make_unique):
  /// a behavior of up to 32 bytes lives in the actor's first cache line, beside its mailbox
  /// (actor.hpp), so a message to an actor that last ran on another core moves one line.
  template <class B, class... Args>
  spawned<B> spawn_as(const spawn_options& o, Args&&... args) {
    static_assert(std::is_base_of_v<behavior, B>);
    struct call {
      std::tuple<Args&&...> args;
      B* made = nullptr;
    } pending{std::forward_as_tuple(std::forward<Args>(args)...)};
    behavior_maker m{sizeof(B), alignof(B), [](void* at, void* p) -> behavior* {
                       auto& c = *static_cast<call*>(p);
                       c.made = std::apply(
                           [at](auto&&... a) {
                             return at ? new (at) B(std::forward<decltype(a)>(a)...) : new B(std::forward<decltype(a)>(a)...);
                           },
                           std::move(c.args));
                       return c.made;
                     },
                     &pending};
    actor_ref r = spawn_made(m, o);
    return {r, *pending.made};
  }

 protected:
  ~context() = default;
};

}  // namespace twinsched
