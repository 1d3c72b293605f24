// Savina's data-parallel kernels: each benchmark's result check passes the right result and
// fails a wrong one.
#include <doctest/doctest.h>

#include "models/workload/savina/trapezoid.hpp"

TEST_SUITE_BEGIN("unit");

using namespace twinsched;

TEST_CASE("trapezoid: the area must be the sum of the workers' ranges, a range lost or counted twice fails") {
  using namespace savina_trapezoid;
  const double h = 4.0 / 1000;
  double whole = 0, parts[4];
  for (int i = 0; i < 4; ++i) whole += parts[i] = worker_area(1 + i, 2 + i, h);
  CHECK(pieces(1, 2, h) == 250 - (pieces(1, 2, h) < 250));  // truncated, as Savina's cast does
  CHECK(area_ok(parts[3] + parts[2] + parts[1] + parts[0], whole));  // another order rounds alike
  CHECK_FALSE(area_ok(whole - parts[2], whole));
  CHECK_FALSE(area_ok(whole + parts[0], whole));
  CHECK_FALSE(area_ok(whole * (1 + 1e-6), whole));
}
