// Calibration: every term of a machine model, measured on this machine (what `twinsched calibrate` runs).
//
// Each figure is the lower quartile of `reps` short batches (61; --quick: 21, each half as
// long), robust to the preemptions a shared machine inflicts on most of them (cost_of below):
//   clock_ghz: cycles of a dependent add chain per ns (not the TSC rate)
//   atomic_load / atomic_store / atomic_rmw / fence: a tight loop of the operation on a line
//       this thread owns (rmw = fetch_add, fence = seq_cst fence), ns per operation
//   line_transfer_same_socket: two threads pinned to CPU 0 and another core's CPU (CPU 1,
//       unless it is CPU 0's SMT sibling: partner_cpu): CPU 0 writes a chain of 2048
//       lines in random order, the partner follows it (dependent loads: no two misses overlap) and
//       then follows it again from its own cache; (first walk - second) / 2048. Not the one way
//       of a ping-pong of one line (round trip / 2), which adds two spinning threads' loop
//       exits and an invalidation to each trip, several times the chain's figure on a VM
//   migration_per_kib: a ping-pong of one line (each waits for the other's increment), and the
//       same where the receiver then reads and writes a 16 KiB buffer the sender just wrote;
//       (the difference of their one-way times) / 16 per one-way trip
//   quantum_ns: the ping-pong's one-way time, the fastest hand-off between two cores: a worker
//       runs ahead of the others by about what one needs to reach it (cost_model.hpp draws
//       each yield point between half and one and a half quanta)
//   lock_handoff: two pinned threads alternate on a turn flag, taking a std::mutex each turn
//       in odd batches and not in even ones; the median over neighbouring batches of the
//       difference per hand-off, minus the lock word's line transfer and rmw (the model
//       charges those apart)
//   park / unpark / wake_latency: a futex-backed std::condition_variable; park = one futex
//       wait syscall that returns at once, unpark = notify_one with a sleeper, wake latency =
//       notify to the sleeper running (steady_clock stamps on both sides)
//   contended_unlock: one futex wake syscall with nobody waiting (what glibc's unlock of a
//       std::mutex another thread contended makes; the contender's futex wait is `park`)
//   spin: one _mm_pause; yield: one sched_yield with nothing else to run on this core
//   burn_call: thread_platform::burn_ns(2000) called 16 times: elapsed / 16 - 2000 (what a
//       call costs beyond what it was asked; the loop's deadline check and call)
//   queue_op: a Chase-Lev deque (models/policy/chase_lev_deque.hpp, over the real platform)
//       pushed and popped in pairs: time per operation minus what the simulator charges for
//       the same code's atomics and fences (the same loop over sim_platform with queue_op = 0)
//   locked_queue_op: the same for a lock-guarded FIFO (models/policy/locked_fifo.hpp): what it
//       costs beyond the simulator's charge for its lock and atomics (the unlock's exchange,
//       the calls into the C library)
//   envelope: an envelope pool (models/envelope_pool.hpp) with its depot: 512 gets then 512
//       puts, per get+put pair, minus the simulated charge of the same (the depot's lock)
//   mailbox_push / mailbox_pop: a mailbox (models/mailbox.hpp) receives n envelopes, then
//       its owner pops them all; per push and per pop, minus the simulated charge of the same
//   private_cache_kib, cold_actor: the L2 size sysfs (else CPUID) reports; the ring again, with 2^17 actors
//       and 2^12 tokens on a FIFO queue (every touch of an actor finds it evicted), against its
//       simulation with everything else measured: the time missed per touch the model finds cold
//   shared_cache_kib, memory_load: a random walk over lines (each load's address in the line
//       before), 2x the private cache up to 128 MiB: the largest set below a quarter of the
//       way from the first latency to the last is the shared level (each set's latency the
//       least of three passes; --shared-cache-kib overrides); the last latency, a load from
//       memory that nothing overlaps, is memory_load
//   kernels: each registered workload kernel (pi's Leibniz term) timed on one thread, ns a unit
//       (the mean of millisecond batches, the slowest tenth left out: kernels run long, at the
//       machine's typical rate, timer ticks included)
//   message / turn: the fixed cost of the worker loop, measured end to end. A ring workload
//       of its own (calibration-ring: tokens hop from actor i to actor 5i+1 mod A, which visits
//       every actor of a power-of-two ring in a scattered order) runs on ONE real worker
//       (stealing, burst 16) in two shapes: many actors and one token (one message a
//       turn) and few actors and many tokens (up to 16 messages a turn), timed in CPU time
//       (getrusage: the worker's time, not the other processes'); the cheapest of several
//       runs counts. Each is simulated on
//       one core with every term measured above and message = turn = 0; the real time the
//       simulation misses, over both shapes, is solved for per-message and per-turn costs
//       (two equations, two unknowns; clamped at 0). No stock scenario is run.
// The microbenchmarks run hot (a tight loop, warm caches); message and turn absorb what a
// real run adds on top (cache misses on actors and envelopes, branch misses, the behavior's
// virtual call), at the ring's working set.
#include "calibrate.hpp"

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/futex.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

