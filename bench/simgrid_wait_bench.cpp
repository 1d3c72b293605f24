// The floor under the simulator's speed: what SimGrid itself costs per wait, with nothing of twinsched's in it.
//
// The simulated platform pays a worker's pending charges with one simcall (sim/cost_model.cpp:
// flush), about one per simulated quantum per busy worker. This program measures that simcall
// alone: 4 actors on 4 single-core hosts, each waiting ITERS/4 times for ~1 us of simulated
// time, by sleep_for (what flush does) and by a kernel timer that resumes a suspended actor
// (the cheapest other wait S4U offers). Prints real ns per wait, median of REPEATS in-process
// repetitions of each, alternated.
//
// usage: twinsched-simgrid-wait-bench [ITERS (default 250000)] [REPEATS (default 5)]
#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u.hpp>
#include <simgrid/simix.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace sg = simgrid::s4u;

namespace {

enum class wait_kind { sleep_for, timer_resume };

/// Real seconds for `iters` waits of `kind` spread over the hosts' actors.
double measure(wait_kind kind, long iters, const std::vector<sg::Host*>& hosts) {
  const long each = iters / long(hosts.size());
  for (std::size_t w = 0; w < hosts.size(); ++w)
    sg::Actor::create("waiter", hosts[w], [kind, each, w] {
      const double d = double(1000 + 37 * w) * 1e-9;  // unequal, so the waits interleave
      for (long i = 0; i < each; ++i) {
        if (kind == wait_kind::sleep_for) {
          sg::this_actor::sleep_for(d);
        } else {
          sg::Actor* self = sg::Actor::self();
          simgrid::kernel::actor::simcall_answered(
              [self, d] { simgrid::kernel::timer::Timer::set(sg::Engine::get_clock() + d, [self] { self->resume(); }); });
          sg::this_actor::suspend();
        }
      }
    });
  const auto t0 = std::chrono::steady_clock::now();
  sg::Engine::get_instance()->run();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  const long iters = argc > 1 ? std::atol(argv[1]) : 250'000;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 5;
  if (iters < 4 || repeats < 1) {
    std::fprintf(stderr, "usage: %s [ITERS >= 4] [REPEATS >= 1]\n", argv[0]);
    return 2;
  }
  static char name[] = "simgrid-wait-bench", factory[] = "--cfg=contexts/factory:raw", log[] = "--log=root.thresh:critical";
  static char* av[] = {name, factory, log, nullptr};
  int ac = 3;
  sg::Engine engine(&ac, av);
  sg::NetZone* zone = sg::create_full_zone("machine");
  std::vector<sg::Host*> hosts;
  for (int i = 0; i < 4; ++i) hosts.push_back(zone->create_host("core-" + std::to_string(i), 1e9));
  zone->seal();
  std::vector<double> sleep_ns, timer_ns;
  for (int r = 0; r < repeats; ++r) {
    sleep_ns.push_back(measure(wait_kind::sleep_for, iters, hosts) / double(iters) * 1e9);
    timer_ns.push_back(measure(wait_kind::timer_resume, iters, hosts) / double(iters) * 1e9);
  }
  auto report = [](const char* what, std::vector<double> v) {
    std::sort(v.begin(), v.end());
    std::printf("%-28s %7.0f ns per wait (min %.0f, max %.0f)\n", what, v[v.size() / 2], v.front(), v.back());
  };
  report("sleep_for (flush's simcall)", sleep_ns);
  report("kernel timer + suspend", timer_ns);
}
