// Rows of cells printed as an aligned text table or a Markdown table.
#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace twinsched::twin {

struct text_table {
  std::vector<std::string> head;
  std::vector<bool> right;  ///< right-aligned column (numbers)
  std::vector<std::vector<std::string>> rows;

  /// Text: columns as wide as their widest cell, two spaces apart, no trailing spaces.
  /// Markdown: `| a | b |` lines under a `|---|---:|` rule.
  void print(std::ostream& out, bool markdown) const;
};

}  // namespace twinsched::twin