#include "models/envelope_pool.hpp"
#include "models/mailbox.hpp"
#include "models/policy/chase_lev_deque.hpp"
#include "models/policy/locked_fifo.hpp"
#include "models/rng.hpp"
#include "models/workload/workload.hpp"
#include "run_sim.hpp"
#include "runtime/run_threads.hpp"
#include "runtime/thread_platform.hpp"
#include "sim_platform.hpp"
#include "traces/output_file.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace twinsched {
namespace {
using clk = std::chrono::steady_clock;
double ns_since(clk::time_point t0) { return std::chrono::duration<double, std::nano>(clk::now() - t0).count(); }

/// The q-quantile of `reps` results of f (0.5: the median).
template <class F>
double quantile(int reps, double q, F f) {
  std::vector<double> v;
  for (int i = 0; i < reps; ++i) v.push_back(f());
  std::sort(v.begin(), v.end());
  return v[std::size_t(q * double(v.size() - 1) + 0.5)];
}

/// A cost: the lower quartile of many short batches. Noise on a shared machine (another
/// process, the hypervisor, a preemption of either thread of a pair) only ever adds time, and
/// on a busy 2-CPU box it hits most batches: the median drifts with the load, the minimum is
/// luck; the lower quartile is what a batch costs when little disturbs it.
template <class F>
double cost_of(int reps, F f) {
  return quantile(reps, 0.25, f);
}

void pin(int cpu) {
  cpu_set_t s;
  CPU_ZERO(&s);
  CPU_SET(cpu % int(std::max(1u, std::thread::hardware_concurrency())), &s);
  pthread_setaffinity_np(pthread_self(), sizeof s, &s);
}

/// The CPU the two-thread measurements pair with CPU 0: the first that is not CPU 0's SMT
/// sibling (sysfs thread_siblings_list, "0,8" or "0-1"), since two hardware threads of one
/// core share its L1 and L2 and a line between them never crosses cores; CPU 1 where sysfs
/// says nothing or every CPU is a sibling.
int partner_cpu() {
  static const int partner = [] {
    const int cpus = int(std::max(1u, std::thread::hardware_concurrency()));
    std::vector<bool> sibling(std::size_t(cpus) + 1, false);
    std::ifstream in("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list");
    std::string list;
    std::getline(in, list);
    for (std::size_t at = 0; at < list.size();) {
      std::size_t end = list.find(',', at);
      if (end == std::string::npos) end = list.size();
      int lo = 0, hi = 0;
      const std::string item = list.substr(at, end - at);
      if (std::sscanf(item.c_str(), "%d-%d", &lo, &hi) == 1) hi = lo;
      for (int c = std::max(0, lo); c <= std::min(hi, cpus - 1); ++c) sibling[std::size_t(c)] = true;
      at = end + 1;
    }
    for (int c = 1; c < cpus; ++c)
      if (!sibling[std::size_t(c)]) return c;
    return 1;
  }();
  return partner;
}

/// Lets the calling thread run on every CPU again (after pin()).
void unpin() {
  cpu_set_t s;
  CPU_ZERO(&s);
  for (unsigned c = 0; c < std::max(1u, std::thread::hardware_concurrency()); ++c) CPU_SET(c, &s);
  pthread_setaffinity_np(pthread_self(), sizeof s, &s);
}

struct alignas(64) line {
  std::atomic<std::uint64_t> v{0};
};

template <class F>
double per_op(std::uint64_t n, F body) {
  auto t0 = clk::now();
  body(n);
  return ns_since(t0) / double(n);
}

/// The q-quantile of v (0 for none), and its median.
double quantile_of(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::size_t(q * double(v.size() - 1) + 0.5)];
}
double median_of(const std::vector<double>& v) { return quantile_of(v, 0.5); }

/// The lower quartile of v (see cost_of).
double lower_quartile(const std::vector<double>& v) { return quantile_of(v, 0.25); }

/// Two threads pinned to CPU 0 and partner_cpu() play `batches` x `rounds` rounds: `a_round(i)`
/// on CPU 0, `b_round(i)` on the partner (each waits for the other's move). One thread pair for all batches,
/// and batches short (tens of us), so that most run while both threads do: a batch in which
/// either is preempted is stretched by a whole time slice, and the lower quartile of the
/// per-batch times skips those. Returns each batch's time per round, ns.
template <class A, class B>
std::vector<double> pinned_pair(int batches, int rounds, A a_round, B b_round) {
  const int n = batches * rounds;
  std::thread b([&] {
    pin(partner_cpu());
    for (int i = 0; i < n; ++i) b_round(i);
  });
  pin(0);
  std::vector<double> per_round;
  for (int k = 0; k < batches; ++k) {
    auto t0 = clk::now();
    for (int i = k * rounds; i < (k + 1) * rounds; ++i) a_round(i);
    per_round.push_back(ns_since(t0) / rounds);
  }
  b.join();
  unpin();
  per_round.erase(per_round.begin());  // the first batch waits for b to start
  return per_round;
}

/// One-way line transfer: ping-pong of a counter between CPU 0 and partner_cpu(); `extra_b` runs on the
/// receiving side after each arrival. Per batch: round trip / 2.
template <class F>
std::vector<double> bounce(int batches, int rounds, F extra_b) {
  line l;
  auto v = pinned_pair(
      batches, rounds,
      [&](int i) {
        l.v.store(std::uint64_t(2 * i + 1), std::memory_order_release);
        while (l.v.load(std::memory_order_acquire) != std::uint64_t(2 * i + 2)) {
        }
      },
      [&](int i) {
        while (l.v.load(std::memory_order_acquire) != std::uint64_t(2 * i + 1)) {
        }
        extra_b();
        l.v.store(std::uint64_t(2 * i + 2), std::memory_order_release);
      });
  for (auto& x : v) x /= 2;
  return v;
}

/// A cache line holding the next one's address.
struct alignas(64) chain_link {
  const chain_link* next;
};

/// 0..n-1 with 0 first and the rest in a fixed random order the prefetchers cannot follow.
std::vector<std::size_t> random_cycle(std::size_t n) {
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::shuffle(order.begin() + 1, order.end(), std::mt19937(1));
  return order;
}

/// Links `chain` into one cycle visiting its lines in `order` (writes every line).
void link_cycle(std::vector<chain_link>& chain, const std::vector<std::size_t>& order) {
  for (std::size_t i = 0; i < order.size(); ++i) chain[order[i]].next = &chain[order[(i + 1) % order.size()]];
}

