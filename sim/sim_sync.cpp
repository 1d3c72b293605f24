// The sync primitives' out-of-line parts: a mutex waiting on a holder that yielded, a parker blocking and waking in simulated time.
#include "sim_sync.hpp"

#include <algorithm>
#include <mutex>

#include <simgrid/s4u.hpp>

#include "machine_model.hpp"

namespace sg = simgrid::s4u;

namespace twinsched::sim_detail {

struct mutex::s4u_parts {
  sg::MutexPtr m = sg::Mutex::create();
  sg::ConditionVariablePtr cv = sg::ConditionVariable::create();
};
mutex::~mutex() { delete s4u_; }

void mutex::block() {
  // The holder yielded inside its critical section. Pay what we owe, then wait in simulated time.
  actor_state* me = g.cur;
  if (!s4u_) {
    made_runnable();  // making them is a simcall, which leaves this actor runnable at once (cost_model.cpp)
    s4u_ = new s4u_parts;
    g.cur = me;  // others may have run meanwhile (ConditionVariable::create is a simcall)
  }
  if (me->core >= 0) flush();
  while (held_) {
    ++g.blocks;
    mix(0x6c6f636bull ^ std::uint64_t(me->worker + 1));
    ++waiters_;
    {
      made_runnable();  // the lock's simcalls leave this actor runnable at once (cost_model.cpp)
      std::unique_lock<sg::Mutex> lk(*s4u_->m);
      if (held_) s4u_->cv->wait(lk);  // no switch between this check and the wait simcall
      made_runnable();
    }
    --waiters_;
    resume(me);
    if (g.aborting) halt();
  }
}

void mutex::wake() {
  actor_state* me = g.cur;
  if (me->core >= 0) flush();  // the release happens at our local time
  if (waiters_ && s4u_) {
    made_runnable();  // before the simcall: the woken actor may run before this one returns
    s4u_->cv->notify_one();
  }
  resume(me);
}

namespace {

/// From being woken, or from a timed park's deadline, to running again: the machine's
/// wake_latency, or a draw from its spread (timer_late's for a timeout where it has one), from a
/// splitmix64 sequence per actor (deterministic, like everything here).
double wake_ns(actor_state* me, bool timed_out) {
  const std::vector<double>& q = timed_out && !g.timer_late_quantiles.empty() ? g.timer_late_quantiles : g.wake_quantiles;
  if (q.empty()) return g.wake;
  me->wake_draws = splitmix64(me->wake_draws);
  return quantile_draw(q, double(me->wake_draws >> 11) * 0x1.0p-53);
}

}  // namespace

struct parker::s4u_parts {
  sg::MutexPtr m = sg::Mutex::create();
  sg::ConditionVariablePtr cv = sg::ConditionVariable::create();
};
parker::~parker() { delete s4u_; }

void parker::block(double ns) {
  actor_state* me = g.cur;
  if (me->core >= 0) {
    me->idle = true;  // not_before (cost_model.hpp)
    me->pending_ns += g.park;
    flush();  // an unpark may land while we pay
  }
  if (token_) {
    token_ = false;
    return;
  }
  if (!s4u_) {
    made_runnable();  // making them is a simcall, which leaves this actor runnable at once (cost_model.cpp)
    s4u_ = new s4u_parts;
    g.cur = me;  // others may have run meanwhile (ConditionVariable::create is a simcall)
  }
  ++g.blocks;
  me->parked = true;
  bool blocked = false, timed_out = false;
  const double blocked_from = sg::Engine::get_clock();
  bool service_untimed = false;
  {
    made_runnable();  // the lock's simcalls leave this actor runnable at once (cost_model.cpp)
    std::unique_lock<sg::Mutex> lk(*s4u_->m);
    g.cur = me;  // the all-parked check below reports where this worker stands
    double deadline = sg::Engine::get_clock() + ns * 1e-9;
    waiting_ = true;  // set after the lock simcall: nothing runs between here and the wait
    if (ns < 0 && !token_) {  // the all-parked check (cost_model.hpp)
      if (me->worker >= 0) {
        me->untimed = true;
        sleeper_ = me;
      } else if (me->service) {
        service_untimed = true;  // no timer pending: it cannot wake anyone by itself
        --g.services_awake;
      } else {
        g.driver_waiting = true;  // the driver waits for the end of the run (scheduler.hpp)
      }
      check_all_parked();
    }
    while (!token_ && !g.aborting) {
      blocked = true;
      if (ns < 0) {
        s4u_->cv->wait(lk);
      } else {
        waits_until(me, deadline);
        const bool timeout = s4u_->cv->wait_until(lk, deadline) == std::cv_status::timeout;
        set_wake(me->wake_id, state::no_wake);
        if (timeout) {
          timed_out = !token_;
          break;
        }
      }
    }
    waiting_ = false;
    made_runnable();
  }
  me->untimed = false;
  if (service_untimed) ++g.services_awake;
  sleeper_ = nullptr;
  me->parked = false;
  token_ = false;
  if (blocked && !g.aborting) {
    const double wake = wake_ns(me, timed_out);
    if (wake > 0) sleep_ns(me, wake);  // the OS wakes us up
  }
  resume(me);
  const double blocked_ns = (sg::Engine::get_clock() - blocked_from) * 1e9;
  // the thread's own CPU in a block (machine_model::block_cpu) is CPU time, not parked
  me->blocked_ns += blocked ? std::max(0.0, blocked_ns - g.block_cpu) : blocked_ns;
  mix(0x7061726bull ^ (std::uint64_t(me->worker + 1) << 8) ^ std::uint64_t(blocked));
  if (g.aborting) halt();
}

void parker::notify() {
  actor_state* me = g.cur;
  if (me->core >= 0) {
    me->pending_ns += g.unpark;  // the futex wake syscall, paid by the waker
    flush();
  }
  // The sleeper may have timed out while we paid; notifying nobody is harmless. A sleeper
  // without a timeout counts as awake from now on (the all-parked check).
  if (sleeper_) sleeper_->untimed = false;
  if (waiting_ && s4u_) {
    made_runnable();  // before the simcall: the woken actor may run before this one returns
    s4u_->cv->notify_one();
  }
  resume(me);
}

}  // namespace twinsched::sim_detail
