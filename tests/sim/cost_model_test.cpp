// The simulator's cost terms, each on its own: a tiny scenario on sim_platform whose simulated time must equal the machine's cost for that term.
//
// The probe machine gives every cost its own round number of nanoseconds (at 1 GHz), so a
// term charged in place of another, twice, or not at all shows up as a wrong sum. It has
// two sockets of two cores: workers 0 and 1 run on socket 0, worker 2 on socket 1. Its
// quantum is far longer than any scenario, so a worker pays its charges (yields to the
// simulation) only where a scenario makes it: between two readings of now_ns() nothing is
// charged but the operations in between, and the difference is exact (only the case on the
// shipped xeon model, whose costs are fractions of a ns, allows 1 ns for now_ns()'s rounding).
//
// SimGrid's engine exists once per process, so every case that simulates does it in a
// forked child (in_child), which sends back a small struct of measured times; the parent
// checks them. Workers order themselves with a plain bool (they never run at the same
// time) and await(), which yields until it is set: the yields advance the waiting worker's
// clock, but before its measured window. Objects the workers share live in the driver, as
// a scheduler does, so they are made and destroyed inside the simulation.
#include <doctest/doctest.h>


#include <algorithm>
#include <array>
#include <atomic>  // std::memory_order
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "in_child.hpp"
#include "sim/machine_model.hpp"
#include "sim/run_sim.hpp"
#include "sim/sim_platform.hpp"

using namespace twinsched;

TEST_SUITE_BEGIN("sim");  // this file's default label (tests/CMakeLists.txt)

namespace {

/// The probe machine's costs, ns. Distinct, so that no term can pass for another.
namespace cost {
constexpr std::int64_t load = 1, store = 2, rmw = 5, fence = 10, queue_op = 20, spin = 40, handoff = 50, same = 100,
                       cross = 300, yield = 700, per_kib = 1000, park = 2000, unpark = 3000, wake = 7000;
// the runtime's own work (platform contract 15) and burn_ns's fixed cost per call
constexpr std::int64_t message = 3, turn = 4, envelope = 6, mailbox_push = 7, mailbox_pop = 8, burn_call = 9;
// a lock-guarded run queue's own work; a touch of an actor that left the caches
constexpr std::int64_t locked_queue_op = 11, cold_actor = 400;
/// a touch of an actor out of the private caches but in the shared one (on only where a test sets shared_cache_kib)
constexpr std::int64_t llc_actor = 60;
/// a queued message's envelope read from memory (a link of the mailbox's list: nothing overlaps it)
constexpr std::int64_t memory_load = 250;
/// an envelope read from memory right after the one before it (ascending slots: prefetched)
constexpr std::int64_t stream_load = 13;
/// an unlock's futex wake after contention (glibc's slow path; the taker's futex wait is park)
constexpr std::int64_t contended_unlock = 30;
/// of a park that blocked, its thread's own CPU (counted as CPU time; no simulated time)
constexpr std::int64_t block_cpu = 1500;
/// The probe's private cache: 4 KiB, the footprints of 16 actors of 64 declared bytes
/// (64 + sim_platform::actor_overhead_bytes = 256 bytes each).
constexpr std::int64_t private_cache_kib = 4;
}

std::string probe_machine_text() {
  std::string t = "name = \"cost-probe\"\n[topology]\nsockets = 2\ncores_per_socket = 2\nclock_ghz = 1\nprivate_cache_kib = " +
                  std::to_string(cost::private_cache_kib) + "\n[costs]\n";
  auto set = [&](const char* key, std::int64_t ns) { t += std::string(key) + "_ns = " + std::to_string(ns) + "\n"; };
  set("atomic_load", cost::load);
  set("atomic_store", cost::store);
  set("atomic_rmw", cost::rmw);
  set("fence", cost::fence);
  set("line_transfer_same_socket", cost::same);
  set("line_transfer_cross_socket", cost::cross);
  set("migration_per_kib", cost::per_kib);
  set("lock_handoff", cost::handoff);
  set("contended_unlock", cost::contended_unlock);
  set("queue_op", cost::queue_op);
  set("park", cost::park);
  set("unpark", cost::unpark);
  set("wake_latency", cost::wake);
  set("block_cpu", cost::block_cpu);
  set("spin", cost::spin);
  set("yield", cost::yield);
  set("message", cost::message);
  set("turn", cost::turn);
  set("envelope", cost::envelope);
  set("mailbox_push", cost::mailbox_push);
  set("mailbox_pop", cost::mailbox_pop);
  set("burn_call", cost::burn_call);
  set("locked_queue_op", cost::locked_queue_op);
  set("cold_actor", cost::cold_actor);
  set("llc_actor", cost::llc_actor);
  set("memory_load", cost::memory_load);
  set("stream_load", cost::stream_load);
  t += "[simulation]\nquantum_ns = 1e9\n";  // one simulated second: no scenario here comes near it
  return t;
}

machine_model probe_machine() { return parse_machine(probe_machine_text(), "cost-probe.toml"); }

/// Runs `simulation` (which builds a sim_platform, runs it and returns what it measured) in
/// a forked child process (support/in_child.hpp), and returns the measurements. SimGrid's
/// engine can be created only once per process, so each case's simulation needs its own.
template <class R, class F>
R in_child(F simulation) {
  return testing::in_child<R>([&](std::string&) { return simulation(); });
}

/// Simulates on `m` with `driver` as the driver (it starts and joins the workers) and
/// returns the run's stats; throws with the run's errors if it failed or hung.
template <class F>
sim_stats simulate(const machine_model& m, F driver) {
  sim_config c;
  c.time_limit_s = 0.01;  // a scenario whose await() never ends stops here, in simulated time
  sim_platform plat(m, c);
  plat.run([&] { driver(plat); });
  if (plat.stats().aborted) {
    std::string why = "the simulation did not finish:";
    for (const auto& e : plat.stats().errors) why += " " + e;
    throw std::runtime_error(why);
  }
  return plat.stats();
}
template <class F>
sim_stats simulate(F driver) {
  return simulate(probe_machine(), driver);
}

std::int64_t now(const sim_platform& plat) { return std::int64_t(plat.now_ns()); }

/// Yields until another worker sets `flag`. Workers never run at the same time, so a plain
/// bool is enough; yield_now() advances this worker's clock and lets the others run.
void await(sim_platform& plat, const bool& flag) {
  while (!flag) plat.yield_now();
}

/// The simulated ns one call of `op` took on the calling worker.
template <class F>
std::int64_t timed(const sim_platform& plat, F op) {
  std::int64_t begin = now(plat);
  op();
  return now(plat) - begin;
}

constexpr auto relaxed = std::memory_order_relaxed;

}  // namespace

TEST_CASE("the probe machine gives every cost term its own value") {
  machine_model m = probe_machine();
  CHECK(m.sockets == 2);
  CHECK(m.cores_per_socket == 2);
  std::string text = probe_machine_text();
  for (const auto& key : machine_cost_keys()) {
    CAPTURE(key);
    CHECK(text.find("\n" + key + "_ns = ") != std::string::npos);  // a new term needs a value and a test here
  }
  std::set<double> values{m.atomic_load, m.atomic_store, m.atomic_rmw, m.fence, m.line_same_socket,
                          m.line_cross_socket, m.migration_per_kib, m.lock_handoff, m.queue_op, m.park,
                          m.unpark, m.wake_latency, m.spin, m.yield, m.message, m.turn, m.envelope,
                          m.mailbox_push, m.mailbox_pop, m.burn_call, m.locked_queue_op, m.cold_actor, m.contended_unlock,
                          m.llc_actor, m.memory_load, m.stream_load, m.block_cpu};
  CHECK(values.size() == machine_cost_keys().size());
}

// ---- loads, stores, read-modify-writes, fences: lines this core holds ----

TEST_CASE("a load of a line this core holds costs one atomic load") {
  struct times {
    std::int64_t own, unwritten;
  };
  times t = in_child<times>([] {
    times r{};
    simulate([&](sim_platform& plat) {
      sim_platform::atomic<int> x, never_written;
      plat.start_worker(0, [&] {
        x.store(1, relaxed);
        r.own = timed(plat, [&] { (void)x.load(); });
        r.unwritten = timed(plat, [&] { (void)never_written.load(); });
      });
      plat.join_workers();
    });
    return r;
  });
  CHECK(t.own == cost::load);
  CHECK(t.unwritten == cost::load);
}

TEST_CASE("a relaxed or release store costs atomic_store, and a seq_cst store costs an RMW (it is an xchg)") {
  struct times {
    std::int64_t first, relaxed_store, release_store, seq_cst_store;
  };
  times t = in_child<times>([] {
    times r{};
    simulate([&](sim_platform& plat) {
      sim_platform::atomic<int> x;
      plat.start_worker(0, [&] {
        r.first = timed(plat, [&] { x.store(1, relaxed); });  // a line nobody wrote in the run yet: no transfer
        r.relaxed_store = timed(plat, [&] { x.store(2, relaxed); });
        r.release_store = timed(plat, [&] { x.store(3, std::memory_order_release); });
        r.seq_cst_store = timed(plat, [&] { x.store(4); });
      });
      plat.join_workers();
    });
    return r;
  });
  CHECK(t.first == cost::store);
  CHECK(t.relaxed_store == cost::store);
  CHECK(t.release_store == cost::store);
  CHECK(t.seq_cst_store == cost::rmw);
}

