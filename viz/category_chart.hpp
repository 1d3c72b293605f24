// Charts over named categories (a sweep's axis values) as standalone SVG: a line per series, and a heat map.
#pragma once
#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace twinsched::viz {

/// The mean of the values added to it; NaN with none.
struct mean_cell {
  double sum = 0;
  std::size_t n = 0;
  void add(double v) { sum += v, ++n; }
  double mean() const;
};

/// One line: its mean at each category it has (an index into the chart's categories).
struct category_line {
  std::string name;
  std::map<std::size_t, mean_cell> points;
};

/// What a chart's values are: "msgs/s" for a point's tooltip, "msgs/s (mean)" along the y axis.
struct value_axis {
  std::string unit, title;
};

/// Categories evenly spaced along x (in order, named `x_title` below), y from 0 to the
/// highest mean, a line per series, each point's tooltip its mean and how many values made it.
std::string category_line_chart(const std::vector<std::string>& xs, const std::string& x_title,
                                const std::vector<category_line>& lines, const value_axis& y);

/// A cell per (row ys[r], column xs[c]) shaded by its mean from the lowest (light) to the
/// highest; a cell without values is grey, its tooltip `empty`. grid[r][c].
std::string heat_map_chart(const std::vector<std::string>& xs, const std::vector<std::string>& ys,
                           const std::string& x_title, const std::string& y_title,
                           const std::vector<std::vector<mean_cell>>& grid, const value_axis& v,
                           const std::string& empty);

}  // namespace twinsched::viz
