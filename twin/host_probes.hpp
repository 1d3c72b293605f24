// Host probes: pinning threads to CPUs, what sysfs and CPUID say about the CPUs and caches, and the
// two-thread and one-thread walks that measure line transfers and cache levels (calibration).
#pragma once
#include <atomic>
#include <cstdint>
#include <thread>
#include <utility>
#include <vector>

#include "twin/batch_stats.hpp"

namespace twinsched::calib {

/// Pins the calling thread to `cpu` (modulo the CPUs there are).
void pin(int cpu);
/// Lets the calling thread run on every CPU again (after pin()).
void unpin();

/// The CPU the two-thread measurements pair with CPU 0: the first that is not CPU 0's SMT
/// sibling (sysfs thread_siblings_list, "0,8" or "0-1"), since two hardware threads of one
/// core share its L1 and L2 and a line between them never crosses cores; CPU 1 where sysfs
/// says nothing or every CPU is a sibling.
int partner_cpu();

struct alignas(64) line {
  std::atomic<std::uint64_t> v{0};
};

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
std::vector<std::size_t> random_cycle(std::size_t n);

/// Links `chain` into one cycle visiting its lines in `order` (writes every line).
void link_cycle(std::vector<chain_link>& chain, const std::vector<std::size_t>& order);

/// One line transfer as the model charges it: CPU 0 writes a chain of `lines` lines in a
/// random order, then the partner CPU follows it (each load needs the line the previous one named, so
/// the misses cannot overlap), then follows it again from its own cache. Per batch: (the
/// first walk - the second) / lines, the time a load waits for a line the other core holds.
/// Not the ping-pong's one way (`bounce`): two spinning threads add the spin loop's exit and an
/// invalidation to every trip, which the model charges as spin or not at all.
std::vector<double> chase(int batches, int lines);

/// The size of cpu0's level-2 cache in KiB, from sysfs, else (a VM whose kernel lists no
/// caches there) from CPUID's extended leaf 0x80000006, which AMD and Intel both fill; 0 if
/// neither says.
std::uint32_t private_cache_kib();

/// The shared cache as a random walk finds it, KiB: one thread follows a chain of lines in
/// random order over working sets of 2, 4, 8, ... times `private_kib` up to 128 MiB; the
/// largest set whose time per load stays within a quarter of the way from the first set's to
/// the last's (memory). A VM's CPUID names the host's whole L3, not the share this VM's core
/// finds. 0 when no set is below the bar. `latency` gets (KiB, ns per load) of every set: the least of three passes over all
/// the sets, since other tenants on the host's L3 only ever slow a walk, for seconds at a time
/// (with one pass each, calibrations disagreed widely on a set's latency; a pass that leaves
/// only the 2 MiB set below its bar drops the level).
std::uint32_t shared_cache_kib(std::uint32_t private_kib, std::vector<std::pair<std::uint32_t, double>>& latency);

/// A load from memory whose line follows the last one in address order, as a turn reads the
/// next of a burst of queued envelopes: one thread follows a chain of lines linked in
/// ascending order over 128 MiB (past every cache; each load's address in the line before,
/// as a mailbox's links are), ns per load, the least of three passes (other tenants only slow it).
double stream_load_ns();

}  // namespace twinsched::calib