TEST_CASE("exchange, compare-exchange (successful or not), fetch_add and fetch_sub each cost one RMW") {
  struct times {
    std::int64_t exchange, cas_success, cas_failure, cas_weak, fetch_add, fetch_sub;
    int final_value;
  };
  times t = in_child<times>([] {
    times r{};
    simulate([&](sim_platform& plat) {
      sim_platform::atomic<int> x;
      plat.start_worker(0, [&] {
        r.exchange = timed(plat, [&] { (void)x.exchange(1); });
        int expected = 1;
        r.cas_success = timed(plat, [&] { (void)x.compare_exchange_strong(expected, 2); });
        expected = 7;
        r.cas_failure = timed(plat, [&] { (void)x.compare_exchange_strong(expected, 3); });
        expected = 2;
        r.cas_weak = timed(plat, [&] { (void)x.compare_exchange_weak(expected, 4); });
        r.fetch_add = timed(plat, [&] { (void)x.fetch_add(10); });
        r.fetch_sub = timed(plat, [&] { (void)x.fetch_sub(1); });
        r.final_value = x.load();
      });
      plat.join_workers();
    });
    return r;
  });
  CHECK(t.exchange == cost::rmw);
  CHECK(t.cas_success == cost::rmw);
  CHECK(t.cas_failure == cost::rmw);  // lock cmpxchg takes the line exclusively, success or not
  CHECK(t.cas_weak == cost::rmw);
  CHECK(t.fetch_add == cost::rmw);
  CHECK(t.fetch_sub == cost::rmw);
  CHECK(t.final_value == 13);  // the operations did what they say: 1, 2, (7 failed), 4, 14, 13
}

TEST_CASE("a seq_cst fence costs fence, and acquire, release and acq_rel fences are free") {
  struct times {
    std::int64_t seq_cst, acquire, release, acq_rel;
  };
  times t = in_child<times>([] {
    times r{};
    simulate([&](sim_platform& plat) {
      plat.start_worker(0, [&] {
        r.seq_cst = timed(plat, [] { sim_platform::fence(std::memory_order_seq_cst); });
        r.acquire = timed(plat, [] { sim_platform::fence(std::memory_order_acquire); });
        r.release = timed(plat, [] { sim_platform::fence(std::memory_order_release); });
        r.acq_rel = timed(plat, [] { sim_platform::fence(std::memory_order_acq_rel); });
      });
      plat.join_workers();
    });
    return r;
  });
  CHECK(t.seq_cst == cost::fence);
  CHECK(t.acquire == 0);
  CHECK(t.release == 0);
  CHECK(t.acq_rel == 0);
}

// ---- line transfers ----

TEST_CASE("an idle worker reads a value no earlier than it was written plus the transfer, and a busy worker at its own clock") {
  // Workers run ahead of the clock by up to a quantum (here: all of each scenario), so worker 0
  // sees worker 1's stores at its own earlier time. Idle (it yielded in await), it could not
  // have had them before they were written: its clock moves there. Once a turn began it is
  // busy, and a read only costs what it costs (cost_model.hpp, not_before).
  struct times {
    std::int64_t x_written, y_written, idle_read_done, busy_read;
  };
  times t = in_child<times>([] {
    times r{};
    simulate([&](sim_platform& plat) {
      sim_platform::atomic<int> x, y;
      bool written = false;
      plat.start_worker(1, [&] {
        plat.charge_ns(10000);
        x.store(1, relaxed);
        r.x_written = now(plat);
        plat.charge_ns(10000);
        y.store(1, relaxed);
        r.y_written = now(plat);
        written = true;
      });
      plat.start_worker(0, [&] {
        await(plat, written);
        plat.spin_pause();  // idle (await may not have yielded: worker 1 may have run first)
        (void)x.load();
        r.idle_read_done = now(plat);
        sim_platform::runtime_work(runtime_op::turn);  // a turn begins: busy
        r.busy_read = timed(plat, [&] { (void)y.load(); });
      });
      plat.join_workers();
    });
    return r;
  });
  CHECK(t.x_written >= 10000);
  CHECK(t.idle_read_done == t.x_written + cost::same);  // not at its own clock + load + transfer (~800 ns)
  CHECK(t.idle_read_done + cost::turn < t.y_written);   // so the busy read below comes "early" by the clocks
  CHECK(t.busy_read == cost::load + cost::same);
}

TEST_CASE("a load of a line another core of the same socket wrote costs one same-socket transfer, once") {
  struct times {
    std::int64_t first, second;
  };
  times t = in_child<times>([] {
    times r{};
    simulate([&](sim_platform& plat) {
      sim_platform::atomic<int> x;
      bool written = false;
      plat.start_worker(0, [&] {
        x.store(1, relaxed);
        written = true;
      });
      plat.start_worker(1, [&] {
        await(plat, written);
        r.first = timed(plat, [&] { (void)x.load(); });
        r.second = timed(plat, [&] { (void)x.load(); });  // this core now holds a shared copy
      });
      plat.join_workers();
    });
    return r;
  });
  CHECK(t.first == cost::load + cost::same);
  CHECK(t.second == cost::load);
}

TEST_CASE("a plain store to a line another core wrote retires at once, the next fence or locked op waits for its transfer, and stores overlap") {
  // x86's store buffer (cost_model.hpp, write): a relaxed or release store costs the core
  // atomic_store and its transfer completes in the background; a seq_cst fence or an RMW
  // waits for it. Two stores to two lines move both lines at once.
  struct times {
    std::int64_t store, store_fence, two_stores_fence, exchange;
  };
  times t = in_child<times>([] {
    times r{};
    simulate([&](sim_platform& plat) {
      sim_platform::atomic<int> x, y;
      bool written = false;
      sim_platform::atomic<int> u, v, w;
      plat.start_worker(0, [&] {
        for (auto* a : {&x, &y, &u, &v, &w}) a->store(1, relaxed);
        written = true;
      });
      plat.start_worker(1, [&] {
        await(plat, written);
        r.store = timed(plat, [&] { x.store(2, relaxed); });
        sim_platform::fence(std::memory_order_seq_cst);  // drained: the next cases start clean
        r.store_fence = timed(plat, [&] {
          u.store(2, std::memory_order_release);
          sim_platform::fence(std::memory_order_seq_cst);
        });
        r.two_stores_fence = timed(plat, [&] {
          v.store(2, relaxed);
          w.store(2, relaxed);
          sim_platform::fence(std::memory_order_seq_cst);
        });
        r.exchange = timed(plat, [&] { (void)y.exchange(2); });
      });
      plat.join_workers();
    });
    return r;
  });
  CHECK(t.store == cost::store);
  CHECK(t.store_fence == cost::same + cost::fence);  // the fence waits out the transfer
  CHECK(t.two_stores_fence == cost::store + cost::same + cost::fence);  // one transfer's wait, not two
  CHECK(t.exchange == cost::rmw + cost::same);  // a locked op pays its own line's transfer
}

TEST_CASE("a load or store (and fence) of a line a core on the other socket wrote costs one cross-socket transfer") {
  struct times {
    std::int64_t load, store;
  };
  times t = in_child<times>([] {
    times r{};
    simulate([&](sim_platform& plat) {
      sim_platform::atomic<int> x, y;
      bool written = false;
      plat.start_worker(0, [&] {  // core 0, socket 0
        x.store(1, relaxed);
        y.store(1, relaxed);
        written = true;
      });
      plat.start_worker(2, [&] {  // core 2, socket 1
        await(plat, written);
        r.load = timed(plat, [&] { (void)x.load(); });
        r.store = timed(plat, [&] {  // the fence waits for the store's transfer
          y.store(2, relaxed);
          sim_platform::fence(std::memory_order_seq_cst);
        });
      });
      plat.join_workers();
    });
    return r;
  });
  CHECK(t.load == cost::load + cost::cross);
  CHECK(t.store == cost::cross + cost::fence);
}

TEST_CASE("on the shipped two-socket xeon model a store's transfer takes 60 ns within a socket and 140 ns across") {
  struct times {
    std::int64_t same_socket, cross_socket;
  };
  machine_model m = load_machine(std::string(TWINSCHED_SOURCE_DIR) + "/models/machines/xeon-2s-32c.toml");
  REQUIRE(m.sockets == 2);
  REQUIRE(m.cores_per_socket == 16);
  REQUIRE(m.line_same_socket == 60);
  REQUIRE(m.line_cross_socket == 140);
  times t = in_child<times>([&] {
    times r{};
    simulate(m, [&](sim_platform& plat) {
      sim_platform::atomic<int> x, y;
      bool written = false;
      plat.start_worker(0, [&] {  // core 0, socket 0
        x.store(1, relaxed);
        y.store(1, relaxed);
        written = true;
      });
      plat.start_worker(1, [&] {  // core 1, socket 0
        await(plat, written);
        r.same_socket = timed(plat, [&] {
          x.store(2, relaxed);
          sim_platform::fence(std::memory_order_seq_cst);  // waits for the store's transfer
        });
      });
      plat.start_worker(16, [&] {  // core 16, socket 1
        await(plat, written);
        r.cross_socket = timed(plat, [&] {
          y.store(2, relaxed);
          sim_platform::fence(std::memory_order_seq_cst);
        });
      });
      plat.join_workers();
    });
    return r;
  });
  // The fence waits out the transfer; now_ns() rounds each reading to a whole ns, so a
  // difference of two readings is within 1 ns of the exact cost.
  CHECK(std::abs(double(t.same_socket) - (m.fence + 60)) <= 1.0);
  CHECK(std::abs(double(t.cross_socket) - (m.fence + 140)) <= 1.0);
}