/// One line transfer as the model charges it: CPU 0 writes a chain of `lines` lines in a
/// random order, then the partner CPU follows it (each load needs the line the previous one named, so
/// the misses cannot overlap), then follows it again from its own cache. Per batch: (the
/// first walk - the second) / lines, the time a load waits for a line the other core holds.
/// Not the ping-pong's one way (`bounce`): two spinning threads add the spin loop's exit and an
/// invalidation to every trip, which the model charges as spin or not at all.
std::vector<double> chase(int batches, int lines) {
  std::vector<chain_link> chain(static_cast<std::size_t>(lines));
  const std::vector<std::size_t> order = random_cycle(chain.size());
  line turn;
  std::vector<double> per_line;
  pinned_pair(
      batches, 1,
      [&](int i) {
        link_cycle(chain, order);
        turn.v.store(std::uint64_t(2 * i + 1), std::memory_order_release);
        while (turn.v.load(std::memory_order_acquire) != std::uint64_t(2 * i + 2)) {
        }
      },
      [&](int i) {
        while (turn.v.load(std::memory_order_acquire) != std::uint64_t(2 * i + 1)) {
        }
        auto walk = [&] {
          auto t0 = clk::now();
          const chain_link* p = &chain[0];
          for (int j = 0; j < lines; ++j) p = p->next;
          asm volatile("" : : "r"(p));
          return ns_since(t0);
        };
        const double remote = walk(), local = walk();
        if (i > 0) per_line.push_back((remote - local) / lines);  // the first waits for the other thread to start
        turn.v.store(std::uint64_t(2 * i + 2), std::memory_order_release);
      });
  return per_line;
}

// ---- the runtime's data structures, over either platform ----
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

// ---- what the simulator charges for the same code ----

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

// ---- the calibration workload: a ring of its own ----

class ring_actor final : public behavior {
 public:
  ring_actor(const std::vector<actor_ref>& all, std::uint32_t index) : all_(all), index_(index) {}
  void receive(context& ctx, const message& m) override {
    acc_ += splitmix64(m.a ^ (m.b << 32) ^ index_);
    if (m.b == 0) return;
    ctx.send(all_[next(index_, all_.size())], message{m.a, m.b - 1});
  }
  static std::uint32_t next(std::uint32_t i, std::size_t n) { return std::uint32_t((5 * std::uint64_t(i) + 1) % n); }
  std::uint64_t acc() const { return acc_; }

 private:
  const std::vector<actor_ref>& all_;
  std::uint32_t index_;
  std::uint64_t acc_ = 0;
};

class ring_workload final : public workload {
 public:
  ring_workload(const workload_params& p, std::uint64_t)
      : actors_(std::uint32_t(p.integer("actors"))), tokens_(std::uint64_t(p.integer("tokens"))),
        hops_(std::uint64_t(p.integer("hops"))) {}
  void start(context& ctx) override {
    for (std::uint32_t i = 0; i < actors_; ++i) {
      auto made = ctx.spawn_as<ring_actor>({}, refs_, i);
      behaviors_.push_back(&made.behavior);
      refs_.push_back(made);
    }
    for (std::uint64_t t = 0; t < tokens_; ++t) ctx.send(refs_[first(t)], message{t, hops_});
  }
  std::uint64_t checksum() const override {
    std::uint64_t s = 0;
    for (auto* b : behaviors_) s += b->acc();
    return s;
  }
  std::uint64_t reference_checksum() const override {
    std::uint64_t s = 0;
    for (std::uint64_t t = 0; t < tokens_; ++t) {
      std::uint32_t at = first(t);
      for (std::uint64_t h = hops_;; --h) {
        s += splitmix64(t ^ (h << 32) ^ at);
        if (h == 0) break;
        at = ring_actor::next(at, actors_);
      }
    }
    return s;
  }
  std::uint64_t expected_messages() const override { return tokens_ * (hops_ + 1); }

 private:
  std::uint32_t first(std::uint64_t t) const { return std::uint32_t(t * actors_ / tokens_) % actors_; }
  std::uint32_t actors_;
  std::uint64_t tokens_, hops_;
  std::vector<actor_ref> refs_;
  std::vector<ring_actor*> behaviors_;
};

constexpr const char* ring_name = "calibration-ring";

void register_ring() {
  if (find_workload(ring_name)) return;
  register_workload({ring_name,
                     "twinsched calibrate's own workload: tokens hop around a ring (actor i to 5i+1 mod actors)",
                     {{"actors", std::int64_t(256), "actors in the ring (a power of two)"},
                      {"tokens", std::int64_t(16), "tokens travelling at once"},
                      {"hops", std::int64_t(1000), "hops per token"}},
                     [](const workload_params& p, std::uint64_t seed) { return std::make_unique<ring_workload>(p, seed); }});
}

/// Actors of the cold ring: 2^17 of ~250 bytes each (32 MiB) overflow any private cache. Its
/// 2^12 tokens' actors and envelopes (~1.3 MiB) overflow a 1 MiB one while they wait in the
/// run queue, and stay in a shared level of 2 MiB or more. With 2^14 (4-5 MiB) a calibration
/// that found a 4 MiB level had the model read the ring's envelopes from memory (memory_load
/// each), and solved cold_actor to 0 where another, finding 8 MiB, did not.
constexpr std::int64_t cold_ring_actors = std::int64_t(1) << 17, cold_ring_tokens = std::int64_t(1) << 12;

/// The size of cpu0's level-2 cache in KiB, from sysfs, else (a VM whose kernel lists no
/// caches there) from CPUID's extended leaf 0x80000006, which AMD and Intel both fill; 0 if
/// neither says.
std::uint32_t private_cache_kib() {
  for (int i = 0; i < 8; ++i) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
    std::ifstream level(dir + "level"), size(dir + "size");
    int l = 0;
    std::string sz;
    if (!(level >> l) || !(size >> sz)) continue;
    if (l != 2 || sz.empty()) continue;
    std::uint64_t v = std::strtoull(sz.c_str(), nullptr, 10);
    if (sz.back() == 'M') v *= 1024;
    return std::uint32_t(std::min<std::uint64_t>(v, 1u << 30));
  }
#if defined(__x86_64__) || defined(__i386__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(0x80000006, &eax, &ebx, &ecx, &edx)) return ecx >> 16;  // ECX[31:16]: L2 KiB
#endif
  return 0;
}

