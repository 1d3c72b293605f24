// Calibration as a library, without measuring anything: the machine file it writes reads back to
// the same terms, its batch statistics, and the check that two line transfers are one host state.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "sim/machine_model.hpp"
#include "twin/batch_stats.hpp"
#include "twin/calibrate.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;

namespace {

/// Every cost a machine file carries, each given a value of its own below, so that a term written
/// under another's key reads back wrong.
constexpr double machine_model::*costs[] = {
    &machine_model::atomic_load,      &machine_model::atomic_store,     &machine_model::atomic_rmw,
    &machine_model::fence,            &machine_model::line_same_socket, &machine_model::line_cross_socket,
    &machine_model::migration_per_kib, &machine_model::lock_handoff,    &machine_model::contended_unlock,
    &machine_model::queue_op,         &machine_model::locked_queue_op,  &machine_model::park,
    &machine_model::unpark,           &machine_model::wake_latency,     &machine_model::spin,
    &machine_model::yield,            &machine_model::message,          &machine_model::turn,
    &machine_model::envelope,         &machine_model::mailbox_push,     &machine_model::mailbox_pop,
    &machine_model::burn_call,        &machine_model::cold_actor,       &machine_model::llc_actor,
    &machine_model::memory_load,      &machine_model::stream_load,      &machine_model::block_cpu};

calibration measured() {
  calibration c;
  machine_model& m = c.model;
  m.name = "test-box";
  m.cores_per_socket = 6;
  m.clock_ghz = 2.75;
  m.private_cache_kib = 512;
  m.shared_cache_kib = 8192;
  m.quantum_ns = 2000;
  for (std::size_t i = 0; i < std::size(costs); ++i) m.*costs[i] = 1.5 + double(i) * 2.25;  // exact at %.3f
  m.kernels["pi_term"] = 0.875;
  m.wake_latency_quantiles = {900, 1200, 1500, 2000, 2600, 4100, 15000, 61000};
  m.timer_late_quantiles = {3000, 4000, 5000, 6000, 7000, 9000, 30000, 90000};
  c.notes = {"atomic_load: a dependent chain, 1.500 ns", "turn: the ring, simulated against real"};
  return c;
}

}  // namespace

TEST_CASE("the machine file calibration writes reads back to every term it measured") {
  const calibration c = measured();
  const std::string text = machine_toml(c);
  const machine_model back = parse_machine(text, "written.toml");
  CHECK(back.name == "test-box");
  CHECK(back.cores() == 6);
  CHECK(back.clock_ghz == doctest::Approx(2.75));
  CHECK(back.private_cache_kib == 512);
  CHECK(back.shared_cache_kib == 8192);
  CHECK(back.quantum_ns == doctest::Approx(2000));
  for (std::size_t i = 0; i < std::size(costs); ++i) CHECK(back.*costs[i] == doctest::Approx(c.model.*costs[i]));
  REQUIRE(back.kernels.count("pi_term") == 1);
  CHECK(back.kernels.at("pi_term") == doctest::Approx(0.875));
  CHECK(back.wake_latency_quantiles == c.model.wake_latency_quantiles);
  CHECK(back.timer_late_quantiles == c.model.timer_late_quantiles);
  // Every cost key the reader knows is written, so a term added to the model is not lost on the way.
  CHECK(machine_cost_keys().size() == std::size(costs));
  for (const std::string& key : machine_cost_keys()) CHECK_MESSAGE(text.find("\n" + key + "_ns = ") != std::string::npos, key);
  // The notes are the file's header comment, one line each.
  for (const std::string& n : c.notes) CHECK(text.find("#   " + n + "\n") != std::string::npos);
}

TEST_CASE("a cost is the lower quartile of its batches, and quantiles of nothing are 0") {
  using namespace twinsched::calib;
  CHECK(quantile_of({}, 0.5) == 0);
  CHECK(median_of({5, 1, 3, 2, 4}) == 3);
  CHECK(lower_quartile({9, 8, 7, 6, 5, 4, 3, 2, 1}) == 3);
  // noise only ever adds time: one batch slowed down a lot moves the cost not at all
  std::vector<double> batches{10, 10, 10, 10, 10, 10, 10, 500};
  std::size_t next = 0;
  CHECK(cost_of(int(batches.size()), [&] { return batches[next++]; }) == 10);
  CHECK(next == batches.size());
}

TEST_CASE("two line transfers are one host state within 2x of each other, either way round") {
  CHECK(same_line_state(10, 19.9));
  CHECK(same_line_state(19.9, 10));
  CHECK(same_line_state(10, 20));
  CHECK_FALSE(same_line_state(10, 70));  // a VM's CPUs moved apart: about 10 ns near, 70 ns apart
  CHECK_FALSE(same_line_state(70, 10));
}