TEST_CASE("a store to a line other cores only read takes one same-socket transfer to invalidate their copies") {
  struct times {
    std::int64_t store;
  };
  times t = in_child<times>([] {
    times r{};
    simulate([&](sim_platform& plat) {
      sim_platform::atomic<int> x;
      bool written = false, read = false;
      plat.start_worker(0, [&] {
        x.store(1, relaxed);
        written = true;
        await(plat, read);
        r.store = timed(plat, [&] {  // still the last writer, but core 1 holds a copy
          x.store(2, relaxed);
          sim_platform::fence(std::memory_order_seq_cst);  // waits for the invalidation
        });
      });
      plat.start_worker(1, [&] {
        await(plat, written);
        (void)x.load();
        read = true;
      });
      plat.join_workers();
    });
    return r;
  });
  CHECK(t.store == cost::same + cost::fence);
}

TEST_CASE("a store to a line in transfer to another core completes after that transfer and its own") {
  struct times {
    std::int64_t first_taker_at, second_begin, second_end;
  };
  times t = in_child<times>([] {
    times r{};
    simulate([&](sim_platform& plat) {
      sim_platform::atomic<int> x;
      bool written = false, taken = false;
      plat.start_worker(0, [&] {
        x.store(1, relaxed);
        written = true;
        await(plat, taken);
        r.second_begin = now(plat);
        x.store(3, relaxed);
        sim_platform::fence(std::memory_order_seq_cst);  // waits for the store to complete
        r.second_end = now(plat);
      });
      plat.start_worker(1, [&] {
        await(plat, written);
        plat.burn_ns(10000);  // worker 1 takes the line well after worker 0's clock, which yields meanwhile
        r.first_taker_at = now(plat);
        x.store(2, relaxed);  // the line is in transfer to core 1 until first_taker_at + same
        taken = true;
      });
      plat.join_workers();
    });
    return r;
  });
  REQUIRE(t.second_begin < t.first_taker_at + cost::same);  // worker 0 asks while the line is still moving
  CHECK(t.second_end == t.first_taker_at + cost::same + cost::same + cost::fence);
}

// ---- locks ----

TEST_CASE("a lock taken again on the core that last held it costs one RMW, and each release one store") {
  struct times {
    std::int64_t first_lock, first_unlock, second_lock, second_unlock;
  };
  times t = in_child<times>([] {
    times r{};
    simulate([&](sim_platform& plat) {
      sim_platform::mutex m;
      plat.start_worker(0, [&] {
        r.first_lock = timed(plat, [&] { m.lock(); });
        r.first_unlock = timed(plat, [&] { m.unlock(); });
        r.second_lock = timed(plat, [&] { m.lock(); });
        r.second_unlock = timed(plat, [&] { m.unlock(); });
      });
      plat.join_workers();
    });
    return r;
  });
  CHECK(t.first_lock == cost::rmw);
  CHECK(t.first_unlock == cost::store);
  CHECK(t.second_lock == cost::rmw);
  CHECK(t.second_unlock == cost::store);
}

TEST_CASE("a lock passed to another core costs its line's transfer plus lock_handoff, within a socket and across") {
  struct times {
    std::int64_t same_socket, cross_socket;
  };
  times t = in_child<times>([] {
    times r{};
    simulate([&](sim_platform& plat) {
      sim_platform::mutex a, b;
      bool released = false;
      plat.start_worker(0, [&] {  // core 0, socket 0
        a.lock();
        a.unlock();
        b.lock();
        b.unlock();
        released = true;
      });
      plat.start_worker(1, [&] {  // core 1, socket 0
        await(plat, released);
        plat.burn_ns(100000);  // long after the release in simulated time: nothing to wait for
        r.same_socket = timed(plat, [&] { a.lock(); });
        a.unlock();
      });
      plat.start_worker(2, [&] {  // core 2, socket 1
        await(plat, released);
        plat.burn_ns(100000);
        r.cross_socket = timed(plat, [&] { b.lock(); });
        b.unlock();
      });
      plat.join_workers();
    });
    return r;
  });
  CHECK(t.same_socket == cost::rmw + cost::same + cost::handoff);
  CHECK(t.cross_socket == cost::rmw + cost::cross + cost::handoff);
}

/// Worker 0 works `lead` ns, then holds the lock for `hold` ns; worker 1 runs after it (no
/// yield while a lock is held) and takes the lock `arrive` ns into its own run, in simulated
/// time; then worker 0 waits for worker 1's lock and reads its clock: how far it moved past
/// its own unlock, beyond its yields, is what worker 1's contention charged it.
struct contention_times {
  std::int64_t acquired_at, released_at, lock_begin, lock_end, unlock_cost, holder_extra;
  std::uint64_t contended;
};
contention_times contend(std::int64_t lead, std::int64_t hold, std::int64_t arrive,
                         const machine_model& machine = probe_machine()) {
  return in_child<contention_times>([=] {
    contention_times r{};
    sim_stats st = simulate(machine, [&](sim_platform& plat) {
      sim_platform::mutex m;
      bool released = false, taken = false;
      plat.start_worker(0, [&] {
        plat.burn_ns(std::uint64_t(lead));
        m.lock();
        r.acquired_at = now(plat);
        plat.burn_ns(std::uint64_t(hold));  // no yield while a lock is held: worker 1 runs after
        m.unlock();
        r.released_at = now(plat);
        released = true;
        await(plat, taken);  // each yield costs `yield`; anything else was charged by worker 1
        r.holder_extra = (now(plat) - r.released_at) % cost::yield;
      });
      plat.start_worker(1, [&] {
        await(plat, released);
        plat.burn_ns(std::uint64_t(arrive));
        r.lock_begin = now(plat);
        m.lock();
        r.lock_end = now(plat);
        taken = true;
        r.unlock_cost = timed(plat, [&] { m.unlock(); });
      });
      plat.join_workers();
    });
    r.contended = st.contended_locks;
    return r;
  });
}

TEST_CASE("a lock taken earlier in simulated time than another worker's critical section goes through, though that one ran first") {
  contention_times t = contend(5000, 0, 0);  // worker 0's critical section starts late, but runs first
  REQUIRE(t.lock_begin < t.acquired_at);
  CHECK(t.contended == 0);
  CHECK(t.lock_end - t.lock_begin == cost::rmw + cost::same + cost::handoff);
  CHECK(t.unlock_cost == cost::store);
  CHECK(t.holder_extra == 0);
}

TEST_CASE("a lock taken inside another worker's critical section sleeps until a wake-up after its end, and both unlocks pay a futex wake") {
  contention_times t = contend(0, 5000, 1000);  // the holder's release is 4000 ns away: longer than park
  REQUIRE(t.lock_begin < t.released_at);
  REQUIRE(t.released_at - t.lock_begin > cost::park);
  CHECK(t.contended == 1);
  CHECK(t.lock_end == t.released_at + cost::wake + cost::rmw + cost::same + cost::handoff);
  CHECK(t.unlock_cost == cost::store + cost::contended_unlock);  // the taker's own unlock
  // the holder's wake found a sleeper (unpark), charged to it afterwards; holder_extra is
  // what the holder's clock moved beyond its yields, so modulo one yield
  CHECK(t.holder_extra == cost::unpark % cost::yield);
}

TEST_CASE("a waiter asleep in the futex leaves the lock free: a worker arriving during its wake-up takes it first") {
  struct times {
    std::int64_t released_at, sleeper_end, barger_begin, barger_end;
    std::uint64_t contended;
  };
  times t = in_child<times>([] {
    times r{};
    sim_stats st = simulate(probe_machine(), [&](sim_platform& plat) {
      sim_platform::mutex m;
      bool released = false;
      plat.start_worker(0, [&] {  // holds 0..5000 and runs whole (no yield while a lock is held)
        m.lock();
        plat.burn_ns(5000);
        m.unlock();
        r.released_at = now(plat);
        released = true;
      });
      plat.start_worker(1, [&] {  // arrives at ~1000, inside the hold: asleep until ~5000 + wake
        plat.burn_ns(1000);
        m.lock();
        r.sleeper_end = now(plat);
        m.unlock();
      });
      plat.start_worker(2, [&] {  // arrives at ~6000: after the release, during the sleeper's wake-up
        await(plat, released);
        plat.burn_ns(6000);
        r.barger_begin = now(plat);
        m.lock();
        r.barger_end = now(plat);
        m.unlock();
      });
      plat.join_workers();
    });
    r.contended = st.contended_locks;
    return r;
  });
  REQUIRE(t.barger_begin > t.released_at);
  REQUIRE(t.barger_begin < t.released_at + cost::wake);
  CHECK(t.contended == 1);  // the sleeper's; the barger found the lock free
  CHECK(t.barger_end < t.sleeper_end);
  CHECK(t.sleeper_end >= t.released_at + cost::wake);
}