/// The shared cache as a random walk finds it, KiB: one thread follows a chain of lines in
/// random order over working sets of 2, 4, 8, ... times `private_kib` up to 128 MiB; the
/// largest set whose time per load stays within a quarter of the way from the first set's to
/// the last's (memory). A VM's CPUID names the host's whole L3, not the share this VM's core
/// finds. 0 when no set is below the bar. `latency` gets (KiB, ns per load) of every set: the least of three passes over all
/// the sets, since other tenants on the host's L3 only ever slow a walk, for seconds at a time
/// (with one pass each, calibrations disagreed widely on a set's latency; a pass that leaves
/// only the 2 MiB set below its bar drops the level).
std::uint32_t shared_cache_kib(std::uint32_t private_kib, std::vector<std::pair<std::uint32_t, double>>& latency) {
  latency.clear();
  for (std::uint64_t kib = 2 * std::uint64_t(private_kib); kib <= 128 * 1024; kib *= 2)
    latency.emplace_back(std::uint32_t(kib), std::numeric_limits<double>::infinity());
  for (int pass = 0; pass < 3; ++pass) {
    for (auto& [kib, least] : latency) {
      const std::size_t n = std::size_t(kib) * 1024 / 64;
      std::vector<chain_link> chain(n);
      link_cycle(chain, random_cycle(n));
      constexpr int steps = 200'000;
      const chain_link* p = &chain[0];
      // once around (the set as cached as it gets), or twice the measured steps where the set
      // is larger than that: past every cache, more laps only repeat the misses
      for (std::size_t i = 0, warm = std::min<std::size_t>(n, 2 * steps); i < warm; ++i) p = p->next;
      const auto t0 = clk::now();
      for (int i = 0; i < steps; ++i) p = p->next;
      asm volatile("" : : "r"(p));
      least = std::min(least, ns_since(t0) / steps);
    }
  }
  if (latency.size() < 2) return 0;
  const double bar = latency.front().second + (latency.back().second - latency.front().second) / 4;
  std::uint32_t best = 0;
  for (const auto& [kib, ns] : latency)
    if (ns < bar) best = kib;
  return best;
}

void write_machine_file(const std::filesystem::path& path, const calibration& c) {
  files::write_whole(path.string(), machine_toml(c));
}

struct ring_shape {
  std::int64_t actors, tokens;
};

scenario ring_scenario(const ring_shape& shape, std::int64_t messages) {
  scenario s;
  s.name = ring_name;
  s.workload = ring_name;
  s.workload_params = {{"actors", shape.actors}, {"tokens", shape.tokens}, {"hops", std::max<std::int64_t>(1, messages / shape.tokens - 1)}};
  s.sched.policy = "stealing";
  s.sched.workers = 1;
  s.sched.burst = 16;
  s.sched.idle.strategy = "park";
  return s;
}

struct ring_run {
  double real_ns = 0, sim_ns = 0;
  double messages = 0, turns = 0;
};

/// The ring's simulated time, ns, on one core of machine file `machine_path`.
double simulated_ns(const scenario& s, const std::string& machine_path) {
  sim_options o;
  o.cores = 1;
  o.machine = machine_path;
  sim_result sr = simulate(s, o);
  if (!sr.ok()) throw std::runtime_error("calibrate: the calibration ring failed in simulation");
  return sr.sim_s * 1e9;
}

/// The ring on one real worker (the least CPU time of `reps`, after one untimed run) and in simulation
/// on machine file `machine_path` (one core).
ring_run measure_ring(const scenario& s, const std::string& machine_path, int reps) {
  const workload_info& info = *find_workload(s.workload);
  // CPU time of this process over the run (the worker's, plus the driver's start-up, which is
  // small): what the run costs an undisturbed core. Wall time on a loaded machine counts the
  // other processes' time slices too, and a run of tens of ms cannot dodge them.
  auto cpu_ns = [] {
    rusage u{};
    ::getrusage(RUSAGE_SELF, &u);
    return (double(u.ru_utime.tv_sec) + double(u.ru_stime.tv_sec)) * 1e9 +
           (double(u.ru_utime.tv_usec) + double(u.ru_stime.tv_usec)) * 1e3;
  };
  double cpu = 0;
  auto once = [&] {
    auto w = info.make(with_defaults(info, s.workload_params), s.seed);
    double c0 = cpu_ns();
    run_result r = run_on_threads(s.sched, *w, s.seed);
    cpu = cpu_ns() - c0;
    if (!r.ok()) throw std::runtime_error("calibrate: the calibration ring failed on threads");
    return r;
  };
  once();
  ring_run out;
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    run_result r = once();
    t.push_back(std::min(cpu, r.wall_s * 1e9 * 1.05));  // CPU time; never much above the wall time
    out.messages = double(r.messages);
    out.turns = 0;
    for (auto& pw : r.per_worker) out.turns += double(pw.turns);
  }
  // The cheapest run: the one least disturbed by whatever else this machine runs (the
  // microbenchmarks' lower quartile of many batches serves the same end).
  out.real_ns = *std::min_element(t.begin(), t.end());
  out.sim_ns = simulated_ns(s, machine_path);
  return out;
}

/// A cache term's cost per touch: `ring` on one real worker against its simulation with
/// `term` at `baseline` (the cache model on, next to nothing charged), then simulated with
/// `term` at 1 us to count the touches it charges; the real time the simulation misses, per
/// touch, is the term (set in `term`). Writes, then removes, machine file `path`.
struct touch_cost {
  ring_run run;
  double touches = 0;
};
touch_cost cost_per_touch(const scenario& ring, const calibration& c, double& term, double baseline,
                          const std::filesystem::path& path, int reps) {
  touch_cost r;
  double counted = 0;
  try {
    term = baseline;
    write_machine_file(path, c);
    r.run = measure_ring(ring, path.string(), reps);
    term = 1000;
    write_machine_file(path, c);
    counted = simulated_ns(ring, path.string());
  } catch (...) {
    std::filesystem::remove(path);
    throw;
  }
  std::filesystem::remove(path);
  r.touches = (counted - r.run.sim_ns) / 1000;
  term = r.touches > 0 ? std::max(0.0, (r.run.real_ns - r.run.sim_ns) / r.touches) : 0;
  return r;
}

std::string fmt(const char* f, double a, double b = 0, double c = 0, double d = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, a, b, c, d);
  return buf;
}

}  // namespace

