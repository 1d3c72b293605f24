// Rows of cells printed as an aligned text table or a Markdown table.
#include "twin/text_table.hpp"

#include <algorithm>

namespace twinsched::twin {

void text_table::print(std::ostream& out, bool markdown) const {
  if (markdown) {
    auto line = [&](const std::vector<std::string>& cells) {
      out << '|';
      for (const auto& c : cells) out << ' ' << c << " |";
      out << '\n';
    };
    line(head);
    out << '|';
    for (std::size_t i = 0; i < head.size(); ++i) out << (right[i] ? "---:|" : "---|");
    out << '\n';
    for (const auto& r : rows) line(r);
    return;
  }
  std::vector<std::size_t> w(head.size());
  for (std::size_t i = 0; i < head.size(); ++i) w[i] = head[i].size();
  for (const auto& r : rows)
    for (std::size_t i = 0; i < r.size(); ++i) w[i] = std::max(w[i], r[i].size());
  auto line = [&](const std::vector<std::string>& cells) {
    std::string s;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const std::string pad(w[i] - cells[i].size(), ' ');
      s += (i ? "  " : "") + (right[i] ? pad + cells[i] : cells[i] + pad);
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    out << s << '\n';
  };
  line(head);
  for (const auto& r : rows) line(r);
}

}  // namespace twinsched::twin