/// Worker 0 holds a lock for 5000 ns from 0; worker 1 arrives at `arrive1` inside that and
/// waits for it; worker 2, on the other socket, arrives 1000 ns before worker 1's hand-off
/// ends (the machine's hand-off: 2000 ns, to leave room for that) and, worker 1 holding on for
/// 3000 ns, waits too. Their clocks, and the contended locks.
struct handoff_times {
  std::int64_t released0, lock_begin1, lock_end1, released1, lock_begin2, lock_end2;
  std::uint64_t contended;
};
constexpr std::int64_t long_handoff = 2000;
handoff_times handoff_to_waiter(std::int64_t arrive1) {
  machine_model machine = probe_machine();
  machine.lock_handoff = double(long_handoff);
  return in_child<handoff_times>([&] {
    handoff_times r{};
    bool done1 = false;
    sim_stats st = simulate(machine, [&](sim_platform& plat) {
      sim_platform::mutex m;
      plat.start_worker(0, [&] {  // runs whole (no yield while a lock is held)
        m.lock();
        plat.burn_ns(5000);
        m.unlock();
        r.released0 = now(plat);
      });
      plat.start_worker(1, [&] {
        plat.burn_ns(std::uint64_t(arrive1));
        r.lock_begin1 = now(plat);
        m.lock();
        r.lock_end1 = now(plat);
        plat.burn_ns(3000);
        m.unlock();
        r.released1 = now(plat);
        done1 = true;
      });
      plat.start_worker(2, [&] {
        await(plat, done1);
        plat.burn_ns(std::uint64_t(r.lock_end1 - 1000 - now(plat)));
        r.lock_begin2 = now(plat);
        m.lock();
        r.lock_end2 = now(plat);
        m.unlock();
      });
      plat.join_workers();
    });
    r.contended = st.contended_locks;
    return r;
  });
}

// Were the hand-off before the span (as for a lock taken with nobody waiting), worker 2 would
// only be moved after it: no contention, no sleep (both cases fail so on that model).
TEST_CASE("a lock's hand-off to a waiter is inside its critical section: a worker arriving during it waits too") {
  handoff_times t = handoff_to_waiter(4000);  // 1000 ns before the release: contended, not asleep
  REQUIRE(t.released0 - t.lock_begin1 > 0);
  REQUIRE(t.released0 - t.lock_begin1 < cost::park);
  REQUIRE(t.lock_end1 == t.lock_begin1 + cost::park + cost::rmw + cost::same + long_handoff);  // as "just before" below
  REQUIRE(t.released1 - t.lock_begin2 > cost::park);
  CHECK(t.contended == 2);
  // worker 1 took the lock contended: its release came before its unlock's futex wake
  CHECK(t.lock_end2 == t.released1 - cost::contended_unlock + cost::wake + cost::rmw + cost::cross + long_handoff);
}

TEST_CASE("a waiter that slept in the futex takes the lock with its hand-off inside its critical section too") {
  handoff_times t = handoff_to_waiter(1000);  // 4000 ns before the release: asleep, then tries again
  REQUIRE(t.released0 - t.lock_begin1 > cost::park);
  REQUIRE(t.lock_end1 == t.released0 + cost::wake + cost::rmw + cost::same + long_handoff);  // as "sleeps" above
  REQUIRE(t.released1 - t.lock_begin2 > cost::park);
  CHECK(t.contended == 2);
  CHECK(t.lock_end2 == t.released1 - cost::contended_unlock + cost::wake + cost::rmw + cost::cross + long_handoff);
}

TEST_CASE("a lock taken just before the holder's release pays the futex wait (park), which outlasts the hold") {
  contention_times t = contend(0, 1000, 900);
  REQUIRE(t.lock_begin < t.released_at);
  REQUIRE(t.released_at - t.lock_begin < cost::park);
  CHECK(t.contended == 1);
  CHECK(t.lock_end == t.lock_begin + cost::park + cost::rmw + cost::same + cost::handoff);
  CHECK(t.unlock_cost == cost::store + cost::contended_unlock);
  CHECK(t.holder_extra == cost::contended_unlock);
}

TEST_CASE("with contended_unlock at 0 a contended lock only waits for the release") {
  machine_model m = probe_machine();
  m.contended_unlock = 0;
  contention_times t = contend(0, 1000, 900, m);
  REQUIRE(t.lock_begin < t.released_at);
  CHECK(t.contended == 1);
  CHECK(t.lock_end == t.released_at + cost::rmw + cost::same + cost::handoff);
  CHECK(t.unlock_cost == cost::store);
  CHECK(t.holder_extra == 0);
}

TEST_CASE("in coarse mode a worker holding a lock does not yield at its scheduling points") {
  // a quantum of 10 ns: a worker yields at nearly every operation, except inside the lock
  machine_model m = probe_machine();
  m.quantum_ns = 10;
  struct counts {
    std::uint64_t seen_inside;
  };
  counts c = in_child<counts>([m] {
    counts r{};
    simulate(m, [&](sim_platform& plat) {
      sim_platform::mutex mx;
      sim_platform::atomic<int> step{0};
      bool done = false;
      plat.start_worker(0, [&] {
        mx.lock();
        for (int i = 1; i <= 100; ++i) step.store(i, relaxed);  // 100 scheduling points, 2 ns each
        mx.unlock();
        done = true;
      });
      plat.start_worker(1, [&] {
        while (!done) {
          int s = step.load(relaxed);
          if (s > 0 && s < 100) ++r.seen_inside;  // worker 0 yielded inside its critical section
          plat.yield_now();
        }
      });
      plat.join_workers();
    });
    return r;
  });
  CHECK(c.seen_inside == 0);
}

TEST_CASE("a lock whose holder yielded inside its critical section blocks the taker until the release, then costs the futex wait and the hand-off") {
  struct times {
    std::int64_t released_at, lock_begin, lock_end;
    std::uint64_t blocks;
  };
  times t = in_child<times>([] {
    times r{};
    sim_stats st = simulate([&](sim_platform& plat) {
      sim_platform::mutex m;
      bool locked = false;
      plat.start_worker(0, [&] {
        m.lock();
        locked = true;
        plat.yield_now();  // the others run while the lock is held
        plat.burn_ns(1000);
        m.unlock();
        r.released_at = now(plat);
      });
      plat.start_worker(1, [&] {
        await(plat, locked);
        r.lock_begin = now(plat);
        m.lock();  // held: blocks in simulated time until worker 0 releases it
        r.lock_end = now(plat);
        m.unlock();
      });
      plat.join_workers();
    });
    r.blocks = st.blocks;
    return r;
  });
  REQUIRE(t.lock_begin < t.released_at);
  CHECK(t.blocks == 1);
  // contended: the futex wait (park) from the release, where the blocked taker runs again
  CHECK(t.lock_end == t.released_at + cost::park + cost::rmw + cost::same + cost::handoff);
}

// ---- parking ----

TEST_CASE("an unpark with nobody parked costs one RMW, and a park that finds the token costs one RMW") {
  struct times {
    std::int64_t unpark_nobody, unpark_token_set, park_own_token, unpark_from_other_core, park_other_cores_token;
  };
  times t = in_child<times>([] {
    times r{};
    simulate([&](sim_platform& plat) {
      sim_platform::parker p, q;
      bool unparked = false;
      plat.start_worker(0, [&] {
        r.unpark_nobody = timed(plat, [&] { p.unpark(); });
        r.unpark_token_set = timed(plat, [&] { p.unpark(); });
        r.park_own_token = timed(plat, [&] { p.park(); });
        await(plat, unparked);
        r.park_other_cores_token = timed(plat, [&] { q.park(); });
      });
      plat.start_worker(1, [&] {
        r.unpark_from_other_core = timed(plat, [&] { q.unpark(); });
        unparked = true;
      });
      plat.join_workers();
    });
    return r;
  });
  CHECK(t.unpark_nobody == cost::rmw);
  CHECK(t.unpark_token_set == cost::rmw);
  CHECK(t.park_own_token == cost::rmw);
  CHECK(t.unpark_from_other_core == cost::rmw);  // q's word was not written in the run yet
  CHECK(t.park_other_cores_token == cost::rmw + cost::same);  // the parker's word comes from core 1
}

TEST_CASE("a park that times out costs park, the timeout and the wake-up latency") {
  struct times {
    std::int64_t park_for;
  };
  times t = in_child<times>([] {
    times r{};
    simulate([&](sim_platform& plat) {
      sim_platform::parker p;
      plat.start_worker(0, [&] { r.park_for = timed(plat, [&] { p.park_for(10000); }); });
      plat.join_workers();
    });
    return r;
  });
  CHECK(t.park_for == cost::rmw + cost::park + 10000 + cost::wake);
}