double probe_line_transfer_ns() {
  if (std::thread::hardware_concurrency() < 2) return 0;
  return lower_quartile(chase(100, 2048));  // calibrate's measurement, a sixth of its batches
}

calibration calibrate_machine(const calibrate_options& o) {
  const auto start = clk::now();
  // Many short batches (each about a millisecond or less) rather than a few long runs: on a
  // shared machine some batches run undisturbed, and cost_of takes their lower quartile.
  const int reps = o.quick ? 21 : 61;
  const std::uint64_t scale = o.quick ? 2 : 1;  // batch lengths divide by this
  calibration c;
  machine_model& m = c.model;
  m = parse_machine("", "<calibrate>");  // the embedded default's values, until measured
  m.name = o.name;
  m.source = "<calibrate>";
  auto say = [&](const std::string& s) {
    if (o.progress) o.progress(s);
  };
  auto note = [&](const std::string& s) {
    c.notes.push_back(s);
    say("  " + s);
  };
  const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  m.sockets = 1;
  m.cores_per_socket = cpus;

  say("calibrate: the core and its atomics (tight loops on one thread)");
  static line own;
  const std::uint64_t n = 1'000'000 / scale;
  m.clock_ghz = quantile(reps, 0.75, [&] {  // a rate: noise only lowers it
    std::uint64_t x = 1;
    auto t0 = clk::now();
    for (std::uint64_t i = 0; i < n; ++i) {
      x += i;
      asm volatile("" : "+r"(x));
    }
    return double(n) / ns_since(t0);
  });
  m.atomic_load = cost_of(reps, [&] {
    return per_op(n, [](std::uint64_t k) {
      for (std::uint64_t i = 0; i < k; ++i) (void)own.v.load(std::memory_order_acquire);
    });
  });
  m.atomic_store = cost_of(reps, [&] {
    return per_op(n, [](std::uint64_t k) {
      for (std::uint64_t i = 0; i < k; ++i) own.v.store(i, std::memory_order_release);
    });
  });
  m.atomic_rmw = cost_of(reps, [&] {
    return per_op(n / 4, [](std::uint64_t k) {
      for (std::uint64_t i = 0; i < k; ++i) own.v.fetch_add(1);
    });
  });
  m.fence = cost_of(reps, [&] {
    return per_op(n / 4, [](std::uint64_t k) {
      for (std::uint64_t i = 0; i < k; ++i) std::atomic_thread_fence(std::memory_order_seq_cst);
    });
  });
  m.spin = cost_of(reps, [&] {
    return per_op(n / 40, [](std::uint64_t k) {
      for (std::uint64_t i = 0; i < k; ++i) {
#if defined(__x86_64__) || defined(__i386__)
        _mm_pause();
#endif
      }
    });
  });
  m.yield = cost_of(reps, [&] {
    return per_op(2000 / scale, [](std::uint64_t k) {
      for (std::uint64_t i = 0; i < k; ++i) sched_yield();
    });
  });
  note(fmt("clock %.2f GHz (add chain); atomic load %.2f, store %.2f, rmw %.2f ns", m.clock_ghz, m.atomic_load,
           m.atomic_store, m.atomic_rmw) +
       fmt("; fence %.2f ns, spin %.2f ns, yield %.0f ns", m.fence, m.spin, m.yield));

  say(fmt("calibrate: between cores (two threads pinned to CPUs 0 and %.0f)", partner_cpu()));
  const int pair_batches = o.quick ? 200 : 600;
  m.line_same_socket = lower_quartile(chase(pair_batches, 2048));
  m.line_cross_socket = m.line_same_socket;
  // the least of five: the host moves this VM's CPUs now and then, and a trip between CPUs it
  // placed apart for a moment (several times slower) is not the machine's hand-off
  double one_way = lower_quartile(bounce(pair_batches, 50, [] {}));
  for (int k = 0; k < 4; ++k) one_way = std::min(one_way, lower_quartile(bounce(pair_batches, 50, [] {})));
  // The lookahead rule of conservative parallel simulation: no worker may run ahead of the
  // others by more than the fastest way one can affect another, here a hand-off between two
  // cores (the ping-pong's one way). With a longer fixed quantum, a hand-off in pingpong took
  // several times its real time in simulation, by where the quanta fell.
  m.quantum_ns = std::max(10.0, std::round(one_way));
  static std::vector<std::uint64_t> buf(16 * 1024 / 8);
  std::uint64_t sink = 0;
  const double migrate = lower_quartile(bounce(pair_batches / 4, 5, [&] {
    for (auto& x : buf) sink += x;
    for (auto& x : buf) ++x;  // and write it back: the next round pulls it again
  }));
  asm volatile("" : : "r"(sink));
  m.migration_per_kib = std::max(0.0, (2 * migrate - 2 * one_way) / 16.0);  // once per round trip
  std::vector<double> lock_adds;  // per pair of neighbouring batches, what the lock added to a hand-off
  {
    // strict alternation on a turn flag, with and without taking a std::mutex each turn: the
    // difference is what the lock adds to a hand-off (the flag's own trip is not the lock's:
    // subtracting a dependent load's line transfer for it instead left the spinner's exit in
    // the term). Batches with and without the lock alternate in one run, and the term is the
    // median of the differences of neighbouring batches: the two sides see the same host. The
    // least of three runs of each side, minutes of host drift between them, gave results far
    // apart in one host state.
    std::mutex mx;
    line turn;
    constexpr int rounds = 25;  // per batch
    auto side = [&](std::uint64_t mine) {
      return [&, mine](int i) {
        while (turn.v.load(std::memory_order_acquire) != mine) {
        }
        if ((i / rounds) % 2 == 1) {  // odd batches take the lock, before the flag moves: never contended
          mx.lock();
          mx.unlock();
        }
        turn.v.store(1 - mine, std::memory_order_release);
      };
    };
    // each batch's time per hand-off (a round is two); element j is batch j + 1 (pinned_pair
    // drops batch 0), so odd j ran without the lock and the even j after it with it
    const std::vector<double> v = pinned_pair(6 * pair_batches, rounds, side(0), side(1));
    for (std::size_t j = 1; j + 1 < v.size(); j += 2) lock_adds.push_back((v[j + 1] - v[j]) / 2);
    m.lock_handoff = std::max(0.0, median_of(lock_adds) - m.line_same_socket - m.atomic_rmw);  // the lock word's move is charged apart
  }
  note(fmt("line transfer %.1f ns (a dependent load of a line the other CPU wrote; a ping-pong's one way: %.0f ns)",
           m.line_same_socket, one_way) +
       fmt(", migration %.0f ns/KiB, lock hand-off %.0f ns", m.migration_per_kib, m.lock_handoff) +
       fmt(" (the lock adds %.0f ns a hand-off, median;", median_of(lock_adds)) +
       fmt(" quartiles %.0f", quantile_of(lock_adds, 0.25)) + fmt("-%.0f)", quantile_of(lock_adds, 0.75)));

  say("calibrate: parking (futex wait, condition variable wake-ups)");
  int word = 0;
  m.park = cost_of(reps, [&] {
    return per_op(2000 / scale, [&](std::uint64_t k) {
      for (std::uint64_t i = 0; i < k; ++i) syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 1, nullptr, nullptr, 0);
    });
  });
  m.contended_unlock = cost_of(reps, [&] {
    return per_op(2000 / scale, [&](std::uint64_t k) {
      for (std::uint64_t i = 0; i < k; ++i) syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
    });
  });
  {
    std::vector<double> u, w;
    std::mutex mx;
    std::condition_variable cv;
    bool ready = false, go = false;
    clk::time_point sent;
    for (int i = 0; i < (o.quick ? 300 : 2000); ++i) {
      double woke_after = 0;
      std::thread b([&] {
        pin(partner_cpu());
        std::unique_lock lk(mx);
        ready = true;
        cv.notify_all();
        cv.wait(lk, [&] { return go; });
        woke_after = ns_since(sent);
      });
      {
        pin(0);
        std::unique_lock lk(mx);
        cv.wait(lk, [&] { return ready; });
      }
      std::this_thread::sleep_for(std::chrono::microseconds(50));  // b is asleep in the futex
      {
        std::lock_guard g(mx);
        go = true;
        sent = clk::now();
      }
      auto t0 = clk::now();
      cv.notify_one();
      u.push_back(ns_since(t0));
      b.join();
      w.push_back(woke_after);
      ready = go = false;
    }
    unpin();
    std::sort(u.begin(), u.end());
    std::sort(w.begin(), w.end());
    m.unpark = u[u.size() / 2];
    m.wake_latency = w[w.size() / 2];
  }
  note(fmt("park %.0f ns, unpark %.0f ns, wake-up latency %.0f ns, contended unlock %.0f ns", m.park, m.unpark,
           m.wake_latency, m.contended_unlock));

  say("calibrate: burn_ns (thread_platform's TSC-deadline loop)");
  {
    thread_platform plat;
    // Short batches (16 calls, 32 us), many of them: on this VM the hypervisor takes the vCPU
    // away often enough that every 1 ms batch paid for it (two calibrations then disagreed
    // widely); the lower quartile of short ones is the loop's own cost.
    const int calls = 16;
    plat.burn_ns(2000);
    double per_call = cost_of(10 * reps, [&] {
      auto t0 = clk::now();
      for (int i = 0; i < calls; ++i) plat.burn_ns(2000);
      return ns_since(t0) / calls;
    });
    m.burn_call = std::max(0.0, per_call - 2000);
    c.burn_2000_ratio = per_call / 2000;
    note(fmt("burn_ns(2000) took %.0f ns a call (x%.3f): burn_call %.1f ns", per_call, c.burn_2000_ratio, m.burn_call));
  }

  say("calibrate: the runtime's data structures (real, and the simulator's charge for their atomics)");
  {
    const int ops = int(50'000 / scale);
    const int rounds = int(50 / scale);
    const int box = 4096 / int(scale);
    auto real_now = [] { return std::chrono::duration<double, std::nano>(clk::now().time_since_epoch()).count(); };
    double deque_real = cost_of(reps, [&] { return deque_op_ns<thread_platform>(real_now, ops); });
    // batches of ~0.5 ms, as the deque's: the shorter a batch, the likelier one runs undisturbed
    double locked_real = cost_of(reps, [&] { return locked_op_ns<thread_platform>(real_now, ops / 2); });
    double env_real = cost_of(reps, [&] { return envelope_pair_ns<thread_platform>(real_now, rounds); });
    double push_real = 0, pop_real = 0;
    {
      std::vector<double> pu, po;
      for (int i = 0; i < reps; ++i) {
        push_pop r = mailbox_ns<thread_platform>(real_now, box);
        pu.push_back(r.push);
        po.push_back(r.pop);
      }
      std::sort(pu.begin(), pu.end());
      std::sort(po.begin(), po.end());
      push_real = pu[pu.size() / 4];  // the lower quartile, as cost_of
      pop_real = po[po.size() / 4];
    }
    machine_model zero = m;  // what the model charges without the terms being measured
    zero.queue_op = zero.locked_queue_op = zero.envelope = zero.mailbox_push = zero.mailbox_pop = zero.message = zero.turn = 0;
    zero.quantum_ns = 1e9;
    auto sim = in_simulation<5>(zero, [&](sim_platform& plat) {
      auto now = [&plat] { return double(plat.now_ns()); };
      const int small = 20'000;  // the simulated charge is exact: short loops suffice
      push_pop mb = mailbox_ns<sim_platform>(now, small);
      return std::array<double, 5>{deque_op_ns<sim_platform>(now, small), envelope_pair_ns<sim_platform>(now, 20), mb.push,
                                   mb.pop, locked_op_ns<sim_platform>(now, small)};
    });
    m.queue_op = std::max(0.0, deque_real - sim[0]);
    m.locked_queue_op = std::max(0.0, locked_real - sim[4]);
    m.envelope = std::max(0.0, env_real - sim[1]);
    m.mailbox_push = std::max(0.0, push_real - sim[2]);
    m.mailbox_pop = std::max(0.0, pop_real - sim[3]);
    note(fmt("deque op %.1f ns real, %.1f ns of atomics modeled: queue_op %.1f ns", deque_real, sim[0], m.queue_op));
    note(fmt("locked FIFO op %.1f ns real, %.1f ns of atomics and lock modeled: locked_queue_op %.1f ns", locked_real,
             sim[4], m.locked_queue_op));
    note(fmt("envelope get+put %.1f ns real, %.1f modeled: envelope %.1f ns", env_real, sim[1], m.envelope));
    note(fmt("mailbox push %.1f ns real, %.1f modeled; pop %.1f real, %.1f modeled", push_real, sim[2], pop_real, sim[3]) +
         fmt(": mailbox_push %.1f, mailbox_pop %.1f ns", m.mailbox_push, m.mailbox_pop));
  }

  say("calibrate: the worker loop per message and per turn (calibration-ring on one worker, real vs simulated)");
  {
    register_ring();
    m.message = m.turn = 0;
    calibration partial = c;
    auto path = std::filesystem::temp_directory_path() / ("twinsched-calibrate-" + std::to_string(::getpid()) + ".toml");
    write_machine_file(path, partial);
    const std::int64_t msgs = o.quick ? 200'000 : 1'000'000;
    const int ring_reps = o.quick ? 5 : 9;
    ring_run a, b;
    try {
      a = measure_ring(ring_scenario({1024, 1}, msgs), path.string(), ring_reps);   // one message a turn
      b = measure_ring(ring_scenario({64, 2048}, msgs), path.string(), ring_reps);   // up to 16 a turn
    } catch (...) {
      std::filesystem::remove(path);
      throw;
    }
    std::filesystem::remove(path);
    // real - sim = message * messages + turn * turns, for both shapes
    const double ra = a.real_ns - a.sim_ns, rb = b.real_ns - b.sim_ns;
    const double det = a.messages * b.turns - b.messages * a.turns;
    double msg = 0, turn = 0;
    if (std::abs(det) > 1e-9 * a.messages * b.messages) {
      msg = (ra * b.turns - rb * a.turns) / det;
      turn = (a.messages * rb - b.messages * ra) / det;
    }
    if (turn < 0 || std::abs(det) <= 1e-9 * a.messages * b.messages) {
      turn = 0;
      msg = (ra + rb) / (a.messages + b.messages);
    }
    if (msg < 0) {
      msg = 0;
      turn = std::max(0.0, (ra + rb) / (a.turns + b.turns));
    }
    m.message = msg;
    m.turn = turn;
    note(fmt("ring A (1024 actors, 1 token): %.0f messages in %.0f turns, real %.2f ms, simulated %.2f ms", a.messages,
             a.turns, a.real_ns * 1e-6, a.sim_ns * 1e-6));
    note(fmt("ring B (64 actors, 2048 tokens): %.0f messages in %.0f turns, real %.2f ms, simulated %.2f ms", b.messages,
             b.turns, b.real_ns * 1e-6, b.sim_ns * 1e-6));
    note(fmt("solved: message %.1f ns, turn %.1f ns", m.message, m.turn));

    // Cold actors: the ring again with so many actors and tokens that an actor has left the
    // private cache whenever a token reaches it, and a FIFO run queue, so that its turn comes
    // long after the send (two cold touches a message, their misses not chained one on the
    // other as a lone token's are; the 2^12 envelopes in flight, 256 KiB, stay in a shared
    // level where there is one). Simulated with everything above and cold_actor = 0, then
    // with cold_actor = 1 us to count the touches the model finds cold: what the simulation
    // misses, per cold touch, is cold_actor.
    m.private_cache_kib = private_cache_kib();
    if (m.private_cache_kib == 0) {
      note(std::string("no L2 size in /sys/devices/system/cpu/cpu0/cache nor CPUID: the cold-actor model stays off") +
           (o.shared_cache_kib >= 0 ? " (so --shared-cache-kib has nothing to set)" : ""));
    } else {
      // The shared cache first: its size from a random walk, then the ring with half that
      // many bytes of actors (~256 each), each turn coming after a lap of all the others:
      // past the private cache, within the shared one. Simulated with the private level on
      // (cold_actor 1 ns for now), llc_actor 0 and then 1 us: what the simulation misses per
      // touch it finds in the shared cache is llc_actor.
      std::vector<std::pair<std::uint32_t, double>> sweep;
      m.shared_cache_kib = shared_cache_kib(m.private_cache_kib, sweep);
      std::string walk = "random walk, ns a load:";
      for (const auto& [kib, ns] : sweep) walk += fmt(" %.0f KiB %.0f", double(kib), ns);
      if (o.shared_cache_kib >= 0) {
        walk += fmt(" (found %.0f KiB; %.0f KiB as given)", m.shared_cache_kib, double(o.shared_cache_kib));
        m.shared_cache_kib = std::uint32_t(o.shared_cache_kib);
      }
      // A load from memory that nothing overlaps: the walk over its largest set (past every
      // cache and the TLB's reach, as fanout-idle's 40 MB of actors and envelopes are).
      if (!sweep.empty()) m.memory_load = sweep.back().second;
      walk += fmt(" (memory_load %.0f ns)", m.memory_load);
      const std::int64_t llc_actors = std::int64_t(m.shared_cache_kib) * 1024 / 2 / 256;
      if (llc_actors * 192 <= std::int64_t(m.private_cache_kib) * 1024 * 5 / 4) {
        m.shared_cache_kib = 0;
        note(walk + ": no shared level past the private cache, so llc_actor stays off");
      } else {
        scenario llc_ring = ring_scenario({llc_actors, llc_actors / 8}, msgs);
        llc_ring.sched.policy = "shared-queue";
        m.cold_actor = 1;  // the private level on, for now
        const touch_cost llc = cost_per_touch(llc_ring, c, m.llc_actor, 0, path, ring_reps);
        note(walk + fmt(": shared cache %.0f KiB; ring L (%.0f actors, %.0f tokens, FIFO): ", double(m.shared_cache_kib),
                        double(llc_actors), double(llc_actors / 8)) +
             fmt("real %.2f ms, simulated %.2f ms without shared-cache touches, %.0f of them", llc.run.real_ns * 1e-6,
                 llc.run.sim_ns * 1e-6, llc.touches) +
             fmt(": llc_actor %.1f ns", m.llc_actor));
        // llc_actor 0 keeps the level: a touch that finds it there costs nothing beyond the
        // other terms (ring L ran no slower than simulated), where dropping the level would
        // send every such touch to memory.
      }
      scenario cold_ring = ring_scenario({cold_ring_actors, cold_ring_tokens}, msgs);
      cold_ring.sched.policy = "shared-queue";
      // baseline 0.001: the cache model on (a shared-cache touch costs the same in both runs).
      // Where no shared level was found, the ring's envelope reads are charged nothing while
      // cold_actor is solved: a level the walk missed (or one of 2 MiB, dropped above) holds
      // the 2^12 envelopes, and charging each a load from memory (the ring then simulated
      // slower than it ran) left nothing for cold_actor: it was solved to 0.
      const double memory_load = m.memory_load;
      if (m.shared_cache_kib == 0) m.memory_load = 0.001;
      const touch_cost cold = cost_per_touch(cold_ring, c, m.cold_actor, 0.001, path, ring_reps);
      m.memory_load = memory_load;
      note(fmt("private cache %.0f KiB; ring C (%.0f actors, %.0f tokens, FIFO): ", double(m.private_cache_kib),
               double(cold_ring_actors), double(cold_ring_tokens)) +
           fmt("real %.2f ms, simulated %.2f ms without cold touches, %.0f cold touches", cold.run.real_ns * 1e-6,
               cold.run.sim_ns * 1e-6, cold.touches) +
           fmt(": cold_actor %.1f ns", m.cold_actor));
    }
  }

  say("calibrate: the workloads' compute kernels (one thread)");
  for (const workload_info* w : all_workloads()) {
    for (const kernel_spec& k : w->kernels) {
      const std::uint64_t units = 1'000'000 / scale;
      std::uint64_t kept = 0;
      // Not cost_of's lower quartile, nor a median of short batches: a kernel runs for long
      // stretches (pi: jobs of a million terms), which pay the machine's typical rate, its
      // timer ticks and the hypervisor's exits included. Batches of a million units (about a
      // millisecond: most hold a tick), averaged but for the slowest tenth (a preemption by
      // another process). A median of 200,000-unit batches, which mostly miss the ticks, came
      // out below that, and pi simulated fast on one worker.
      std::vector<double> batch;
      for (int i = 0; i < reps; ++i) {
        auto t0 = clk::now();
        kept += k.run(units);
        batch.push_back(ns_since(t0) / double(units));
      }
      std::sort(batch.begin(), batch.end());
      batch.resize(batch.size() - batch.size() / 10);
      const double per_unit = std::accumulate(batch.begin(), batch.end(), 0.0) / double(batch.size());
      asm volatile("" : : "r"(kept));
      m.kernels[k.name] = per_unit;
      note("kernel " + k.name + " (workload " + w->name + ", parameter " + k.param +
           fmt("): %.3f ns a unit", per_unit));
    }
  }
  c.seconds = ns_since(start) * 1e-9;
  say(fmt("calibrate: done in %.1f s", c.seconds));
  return c;
}

