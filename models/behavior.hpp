// The public actor API: behaviors, the context they act through, and references to actors.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

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

/// The door from a behavior to the runtime. On a worker it is that worker; before the run
/// it is the runtime's injector.
class context {
 public:
  virtual actor_ref spawn(std::unique_ptr<behavior> b, const spawn_options& o = {}) = 0;
  virtual void send(actor_ref to, const message& m) = 0;
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

  template <class B, class... Args>
  actor_ref spawn_as(const spawn_options& o, Args&&... args) {
    return spawn(std::make_unique<B>(std::forward<Args>(args)...), o);
  }

 protected:
  ~context() = default;
};

}  // namespace twinsched