TEST_CASE("a park that blocked counts block_cpu of its blocked time as CPU time, at most all of it, and moves no simulated time") {
  struct times {
    std::int64_t park_for, cpu_in_park, cpu_in_token_park;
  };
  auto park_with = [](double block_cpu) {
    return in_child<times>([&] {
      machine_model m = probe_machine();
      m.block_cpu = block_cpu;
      times r{};
      simulate(m, [&](sim_platform& plat) {
        sim_platform::parker p;
        plat.start_worker(0, [&] {
          std::uint64_t cpu0 = plat.cpu_ns();
          r.park_for = timed(plat, [&] { p.park_for(10000); });
          r.cpu_in_park = std::int64_t(plat.cpu_ns() - cpu0);
          p.unpark();  // the token: the next park does not block
          cpu0 = plat.cpu_ns();
          p.park();
          r.cpu_in_token_park = std::int64_t(plat.cpu_ns() - cpu0);
        });
        plat.join_workers();
      });
      return r;
    });
  };
  CHECK(probe_machine().block_cpu == cost::block_cpu);
  const times none = park_with(0), some = park_with(3000), all = park_with(1e9);
  CHECK(none.park_for == cost::rmw + cost::park + 10000 + cost::wake);
  CHECK(some.park_for == none.park_for);
  CHECK(all.park_for == none.park_for);
  CHECK(none.cpu_in_park == cost::rmw + cost::park);  // blocked from the lock on: none of it CPU
  CHECK(some.cpu_in_park == none.cpu_in_park + 3000);
  CHECK(all.cpu_in_park == all.park_for);
  CHECK(some.cpu_in_token_park == none.cpu_in_token_park);
}

TEST_CASE("with the wake-up latency's spread, each wake-up is drawn from it: its quantiles, the same draws in every run, and a spread of one value is that value") {
  struct draws {
    std::array<std::int64_t, 1500> ns;  // a short park and a short wake-up each: within the test's time limit
  };
  auto wake_ups = [](const std::vector<double>& quantiles) {
    return in_child<draws>([&] {
      machine_model m = probe_machine();
      m.wake_latency_quantiles = quantiles;
      draws r{};
      simulate(m, [&](sim_platform& plat) {
        sim_platform::parker p;
        plat.start_worker(0, [&] {
          for (auto& x : r.ns) x = timed(plat, [&] { p.park_for(1000); }) - (cost::rmw + cost::park + 1000);
        });
        plat.join_workers();
      });
      return r;
    });
  };
  const std::vector<double> q{200, 300, 400, 500, 600, 800, 2000, 5000};
  const draws a = wake_ups(q);
  CHECK(a.ns == wake_ups(q).ns);
  std::vector<std::int64_t> sorted(a.ns.begin(), a.ns.end());
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted.front() >= 200);
  CHECK(sorted.back() <= 5000);
  for (std::size_t i = 1; i + 1 < q.size(); ++i) {  // 1% and 99.9% are too rare for 1,500 draws to pin
    const double at = double(sorted[std::size_t(wake_quantile_probabilities[i] * double(sorted.size()))]);
    INFO("the draws' quantile at " << wake_quantile_probabilities[i] << ": " << at << " ns, the machine's " << q[i]);
    CHECK(std::abs(at - q[i]) <= 0.08 * q[i]);
  }
  const draws one = wake_ups(std::vector<double>(q.size(), 700));
  CHECK(std::all_of(one.ns.begin(), one.ns.end(), [](std::int64_t x) { return x == 700; }));
}

/// When worker 0, after a timed park of `first_park_ns` (none if 0), parks for good and worker 1,
/// well after, unparks it; on machine `m`.
struct wake_times {
  std::int64_t timed_out, parked_at, woken_at, unpark_begin, unpark_end;
};
wake_times park_and_unpark(const machine_model& m, std::uint64_t first_park_ns) {
  return in_child<wake_times>([&] {
    wake_times r{};
    simulate(m, [&](sim_platform& plat) {
      sim_platform::parker p;
      bool parking = false;
      plat.start_worker(0, [&] {
        if (first_park_ns) r.timed_out = timed(plat, [&] { p.park_for(first_park_ns); });
        parking = true;
        r.parked_at = now(plat);
        p.park();
        r.woken_at = now(plat);
      });
      plat.start_worker(1, [&] {
        await(plat, parking);
        plat.burn_ns(50000);
        plat.yield_now();  // pay up: worker 0 has long been blocked when the unpark comes
        r.unpark_begin = now(plat);
        p.unpark();
        r.unpark_end = now(plat);
      });
      plat.join_workers();
    });
    return r;
  });
}

TEST_CASE("a park that times out draws from the timer overshoot's spread, one that is woken from the wake-up latency's") {
  machine_model m = probe_machine();
  m.wake_latency_quantiles.assign(wake_quantile_probabilities.size(), 700);
  m.timer_late_quantiles.assign(wake_quantile_probabilities.size(), 300);
  const wake_times t = park_and_unpark(m, 1000);
  CHECK(t.timed_out == cost::rmw + cost::park + 1000 + 300);
  REQUIRE(t.parked_at < t.unpark_begin);
  CHECK(t.woken_at == t.unpark_end + 700);
}

TEST_CASE("an unpark of a parked worker costs the waker unpark, and the parked worker runs again wake_latency after it") {
  const wake_times t = park_and_unpark(probe_machine(), 0);
  REQUIRE(t.parked_at + cost::rmw + cost::park < t.unpark_begin);
  CHECK(t.unpark_end - t.unpark_begin == cost::rmw + cost::same + cost::unpark);  // the parker's word was written on core 0
  CHECK(t.woken_at == t.unpark_end + cost::wake);
}

// ---- the scheduler's hooks: migration and run-queue operations ----

TEST_CASE("moving an actor costs a transfer per line of its cell and behavior plus migration_per_kib per KiB of state, scaled by cross/same across sockets, nothing on the same core") {
  struct times {
    std::int64_t two_kib_same_socket, half_kib_same_socket, two_kib_cross_socket, same_core, core_shared_by_workers;
    std::uint64_t migrations;
  };
  times t = in_child<times>([] {
    times r{};
    sim_stats st = simulate([&](sim_platform& plat) {
      plat.start_worker(0, [&] {  // core 0; worker 1 is on core 1 (socket 0), worker 2 on core 2 (socket 1)
        r.two_kib_same_socket = timed(plat, [&] { plat.migrate_state(1, 0, 2048); });
        r.half_kib_same_socket = timed(plat, [&] { plat.migrate_state(1, 0, 512); });
        r.two_kib_cross_socket = timed(plat, [&] { plat.migrate_state(2, 0, 2048); });
        r.same_core = timed(plat, [&] { plat.migrate_state(0, 0, 2048); });
        r.core_shared_by_workers = timed(plat, [&] { plat.migrate_state(4, 0, 2048); });  // worker 4 runs on core 4 mod 4 = 0
      });
      plat.join_workers();
    });
    r.migrations = st.migrations;
    return r;
  });
  // The cell and behavior: sim_platform::actor_overhead_bytes (192), three scattered lines.
  constexpr std::int64_t cell = 3 * cost::same;
  CHECK(t.two_kib_same_socket == cell + 2 * cost::per_kib);
  CHECK(t.half_kib_same_socket == cell + cost::per_kib / 2);
  CHECK(t.two_kib_cross_socket == 3 * cost::cross + 2 * cost::per_kib * cost::cross / cost::same);
  CHECK(t.same_core == 0);
  CHECK(t.core_shared_by_workers == 0);
  CHECK(t.migrations == 3);  // only the moves between cores count
}

TEST_CASE("moving an actor whose behavior lives in its cell costs one line, not three, plus its state") {
  struct times {
    std::int64_t in_cell, apart, in_cell_cross;
  };
  times t = in_child<times>([] {
    times r{};
    simulate([&](sim_platform& plat) {
      plat.start_worker(0, [&] {
        r.in_cell = timed(plat, [&] { plat.migrate_state(1, 0, 512, behavior_at::in_cell); });
        r.apart = timed(plat, [&] { plat.migrate_state(1, 0, 512, behavior_at::apart); });
        r.in_cell_cross = timed(plat, [&] { plat.migrate_state(2, 0, 512, behavior_at::in_cell); });
      });
      plat.join_workers();
    });
    return r;
  });
  CHECK(t.in_cell == cost::same + cost::per_kib / 2);  // the cell's first line: mailbox and behavior
  CHECK(t.apart == 3 * cost::same + cost::per_kib / 2);
  CHECK(t.in_cell_cross == cost::cross + cost::per_kib / 2 * cost::cross / cost::same);
}

TEST_CASE("a run-queue operation costs queue_op") {
  struct times {
    std::int64_t one, two;
  };
  times t = in_child<times>([] {
    times r{};
    simulate([&](sim_platform& plat) {
      plat.start_worker(0, [&] {
        r.one = timed(plat, [] { sim_platform::queue_op(); });
        r.two = timed(plat, [] {
          sim_platform::queue_op();
          sim_platform::queue_op();
        });
      });
      plat.join_workers();
    });
    return r;
  });
  CHECK(t.one == cost::queue_op);
  CHECK(t.two == 2 * cost::queue_op);
}