std::string machine_toml(const calibration& c) {
  const machine_model& m = c.model;
  std::string t;
  char host[256] = "?";
  ::gethostname(host, sizeof host - 1);
  std::time_t now = std::time(nullptr);
  char when[64];
  std::strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  t += "# " + m.name + ": measured by `twinsched calibrate` on " + host + ", " + when + ", " +
       std::to_string(m.cores()) + " logical CPUs.\n";
  t += "# What each term measures: sim/calibrate.cpp and sim/MACHINES.md. Figures of this run:\n";
  for (auto& n : c.notes) t += "#   " + n + "\n";
  t += "\nname = \"" + m.name + "\"\n";
  t += "description = \"measured by twinsched calibrate on " + std::string(host) + "\"\n\n";
  t += "[topology]\nsockets = 1\n";
  t += "cores_per_socket = " + std::to_string(m.cores_per_socket) + "\n";
  t += fmt("clock_ghz = %.3f\n", m.clock_ghz);
  if (m.private_cache_kib > 0) t += "private_cache_kib = " + std::to_string(m.private_cache_kib) + "\n";
  if (m.shared_cache_kib > 0) t += "shared_cache_kib = " + std::to_string(m.shared_cache_kib) + "\n";
  t += "\n[costs]\n";
  auto cost = [&](const char* key, double v) { t += std::string(key) + fmt("_ns = %.3f\n", v); };
  cost("atomic_load", m.atomic_load);
  cost("atomic_store", m.atomic_store);
  cost("atomic_rmw", m.atomic_rmw);
  cost("fence", m.fence);
  cost("line_transfer_same_socket", m.line_same_socket);
  cost("line_transfer_cross_socket", m.line_cross_socket);
  cost("migration_per_kib", m.migration_per_kib);
  cost("lock_handoff", m.lock_handoff);
  cost("contended_unlock", m.contended_unlock);
  cost("queue_op", m.queue_op);
  cost("locked_queue_op", m.locked_queue_op);
  cost("park", m.park);
  cost("unpark", m.unpark);
  cost("wake_latency", m.wake_latency);
  cost("spin", m.spin);
  cost("yield", m.yield);
  cost("message", m.message);
  cost("turn", m.turn);
  cost("envelope", m.envelope);
  cost("mailbox_push", m.mailbox_push);
  cost("mailbox_pop", m.mailbox_pop);
  cost("burn_call", m.burn_call);
  cost("cold_actor", m.cold_actor);
  cost("llc_actor", m.llc_actor);  // 0: no shared level, or hits there cost nothing more
  cost("memory_load", m.memory_load);
  if (!m.kernels.empty()) {
    t += "\n[kernels]\n";
    for (const auto& [name, ns] : m.kernels) cost(name.c_str(), ns);
  }
  t += fmt("\n[simulation]\nquantum_ns = %.0f\n", m.quantum_ns);
  return t;
}

}  // namespace twinsched
