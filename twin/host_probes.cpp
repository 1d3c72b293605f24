#include "twin/host_probes.hpp"

#include <pthread.h>
#include <sched.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <random>
#include <string>

namespace twinsched::calib {

void pin(int cpu) {
  cpu_set_t s;
  CPU_ZERO(&s);
  CPU_SET(cpu % int(std::max(1u, std::thread::hardware_concurrency())), &s);
  pthread_setaffinity_np(pthread_self(), sizeof s, &s);
}

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

void unpin() {
  cpu_set_t s;
  CPU_ZERO(&s);
  for (unsigned c = 0; c < std::max(1u, std::thread::hardware_concurrency()); ++c) CPU_SET(c, &s);
  pthread_setaffinity_np(pthread_self(), sizeof s, &s);
}

std::vector<std::size_t> random_cycle(std::size_t n) {
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::shuffle(order.begin() + 1, order.end(), std::mt19937(1));
  return order;
}

void link_cycle(std::vector<chain_link>& chain, const std::vector<std::size_t>& order) {
  for (std::size_t i = 0; i < order.size(); ++i) chain[order[i]].next = &chain[order[(i + 1) % order.size()]];
}

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

double stream_load_ns() {
  const std::size_t n = std::size_t(128) << 20 >> 6;
  std::vector<chain_link> chain(n);
  for (std::size_t i = 0; i < n; ++i) chain[i].next = &chain[(i + 1) % n];
  constexpr int steps = 200'000;
  double least = std::numeric_limits<double>::infinity();
  const chain_link* p = &chain[0];
  for (int pass = 0; pass < 3; ++pass) {
    for (std::size_t i = 0; i < n / 2; ++i) p = p->next;  // half a lap: what lies ahead left the caches
    const auto t0 = clk::now();
    for (int i = 0; i < steps; ++i) p = p->next;
    asm volatile("" : : "r"(p));
    least = std::min(least, ns_since(t0) / steps);
  }
  return least;
}

}  // namespace twinsched::calib