TEST_CASE("an operation on a lock-guarded run queue costs locked_queue_op, not queue_op") {
  std::int64_t t = in_child<std::int64_t>([] {
    std::int64_t r = 0;
    simulate([&](sim_platform& plat) {
      plat.start_worker(0, [&] { r = timed(plat, [] { sim_platform::queue_op(queue_kind::locked); }); });
      plat.join_workers();
    });
    return r;
  });
  CHECK(t == cost::locked_queue_op);
}

TEST_CASE("an actor touched again after its core touched more actors than its cache holds costs cold_actor") {
  // The probe's cache holds 16 footprints of actors with 64 declared bytes (cost::private_cache_kib).
  struct times {
    std::int64_t first, again, after_15_others, after_400_touches_of_4, after_17_others, other_core_recent,
        big_state_after_2;
  };
  times t = in_child<times>([] {
    times r{};
    simulate([&](sim_platform& plat) {
      plat.start_worker(0, [&] {
        auto others = [&](std::uint32_t from, std::uint32_t n) {
          for (std::uint32_t i = 0; i < n; ++i) plat.touch_state(from + i, 64);
        };
        r.first = timed(plat, [&] { plat.touch_state(1, 64); });  // never touched: cold
        r.again = timed(plat, [&] { plat.touch_state(1, 64); });
        others(100, 15);  // 15 actors since: 15 x 256 bytes fit in 4 KiB
        r.after_15_others = timed(plat, [&] { plat.touch_state(1, 64); });
        for (int k = 0; k < 100; ++k) others(300, 4);  // 400 touches, but of 4 actors: they fit
        r.after_400_touches_of_4 = timed(plat, [&] { plat.touch_state(1, 64); });
        others(200, 17);  // 17 x 256 do not
        r.after_17_others = timed(plat, [&] { plat.touch_state(1, 64); });
        // 2 KiB of state: a footprint of 2240 bytes, so one more such actor overflows 4 KiB
        plat.touch_state(2, 2048);
        plat.touch_state(3, 2048);
        plat.touch_state(4, 2048);
        r.big_state_after_2 = timed(plat, [&] { plat.touch_state(2, 2048); });
      });
      plat.join_workers();
      plat.start_worker(1, [&] {  // worker 1, core 1: actor 2 is still in core 0's cache
        r.other_core_recent = timed(plat, [&] { plat.touch_state(2, 2048); });
      });
      plat.join_workers();
    });
    return r;
  });
  CHECK(t.first == cost::cold_actor);
  CHECK(t.again == 0);
  CHECK(t.after_15_others == 0);
  CHECK(t.after_400_touches_of_4 == 0);  // distinct actors fill a cache, not touches
  CHECK(t.after_17_others == cost::cold_actor);
  CHECK(t.big_state_after_2 == cost::cold_actor);
  CHECK(t.other_core_recent == 0);  // the line transfers are the atomics' charge
}

TEST_CASE("a push touches an actor's cell only: the turn after it still misses on the behavior, once") {
  // fanout-idle's shape: a push into a long-untouched actor, its turn soon after. The cell
  // came in with the push; the behavior object did not (sim_platform.cpp, touch_state).
  struct times {
    std::int64_t push, turn_after_push, turn_again, push_warm;
  };
  times t = in_child<times>([] {
    times r{};
    simulate([&](sim_platform& plat) {
      plat.start_worker(0, [&] {
        plat.touch_state(1, 64, touch_at::turn);
        for (std::uint32_t i = 0; i < 17; ++i) plat.touch_state(100 + i, 64, touch_at::turn);  // 17 x 256 B: 1 left
        r.push = timed(plat, [&] { plat.touch_state(1, 64, touch_at::push); });
        r.turn_after_push = timed(plat, [&] { plat.touch_state(1, 64, touch_at::turn); });
        r.turn_again = timed(plat, [&] { plat.touch_state(1, 64, touch_at::turn); });
        r.push_warm = timed(plat, [&] { plat.touch_state(1, 64, touch_at::push); });
      });
      plat.join_workers();
    });
    return r;
  });
  CHECK(t.push == cost::cold_actor);
  CHECK(t.turn_after_push == cost::cold_actor);  // as one unit with the cell, this was 0
  CHECK(t.turn_again == 0);
  CHECK(t.push_warm == 0);
}

TEST_CASE("an envelope's write is free, its read after the cache turned over costs memory_load") {
  // stealing on fanout-idle: a LIFO deque buries a message under many newer ones, and its
  // envelope has left the cache when its turn reads it (sim_platform.cpp, touch_message): a
  // link of the mailbox's list, a load nothing overlaps.
  struct times {
    std::int64_t first_write, read_soon, read_again, write_again, read_after_17_actors;
  };
  times t = in_child<times>([] {
    times r{};
    simulate([&](sim_platform& plat) {
      plat.start_worker(0, [&] {
        r.first_write = timed(plat, [&] { plat.touch_message(5, touch_at::push); });  // a fresh slab's line
        r.read_soon = timed(plat, [&] { plat.touch_message(5, touch_at::turn); });
        r.read_again = timed(plat, [&] { plat.touch_message(5, touch_at::turn); });
        r.write_again = timed(plat, [&] { plat.touch_message(5, touch_at::push); });
        for (std::uint32_t i = 0; i < 17; ++i) plat.touch_state(100 + i, 64, touch_at::turn);  // 17 x 256 B: 4 KiB turned over
        r.read_after_17_actors = timed(plat, [&] { plat.touch_message(5, touch_at::turn); });
      });
      plat.join_workers();
    });
    return r;
  });
  CHECK(t.first_write == 0);  // the store buffer hides a write's miss
  CHECK(t.read_soon == 0);
  CHECK(t.read_again == 0);
  CHECK(t.write_again == 0);
  CHECK(t.read_after_17_actors == cost::memory_load);  // envelopes share the actors' cache
}

TEST_CASE("adjacent envelopes read from memory with no other miss between cost stream_load, others memory_load") {
  // count's million messages to one actor: read in the order sent, slots walk down within a
  // pool's batch and up across batches, and the prefetcher streams them (sim_platform.cpp,
  // touch_message). A gap starts a new run, and so does a miss on an actor between two reads
  // (fanout-idle's one message per cold actor). Each core has its own run.
  struct times {
    std::int64_t first, next, next_again, other_core_between, gap, down_first, down_next, after_actor_miss,
        without_stream_load;
  };
  auto evict = [](sim_platform& plat, std::uint32_t from) {  // 17 x 256 B: the 4 KiB private cache turned over
    for (std::uint32_t i = 0; i < 17; ++i) plat.touch_state(from + i, 64, touch_at::turn);
  };
  times t = in_child<times>([&] {
    times r{};
    simulate([&](sim_platform& plat) {
      bool first_done = false, other_done = false;
      plat.start_worker(0, [&] {
        for (std::uint32_t s : {10, 11, 12, 13, 20, 31, 30, 29}) plat.touch_message(s, touch_at::push);
        evict(plat, 100);
        r.first = timed(plat, [&] { plat.touch_message(10, touch_at::turn); });
        r.next = timed(plat, [&] { plat.touch_message(11, touch_at::turn); });
        r.next_again = timed(plat, [&] { plat.touch_message(12, touch_at::turn); });
        first_done = true;
        await(plat, other_done);  // worker 1 missed on actors and an envelope meanwhile: its own core
        r.other_core_between = timed(plat, [&] { plat.touch_message(13, touch_at::turn); });
        r.gap = timed(plat, [&] { plat.touch_message(20, touch_at::turn); });
        r.down_first = timed(plat, [&] { plat.touch_message(31, touch_at::turn); });
        r.down_next = timed(plat, [&] { plat.touch_message(30, touch_at::turn); });
        plat.touch_state(999, 64, touch_at::turn);  // never touched: a miss
        r.after_actor_miss = timed(plat, [&] { plat.touch_message(29, touch_at::turn); });
      });
      plat.start_worker(1, [&] {
        await(plat, first_done);
        plat.touch_message(500, touch_at::push);
        evict(plat, 300);
        plat.touch_message(500, touch_at::turn);
        other_done = true;
      });
      plat.join_workers();
    });
    return r;
  });
  t.without_stream_load = in_child<std::int64_t>([] {
    machine_model m = probe_machine();
    m.stream_load = 0;  // files written before it: every read from memory is memory_load
    std::int64_t r = 0;
    simulate(m, [&](sim_platform& plat) {
      plat.start_worker(0, [&] {
        plat.touch_message(10, touch_at::push);
        plat.touch_message(11, touch_at::push);
        for (std::uint32_t i = 0; i < 17; ++i) plat.touch_state(100 + i, 64, touch_at::turn);
        plat.touch_message(10, touch_at::turn);
        r = timed(plat, [&] { plat.touch_message(11, touch_at::turn); });
      });
      plat.join_workers();
    });
    return r;
  });
  CHECK(t.first == cost::memory_load);
  CHECK(t.next == cost::stream_load);
  CHECK(t.next_again == cost::stream_load);
  CHECK(t.other_core_between == cost::stream_load);
  CHECK(t.gap == cost::memory_load);
  CHECK(t.down_first == cost::memory_load);
  CHECK(t.down_next == cost::stream_load);
  CHECK(t.after_actor_miss == cost::memory_load);
  CHECK(t.without_stream_load == cost::memory_load);
}

