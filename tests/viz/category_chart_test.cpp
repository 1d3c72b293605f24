// Category charts: means, point positions in category order, escaped labels, an empty heat-map cell.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "viz/category_chart.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched::viz;

namespace {

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

const value_axis rate{"msgs/s", "msgs/s (mean)"};

}  // namespace

TEST_CASE("a mean cell: the mean of what was added, NaN with nothing") {
  mean_cell c;
  CHECK(std::isnan(c.mean()));
  c.add(2);
  c.add(4);
  CHECK(c.n == 2);
  CHECK(c.mean() == doctest::Approx(3));
}

TEST_CASE("a category line chart: a point per mean, evenly spaced in category order, labels escaped") {
  category_line a{"stealing", {}}, b{"<b>&\"", {}};
  a.points[0].add(10);
  a.points[2].add(20);
  a.points[2].add(40);
  b.points[1].add(5);
  const std::string svg = category_line_chart({"1", "2", "4"}, "cores", {a, b}, rate);
  CHECK(count(svg, "<circle") == 3);
  CHECK(count(svg, "<path") == 2);
  // x: 70 + i * 420 / 2; y: the highest mean (30) at the top (20), 0 at the bottom (280)
  CHECK(svg.find("M70.0,193.3 L490.0,20.0") != std::string::npos);
  CHECK(svg.find("stealing, 4: 30 msgs/s (mean of 2)") != std::string::npos);
  CHECK(svg.find("&lt;b&gt;&amp;&quot;") != std::string::npos);
  CHECK(svg.find("<b>") == std::string::npos);
  CHECK(svg.find(">cores</text>") != std::string::npos);
  CHECK(svg.find(">msgs/s (mean)</text>") != std::string::npos);
}

TEST_CASE("a heat map: shaded from the lowest mean to the highest, a cell without values grey") {
  std::vector<std::vector<mean_cell>> grid(2, std::vector<mean_cell>(2));
  grid[0][0].add(1);
  grid[0][1].add(3);
  grid[1][0].add(2);
  const std::string svg = heat_map_chart({"x1", "x2"}, {"y1", "y<2"}, "cores", "policy", grid, rate, "no passing cell");
  CHECK(count(svg, "<rect") == 4);
  CHECK(svg.find("fill=\"#ffffff\"") != std::string::npos);  // the lowest
  CHECK(svg.find("fill=\"#3787ff\"") != std::string::npos);  // the highest
  CHECK(svg.find("fill=\"#ddd\"><title>y&lt;2, x2: no passing cell</title>") != std::string::npos);
  CHECK(svg.find("y1, x2: 3 msgs/s") != std::string::npos);
  CHECK(svg.find("cores (rows: policy)") != std::string::npos);
}
