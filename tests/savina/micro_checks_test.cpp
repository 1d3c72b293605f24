// Savina's micro group: each benchmark's result check passes a correct result and fails a wrong one
// (a lost or extra message, a wrong count), so a run's verdict means what Savina's validation means.
#include <doctest/doctest.h>

#include "models/workload/savina/pingpong.hpp"

TEST_SUITE_BEGIN("unit");

using namespace twinsched;

TEST_CASE("pingpong: a lost, extra or unanswered ping fails the check") {
  namespace pp = savina_pingpong;
  const std::uint64_t n = 50;
  CHECK(pp::result_ok(n, n, n, 0, true));
  CHECK_FALSE(pp::result_ok(n, n - 1, n, 0, true));  // a ping pong never answered
  CHECK_FALSE(pp::result_ok(n, n, n - 1, 0, true));  // a pong ping never received
  CHECK_FALSE(pp::result_ok(n, n, n, 1, true));      // a ping never sent
  CHECK_FALSE(pp::result_ok(n, n, n, 0, false));     // the stop lost
  const std::uint64_t ref = pp::reference_checksum(n);
  CHECK(ref - pp::value(pp::send_pong, 7) != pp::reference_checksum(n));                  // a pong lost
  CHECK(ref + pp::value(pp::send_ping, 7) != pp::reference_checksum(n));                  // a ping twice
  CHECK(ref - pp::value(pp::send_ping, 7) + pp::value(pp::send_ping, n) != ref);          // a ping too many, one lost
  CHECK(pp::messages(n) == 3 * n + 1);
}