TEST_CASE("a miss on the actor next to the one missed last costs stream_load a line and keeps an envelope run going") {
  // fjcreate's shape: actors spawned one after another lie one after another in the arena,
  // and turns in the reverse order of their spawning walk down them (sim_platform.cpp,
  // touch_state). A turn's footprint is 192 bytes + 64 of state: 4 lines.
  struct times {
    std::int64_t first, next_actor, its_envelope, down, far_actor, envelope_after_far;
  };
  times t = in_child<times>([] {
    times r{};
    simulate([&](sim_platform& plat) {
      plat.start_worker(0, [&] {
        for (std::uint32_t s : {40, 41, 42}) plat.touch_message(s, touch_at::push);
        for (std::uint32_t i = 0; i < 17; ++i) plat.touch_state(100 + i, 64, touch_at::turn);  // the cache turned over
        r.first = timed(plat, [&] { plat.touch_state(10, 64, touch_at::turn); });
        plat.touch_message(40, touch_at::turn);
        r.next_actor = timed(plat, [&] { plat.touch_state(11, 64, touch_at::turn); });
        r.its_envelope = timed(plat, [&] { plat.touch_message(41, touch_at::turn); });
        r.down = timed(plat, [&] { plat.touch_state(9, 64, touch_at::turn); });  // 11, then 9: not next to it
        r.far_actor = timed(plat, [&] { plat.touch_state(500, 64, touch_at::turn); });
        r.envelope_after_far = timed(plat, [&] { plat.touch_message(42, touch_at::turn); });
      });
      plat.join_workers();
    });
    return r;
  });
  CHECK(t.first == cost::cold_actor);
  CHECK(t.next_actor == 4 * cost::stream_load);
  CHECK(t.its_envelope == cost::stream_load);  // the actor's stream did not end the envelopes'
  CHECK(t.down == cost::cold_actor);
  CHECK(t.far_actor == cost::cold_actor);
  CHECK(t.envelope_after_far == cost::memory_load);
}

TEST_CASE("a message's data read on another core costs migration_per_kib a KiB, scaled across sockets, nothing on its own core") {
  // context::send_data: apsp's rows and columns, quicksort's lists (platform.hpp 14b). Workers
  // 0 and 1 share socket 0; worker 2 is on socket 1.
  struct times {
    std::int64_t push, same_core, other_core, other_socket, driver_sent;
  };
  times t = in_child<times>([] {
    times r{};
    simulate([&](sim_platform& plat) {
      bool sent = false, read1 = false;
      plat.touch_data(9, 4096, touch_at::push);  // the driver's (a workload's start): before the run
      plat.start_worker(0, [&] {
        r.push = timed(plat, [&] {
          plat.touch_data(7, 4096, touch_at::push);
          plat.touch_data(8, 4096, touch_at::push);
        });
        r.same_core = timed(plat, [&] { plat.touch_data(7, 4096, touch_at::turn); });
        sent = true;
      });
      plat.start_worker(1, [&] {
        await(plat, sent);
        r.other_core = timed(plat, [&] { plat.touch_data(8, 4096, touch_at::turn); });
        r.driver_sent = timed(plat, [&] { plat.touch_data(9, 4096, touch_at::turn); });
        read1 = true;
      });
      plat.start_worker(2, [&] {
        await(plat, read1);
        r.other_socket = timed(plat, [&] { plat.touch_data(8, 4096, touch_at::turn); });
      });
      plat.join_workers();
    });
    return r;
  });
  CHECK(t.push == 0);
  CHECK(t.same_core == 0);
  CHECK(t.other_core == 4 * cost::per_kib);
  CHECK(t.other_socket == 4 * cost::per_kib * cost::cross / cost::same);
  CHECK(t.driver_sent == 0);
}

TEST_CASE("without memory_load an envelope read from memory costs cold_actor, and a shared level with llc_actor 0 is still a level") {
  // Files written before memory_load existed keep their meaning. A calibration whose shared-
  // level ring ran no slower than simulated (llc_actor 0) keeps the level: a hit there is free.
  struct times {
    std::int64_t envelope_from_memory, actor_from_shared, envelope_from_shared;
  };
  times t = in_child<times>([] {
    times r{};
    machine_model m = probe_machine();
    m.memory_load = 0;
    m.stream_load = 0;  // nor this, written later still
    m.llc_actor = 0;
    m.shared_cache_kib = 16;
    simulate(m, [&](sim_platform& plat) {
      plat.start_worker(0, [&] {
        plat.touch_message(5, touch_at::push);
        plat.touch_state(1, 64);
        for (std::uint32_t i = 0; i < 17; ++i) plat.touch_state(100 + i, 64, touch_at::turn);  // out of the private cache
        r.actor_from_shared = timed(plat, [&] { plat.touch_state(1, 64); });
        r.envelope_from_shared = timed(plat, [&] { plat.touch_message(5, touch_at::turn); });
        plat.touch_message(6, touch_at::push);
        for (std::uint32_t i = 0; i < 70; ++i) plat.touch_state(200 + i, 64, touch_at::turn);  // out of both
        r.envelope_from_memory = timed(plat, [&] { plat.touch_message(6, touch_at::turn); });
      });
      plat.join_workers();
    });
    return r;
  });
  CHECK(t.actor_from_shared == 0);
  CHECK(t.envelope_from_shared == 0);
  CHECK(t.envelope_from_memory == cost::cold_actor);
}

TEST_CASE("an actor out of the private cache but in the shared one costs llc_actor") {
  // The probe's private cache holds 16 footprints of 256 bytes; a shared cache of 16 KiB
  // holds 64, for every core.
  struct times {
    std::int64_t first, after_17_others, after_70_others, other_core_after_17, again;
  };
  times t = in_child<times>([] {
    times r{};
    machine_model m = probe_machine();
    m.shared_cache_kib = 16;
    simulate(m, [&](sim_platform& plat) {
      plat.start_worker(0, [&] {
        auto others = [&](std::uint32_t from, std::uint32_t n) {
          for (std::uint32_t i = 0; i < n; ++i) plat.touch_state(from + i, 64);
        };
        r.first = timed(plat, [&] { plat.touch_state(1, 64); });  // in no cache: memory
        others(100, 17);                                           // out of the private cache, not the shared
        r.after_17_others = timed(plat, [&] { plat.touch_state(1, 64); });
        others(200, 70);                                           // out of both
        r.after_70_others = timed(plat, [&] { plat.touch_state(1, 64); });
        plat.touch_state(2, 64);
        others(300, 17);
      });
      plat.join_workers();
      plat.start_worker(1, [&] {  // core 1: actor 2 left core 0's private cache, the shared one holds it
        r.other_core_after_17 = timed(plat, [&] { plat.touch_state(2, 64); });
        r.again = timed(plat, [&] { plat.touch_state(2, 64); });
      });
      plat.join_workers();
    });
    return r;
  });
  CHECK(t.first == cost::cold_actor);
  CHECK(t.after_17_others == cost::llc_actor);
  CHECK(t.after_70_others == cost::cold_actor);
  CHECK(t.other_core_after_17 == cost::llc_actor);  // shared by every core
  CHECK(t.again == 0);
}

TEST_CASE("without private_cache_kib no touch costs anything") {
  std::int64_t t = in_child<std::int64_t>([] {
    std::int64_t r = -1;
    machine_model m = probe_machine();
    m.private_cache_kib = 0;
    sim_config c;
    c.cores = 2;
    sim_platform plat(m, c);
    plat.run([&] {
      plat.start_worker(0, [&] { r = timed(plat, [&] { plat.touch_state(1, 64); }); });
      plat.join_workers();
    });
    return r;
  });
  CHECK(t == 0);
}

// ---- idle loops and charged work ----

TEST_CASE("each of the runtime's own operations costs its term: message, turn, envelope, mailbox push and pop") {
  struct times {
    std::int64_t message, turn, envelope, push, pop, all;
  };
  times t = in_child<times>([] {
    times r{};
    simulate([&](sim_platform& plat) {
      plat.start_worker(0, [&] {
        r.message = timed(plat, [] { sim_platform::runtime_work(runtime_op::message); });
        r.turn = timed(plat, [] { sim_platform::runtime_work(runtime_op::turn); });
        r.envelope = timed(plat, [] { sim_platform::runtime_work(runtime_op::envelope); });
        r.push = timed(plat, [] { sim_platform::runtime_work(runtime_op::mailbox_push); });
        r.pop = timed(plat, [] { sim_platform::runtime_work(runtime_op::mailbox_pop); });
        r.all = timed(plat, [] {
          for (unsigned k = 0; k < runtime_op_count; ++k) sim_platform::runtime_work(runtime_op(k));
        });
      });
      plat.join_workers();
    });
    return r;
  });
  CHECK(t.message == cost::message);
  CHECK(t.turn == cost::turn);
  CHECK(t.envelope == cost::envelope);
  CHECK(t.push == cost::mailbox_push);
  CHECK(t.pop == cost::mailbox_pop);
  CHECK(t.all == cost::message + cost::turn + cost::envelope + cost::mailbox_push + cost::mailbox_pop);
}

