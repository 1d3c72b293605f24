// Calibration of the runtime's own data structures: the deque, the locked FIFO, the envelope pool
// and the mailbox, timed on a real thread, minus what the simulator already charges for the same
// code's atomics and locks (the same templates over sim_platform, in a child process).
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/envelope_pool.hpp"
#include "models/mailbox.hpp"
#include "models/policy/chase_lev_deque.hpp"
#include "models/policy/locked_fifo.hpp"
#include "runtime/thread_platform.hpp"
#include "sim/sim_platform.hpp"
#include "twin/batch_stats.hpp"
#include "twin/calibration_steps.hpp"

namespace twinsched::calib {
namespace {

// The runtime's data structures, over either platform.
// Each returns the total time of its timed loop, read with `now` (the steady clock, or the
// simulated worker's clock), divided by the operations it timed.

template <class P, class Now>
double deque_op_ns(Now now, int n) {
  chase_lev_deque<P, int*> d(1024);
  static int item;
  double t0 = now();
  for (int i = 0; i < n; ++i) {
    d.push(&item);
    if (d.pop() == nullptr) std::abort();
  }
  return (now() - t0) / (2.0 * n);
}

/// A lock-guarded FIFO (locked_fifo: shared-queue's queue, stealing's injector) pushed and
/// popped in pairs, one actor cell going round.
template <class P, class Now>
double locked_op_ns(Now now, int n) {
  struct idle_behavior final : behavior {
    void receive(context&, const message&) override {}
  };
  locked_fifo<P> q;
  actor_cell<P> cell(1, std::make_unique<idle_behavior>(), spawn_options{});
  double t0 = now();
  for (int i = 0; i < n; ++i) {
    q.push(cell);
    if (q.pop() != &cell) std::abort();
  }
  return (now() - t0) / (2.0 * n);
}

template <class P, class Now>
double envelope_pair_ns(Now now, int rounds) {
  envelope_depot<P> depot;
  envelope_pool<P> pool(depot);
  std::vector<envelope<P>*> held(512);
  for (auto*& e : held) e = pool.get();  // first use: slabs allocated outside the timing
  for (auto* e : held) pool.put(e);
  double t0 = now();
  for (int r = 0; r < rounds; ++r) {
    for (auto*& e : held) e = pool.get();
    for (auto* e : held) pool.put(e);
  }
  return (now() - t0) / (double(rounds) * double(held.size()));
}

struct push_pop {
  double push = 0, pop = 0;
};

template <class P, class Now>
push_pop mailbox_ns(Now now, int n) {
  std::vector<std::unique_ptr<envelope<P>>> store;
  std::vector<envelope<P>*> es;
  for (int i = 0; i < n; ++i) {
    store.push_back(std::make_unique<envelope<P>>());
    es.push_back(store.back().get());
  }
  mailbox<P> box;
  double t0 = now();
  for (auto* e : es) box.push(e);
  double t1 = now();
  int popped = 0;
  for (;;) {
    envelope<P>*e = nullptr, *spent = nullptr;
    if (box.pop(e, spent) != mailbox<P>::pop_status::item) break;
    ++popped;
  }
  double t2 = now();
  envelope<P>* spent = nullptr;
  box.try_idle(spent);
  if (popped != n) std::abort();
  return {(t1 - t0) / n, (t2 - t1) / n};
}

/// Runs `body(plat)` on one simulated worker of machine `m` in a forked child (SimGrid's
/// engine exists once per process) and returns the doubles it returned.
template <std::size_t N, class F>
std::array<double, N> in_simulation(const machine_model& m, F body) {
  int fd[2];
  if (::pipe(fd) != 0) throw std::runtime_error(std::string("calibrate: pipe: ") + std::strerror(errno));
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("calibrate: fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::close(fd[0]);
    std::array<double, N> out{};
    try {
      sim_config c;
      c.cores = 1;
      sim_platform plat(m, c);
      plat.run([&] {
        plat.start_worker(0, [&] { out = body(plat); });
        plat.join_workers();
      });
    } catch (...) {
      ::_exit(3);
    }
    ssize_t w = ::write(fd[1], out.data(), sizeof out);
    ::_exit(w == ssize_t(sizeof out) ? 0 : 4);
  }
  ::close(fd[1]);
  std::array<double, N> out{};
  std::size_t got = 0;
  while (got < sizeof out) {
    ssize_t r = ::read(fd[0], reinterpret_cast<char*>(out.data()) + got, sizeof out - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += std::size_t(r);
  }
  ::close(fd[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (got != sizeof out || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("calibrate: a simulated microbenchmark failed");
  return out;
}

/// Real costs of the structures: per deque op, locked FIFO op, envelope get+put, mailbox push and pop.
struct structure_times {
  double deque = 0, locked = 0, envelope = 0;
  push_pop mailbox;
};

structure_times real_times(const calibration_run& run) {
  const int reps = run.reps;
  const int ops = int(50'000 / run.scale);
  const int rounds = int(50 / run.scale);
  const int box = 4096 / int(run.scale);
  auto real_now = [] { return std::chrono::duration<double, std::nano>(clk::now().time_since_epoch()).count(); };
  structure_times t;
  t.deque = cost_of(reps, [&] { return deque_op_ns<thread_platform>(real_now, ops); });
  // batches of ~0.5 ms, as the deque's: the shorter a batch, the likelier one runs undisturbed
  t.locked = cost_of(reps, [&] { return locked_op_ns<thread_platform>(real_now, ops / 2); });
  t.envelope = cost_of(reps, [&] { return envelope_pair_ns<thread_platform>(real_now, rounds); });
  std::vector<double> pu, po;
  for (int i = 0; i < reps; ++i) {
    push_pop r = mailbox_ns<thread_platform>(real_now, box);
    pu.push_back(r.push);
    po.push_back(r.pop);
  }
  t.mailbox = {lower_quartile(pu), lower_quartile(po)};  // the lower quartile, as cost_of
  return t;
}

/// What machine `m` charges for the same structures without the terms being measured.
structure_times simulated_times(const machine_model& m) {
  machine_model zero = m;
  zero.queue_op = zero.locked_queue_op = zero.envelope = zero.mailbox_push = zero.mailbox_pop = zero.message = zero.turn = 0;
  zero.quantum_ns = 1e9;
  auto sim = in_simulation<5>(zero, [&](sim_platform& plat) {
    auto now = [&plat] { return double(plat.now_ns()); };
    const int small = 20'000;  // the simulated charge is exact: short loops suffice
    push_pop mb = mailbox_ns<sim_platform>(now, small);
    return std::array<double, 5>{deque_op_ns<sim_platform>(now, small), envelope_pair_ns<sim_platform>(now, 20), mb.push,
                                 mb.pop, locked_op_ns<sim_platform>(now, small)};
  });
  return {sim[0], sim[4], sim[1], {sim[2], sim[3]}};
}

}  // namespace

void measure_structures(calibration_run& run) {
  machine_model& m = run.model();
  run.say("calibrate: the runtime's data structures (real, and the simulator's charge for their atomics)");
  const structure_times real = real_times(run), sim = simulated_times(m);
  m.queue_op = std::max(0.0, real.deque - sim.deque);
  m.locked_queue_op = std::max(0.0, real.locked - sim.locked);
  m.envelope = std::max(0.0, real.envelope - sim.envelope);
  m.mailbox_push = std::max(0.0, real.mailbox.push - sim.mailbox.push);
  m.mailbox_pop = std::max(0.0, real.mailbox.pop - sim.mailbox.pop);
  run.note(fmt("deque op %.1f ns real, %.1f ns of atomics modeled: queue_op %.1f ns", real.deque, sim.deque, m.queue_op));
  run.note(fmt("locked FIFO op %.1f ns real, %.1f ns of atomics and lock modeled: locked_queue_op %.1f ns", real.locked,
               sim.locked, m.locked_queue_op));
  run.note(fmt("envelope get+put %.1f ns real, %.1f modeled: envelope %.1f ns", real.envelope, sim.envelope, m.envelope));
  run.note(fmt("mailbox push %.1f ns real, %.1f modeled; pop %.1f real, %.1f modeled", real.mailbox.push, sim.mailbox.push,
               real.mailbox.pop, sim.mailbox.pop) +
           fmt(": mailbox_push %.1f, mailbox_pop %.1f ns", m.mailbox_push, m.mailbox_pop));
}

}  // namespace twinsched::calib