TEST_CASE("the worker loop charges message per message and turn per turn, on top of everything else") {
  // pingpong on one worker and one core: the worker never idles until the end, so its
  // simulated time is the sum of its charges, and raising one term by 1000 ns adds exactly
  // 1000 ns per time models/worker.hpp charges it.
  auto simulate_with = [](const std::string& key, std::int64_t ns) {
    std::string text = probe_machine_text();
    auto at = text.find("\n" + key + "_ns = ");
    REQUIRE(at != std::string::npos);
    auto end = text.find('\n', at + 1);
    text.replace(at + 1, end - at - 1, key + "_ns = " + std::to_string(ns));
    std::string path = "cost-probe-" + key + ".toml";
    {
      std::FILE* f = std::fopen(path.c_str(), "w");
      REQUIRE(f);
      std::fputs(text.c_str(), f);
      std::fclose(f);
    }
    scenario s;
    s.workload = "pingpong";
    s.workload_params = {{"bounces", std::int64_t(500)}};
    s.sched.workers = 1;
    s.sched.idle.strategy = "park";
    sim_options o;
    o.cores = 1;
    o.machine = path;
    sim_result r = twinsched::simulate(s, o);
    std::remove(path.c_str());
    REQUIRE(r.ok());
    return r;
  };
  sim_result base = simulate_with("message", cost::message);
  sim_result more_message = simulate_with("message", cost::message + 1000);
  sim_result more_turn = simulate_with("turn", cost::turn + 1000);
  std::uint64_t turns = 0;
  for (auto& w : base.run.per_worker) turns += w.turns;
  REQUIRE(base.run.messages == 500);
  CHECK(turns > 0);
  CHECK(std::abs((more_message.sim_s - base.sim_s) * 1e9 - 1000.0 * double(base.run.messages)) < 1);
  CHECK(std::abs((more_turn.sim_s - base.sim_s) * 1e9 - 1000.0 * double(turns)) < 1);
}

TEST_CASE("a spin-loop iteration costs spin, a yield costs yield, and burn_ns and charge_ns cost what they are asked") {
  struct times {
    std::int64_t spin, yield, burn, charge;
  };
  times t = in_child<times>([] {
    times r{};
    simulate([&](sim_platform& plat) {
      plat.start_worker(0, [&] {
        r.spin = timed(plat, [&] { plat.spin_pause(); });
        r.yield = timed(plat, [&] { plat.yield_now(); });  // pays at once: the reading after it is the simulated clock
        r.burn = timed(plat, [&] { plat.burn_ns(1234); });
        r.charge = timed(plat, [&] { plat.charge_ns(77); });
      });
      plat.join_workers();
    });
    return r;
  });
  CHECK(t.spin == cost::spin);
  CHECK(t.yield == cost::yield);
  CHECK(t.burn == 1234 + cost::burn_call);  // burn_call: the real loop's fixed cost per call
  CHECK(t.charge == 77);
}

// ---- paying: how charges become simulated time ----

TEST_CASE("a run ends when its workers' costs are paid in full: sim_ns is the busiest worker's charged cost") {
  struct times {
    double sim_ns;
    std::int64_t driver_after_join;
  };
  times t = in_child<times>([] {
    times r{};
    sim_stats st = simulate([&](sim_platform& plat) {
      plat.start_worker(0, [&] {
        plat.burn_ns(12000);
        plat.queue_op();
      });
      plat.start_worker(1, [&] { plat.burn_ns(3000); });
      plat.join_workers();
      r.driver_after_join = now(plat);  // the driver reads the simulated clock itself
    });
    r.sim_ns = st.sim_ns;
    return r;
  });
  CHECK(t.driver_after_join == 12000 + cost::burn_call + cost::queue_op);
  // The engine's clock is a double in seconds: 12029 ns comes back within rounding error.
  CHECK(std::abs(t.sim_ns - double(12000 + cost::burn_call + cost::queue_op)) < 1e-6);
}

TEST_CASE("payments that would end at one instant on three cores end 3 ns apart, in the order they were dated") {
  // Three workers start together and pay the same charge: SimGrid would end the three sleeps
  // in one solve, in an order of its heap's. The model makes each end 3 ns (three SimGrid
  // precisions) after the one dated before it (cost_model.cpp, clear_of_ties).
  using ends = std::array<double, 3>;
  ends e = in_child<ends>([] {
    ends r{};
    simulate([&](sim_platform& plat) {
      for (unsigned w = 0; w < 3; ++w)
        plat.start_worker(w, [&plat, &r, w] {
          plat.burn_ns(1000);
          plat.yield_now();  // pays burn_call + 1000 + yield
          r[w] = double(plat.now_ns());
        });
      plat.join_workers();
    });
    return r;
  });
  const double paid = cost::burn_call + 1000 + cost::yield;
  CHECK(e[0] == doctest::Approx(paid).epsilon(1e-9));
  CHECK(e[1] == doctest::Approx(paid + 3).epsilon(1e-9));
  CHECK(e[2] == doctest::Approx(paid + 6).epsilon(1e-9));
}

TEST_CASE("a worker still running when its run is aborted halts at its next scheduling point") {
  // The quantum is a simulated second, so only the abort can make that point yield.
  struct seen {
    bool aborted, after_store;
  };
  seen s = in_child<seen>([] {
    seen r{};
    sim_config c;
    c.time_limit_s = 0.01;
    sim_platform plat(probe_machine(), c);
    plat.run([&] {
      sim_platform::atomic<int> x;
      plat.start_worker(0, [&] {
        x.store(1, relaxed);
        plat.abort_run("stopped by the test");
        x.store(2, relaxed);  // a scheduling point: the worker never returns from it
        r.after_store = true;
      });
      plat.join_workers();
    });
    r.aborted = plat.stats().aborted;
    return r;
  });
  CHECK(s.aborted);
  CHECK_FALSE(s.after_store);
}

TEST_CASE("where a worker yields does not lock in step with a loop whose iterations cost the same") {
  // Worker 0 repeats: show a flag, 10 ns of work, hide it, 90 ns of work; each charge is a
  // point where it may yield. Worker 1 polls the flag: it sees worker 0's memory as it stood
  // where worker 0 last yielded. With the quantum (100 ns) as a fixed threshold, every yield
  // came after the 90 ns, the flag hidden: the poller never saw it. Drawn thresholds put
  // about a tenth of the yields inside the 10 ns, as time would.
  struct counts {
    std::int64_t samples, seen, yields;
  };
  counts c = in_child<counts>([] {
    counts r{};
    machine_model m = probe_machine();
    m.quantum_ns = 100;
    sim_stats st = simulate(m, [&](sim_platform& plat) {
      bool shown = false, done = false;
      plat.start_worker(0, [&] {
        for (int i = 0; i < 4000; ++i) {
          shown = true;
          plat.charge_ns(10);
          shown = false;
          plat.charge_ns(90);
        }
        done = true;
      });
      plat.start_worker(1, [&] {
        while (!done) {
          ++r.samples;
          r.seen += shown;
          plat.spin_pause();
        }
      });
      plat.join_workers();
    });
    r.yields = std::int64_t(st.flushes);
    return r;
  });
  INFO("samples " << c.samples << ", flag seen " << c.seen << ", yields " << c.yields);
  REQUIRE(c.samples > 1000);
  double seen = double(c.seen) / double(c.samples);
  CHECK(seen > 0.04);
  CHECK(seen < 0.2);
}

TEST_CASE("two workers sharing a core pay their costs at half the core's speed each") {
  struct times {
    std::int64_t begin_0, end_0, begin_4, end_4, begin_alone, end_alone;
  };
  times t = in_child<times>([] {
    times r{};
    simulate([&](sim_platform& plat) {
      // Each worker pays once before its window: worker 0 may run (and pay, unshared) before
      // the driver has created worker 4, so only after that first payment do both exist.
      auto body = [&plat](std::int64_t& begin, std::int64_t& end) {
        plat.yield_now();
        begin = now(plat);
        plat.burn_ns(1000);
        plat.yield_now();  // 1000 + yield ns to pay, in cycles on a core shared with another payer
        end = now(plat);
      };
      plat.start_worker(0, [&] { body(r.begin_0, r.end_0); });      // core 0
      plat.start_worker(4, [&] { body(r.begin_4, r.end_4); });      // core 4 mod 4 = 0
      plat.start_worker(1, [&] { body(r.begin_alone, r.end_alone); });  // core 1, alone
      plat.join_workers();
    });
    return r;
  });
  constexpr std::int64_t charge = 1000 + cost::burn_call + cost::yield;
  REQUIRE(t.begin_0 == t.begin_4);  // both pay over the same interval
  CHECK(t.end_alone - t.begin_alone == charge);
  CHECK(t.end_0 - t.begin_0 == 2 * charge);
  CHECK(t.end_4 - t.begin_4 == 2 * charge);
}

TEST_SUITE_END();
