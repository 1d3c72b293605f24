// The suite's table and JSON: each cell's time and verdict by benchmark, policy and configuration, and the best per benchmark.
#include "sweep/suite_table.hpp"

#include <algorithm>
#include <cstdio>

namespace twinsched {
namespace {

std::string count_axis(const std::string& backend) { return backend == "real" ? "workers" : "cores"; }

std::string key_of(const suite_benchmark& b, const std::string& policy, const suite_column& c) {
  return "backend=" + c.backend + " scenario=" + b.scenario + " policy=" + policy + " " + count_axis(c.backend) + "=" + c.count;
}

const skipped_cell* left_out(const suite_plan& p, const suite_benchmark& b, const std::string& policy, const suite_column& c) {
  const std::string key = key_of(b, policy, c);
  for (const auto& s : p.skipped)
    if (s.key == key) return &s;
  return nullptr;
}

std::string pad(const std::string& s, std::size_t w, bool right) {
  const std::string fill(s.size() < w ? w - s.size() : 0, ' ');
  return right ? fill + s : s + fill;
}

}  // namespace

std::vector<suite_column> suite_columns(const suite_plan& p) {
  std::vector<suite_column> cols;
  for (const auto& spec : p.specs)
    for (const auto& n : spec.axes.back().values) cols.push_back({spec.backends.front(), n});
  return cols;
}

const sweep_row* suite_row(const suite_plan&, const suite_rows& rows, const suite_benchmark& b, const std::string& policy,
                           const suite_column& c) {
  auto it = rows.find(key_of(b, policy, c));
  return it == rows.end() ? nullptr : &it->second;
}

std::optional<suite_best> best_cell(const suite_plan& p, const suite_rows& rows, const suite_benchmark& b,
                                    const std::string& backend) {
  std::optional<suite_best> best;
  for (const auto& policy : p.policies)
    for (const auto& c : suite_columns(p)) {
      const sweep_row* r = c.backend == backend ? suite_row(p, rows, b, policy, c) : nullptr;
      if (r && r->verdict == "OK" && (!best || r->makespan_s < best->time_s)) best = suite_best{policy, c.count, r->makespan_s};
    }
  return best;
}

std::string time_text(double s) {
  const auto three_digits = [](double v, const char* unit) {  // 1.25, 12.5, 125
    char b[32];
    std::snprintf(b, sizeof b, v < 9.995 ? "%.2f %s" : v < 99.95 ? "%.1f %s" : "%.0f %s", v, unit);
    return std::string(b);
  };
  if (s < 1e-3) return three_digits(s * 1e6, "us");
  if (s < 1) return three_digits(s * 1e3, "ms");
  return three_digits(s, "s");
}

void print_suite_table(std::ostream& out, const suite_plan& p, const suite_rows& rows) {
  const auto cols = suite_columns(p);
  std::vector<std::vector<std::string>> lines{{"benchmark", "policy"}};
  for (const auto& c : cols) lines[0].push_back(suite_config(c.backend, c.count));
  lines[0].push_back("verdict");
  for (const auto& b : p.benchmarks) {
    bool first = true;
    for (const auto& policy : p.policies) {
      std::vector<std::string> line{first ? b.name : "", policy};
      std::string failed;
      bool any = false;
      for (const auto& c : cols) {
        const sweep_row* r = suite_row(p, rows, b, policy, c);
        const bool out_of_grid = !r && left_out(p, b, policy, c);
        any = any || !out_of_grid;
        line.push_back(r ? (r->verdict == "OK" ? time_text(r->makespan_s) : r->verdict) : out_of_grid ? "n/a" : "-");
        if (r && r->verdict != "OK") failed += (failed.empty() ? "" : ", ") + suite_config(c.backend, c.count);
        if (!r && !out_of_grid) failed += (failed.empty() ? "" : ", ") + suite_config(c.backend, c.count) + " not run";
      }
      if (!any) continue;  // the policy applies nowhere to this benchmark: said below the table
      line.push_back(failed.empty() ? "OK" : "FAIL: " + failed);
      lines.push_back(std::move(line));
      first = false;
    }
  }
  std::vector<std::size_t> width(lines[0].size(), 0);
  for (const auto& l : lines)
    for (std::size_t i = 0; i < l.size(); ++i) width[i] = std::max(width[i], l[i].size());
  for (const auto& l : lines) {
    std::string s;
    for (std::size_t i = 0; i < l.size(); ++i) {
      const bool number_column = i >= 2 && i + 1 < l.size();
      s += (i ? "  " : "") + (i + 1 < l.size() ? pad(l[i], width[i], number_column) : l[i]);
    }
    out << s << '\n';
  }
  out << "times: " << (std::any_of(cols.begin(), cols.end(), [](auto& c) { return c.backend == "real"; }) ? "real = wall time, " : "")
      << (std::any_of(cols.begin(), cols.end(), [](auto& c) { return c.backend == "sim"; }) ? "sim = simulated time, " : "")
      << "workers' start to quiescence; Nw = N workers, Nc = N simulated cores (one worker each)\n";
  out << "best (lowest time per backend):\n";
  std::size_t name_w = 0;
  for (const auto& b : p.benchmarks) name_w = std::max(name_w, b.name.size());
  for (const auto& b : p.benchmarks) {
    std::string s = "  " + pad(b.name, name_w, false);
    for (const auto& spec : p.specs) {
      const std::string& backend = spec.backends.front();
      const auto best = best_cell(p, rows, b, backend);
      s += "  " + backend + ": " + (best ? best->policy + " at " + suite_config(backend, best->count).substr(backend.size() + 1) + ", " + time_text(best->time_s) : "none passed");
    }
    out << s << '\n';
  }
  std::map<std::string, std::vector<std::string>> skipped;  // policy -> benchmarks
  std::map<std::string, std::string> why;
  for (const auto& s : p.skipped) {
    auto& names = skipped[s.values[1]];
    const auto b = std::find_if(p.benchmarks.begin(), p.benchmarks.end(), [&](auto& x) { return x.scenario == s.values[0]; });
    if (b != p.benchmarks.end() && std::find(names.begin(), names.end(), b->name) == names.end()) names.push_back(b->name);
    why.emplace(s.values[1], s.reason);
  }
  for (const auto& [policy, names] : skipped) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    out << "n/a: " << policy << " cannot run on " << list << " (e.g. " << why[policy] << ")\n";
  }
}

nlohmann::ordered_json suite_json(const suite_plan& p, const suite_rows& rows) {
  nlohmann::ordered_json j;
  j["suite"] = p.name;
  j["folder"] = p.folder;
  j["rows"] = nlohmann::ordered_json::array();
  j["best"] = nlohmann::ordered_json::array();
  j["skipped"] = nlohmann::ordered_json::array();
  const auto cols = suite_columns(p);
  for (const auto& b : p.benchmarks) {
    for (const auto& policy : p.policies)
      for (const auto& c : cols) {
        nlohmann::ordered_json row{{"benchmark", b.name}, {"scenario", b.scenario}, {"backend", c.backend}, {"policy", policy}};
        row["workers"] = std::stoul(c.count);
        if (c.backend == "sim") row["cores"] = std::stoul(c.count);
        if (const skipped_cell* s = left_out(p, b, policy, c)) {
          row["reason"] = s->reason;
          j["skipped"].push_back(std::move(row));
          continue;
        }
        const sweep_row* r = suite_row(p, rows, b, policy, c);
        row["time_s"] = r ? r->makespan_s : 0.0;
        row["verdict"] = r ? r->verdict : "NOT RUN";
        row["messages"] = r ? r->messages : 0;
        row["msgs_per_s"] = r ? r->msgs_per_s : 0.0;
        row["error"] = r ? r->error : "";
        row["wall_s"] = r ? r->wall_s : 0.0;
        j["rows"].push_back(std::move(row));
      }
    for (const auto& spec : p.specs) {
      const std::string& backend = spec.backends.front();
      if (const auto best = best_cell(p, rows, b, backend)) {
        nlohmann::ordered_json x{{"benchmark", b.name}, {"backend", backend}, {"policy", best->policy}};
        x[backend == "real" ? "workers" : "cores"] = std::stoul(best->count);
        x["time_s"] = best->time_s;
        j["best"].push_back(std::move(x));
      }
    }
  }
  return j;
}

bool suite_ok(const suite_plan& p, const suite_rows& rows) {
  return std::all_of(p.cells.begin(), p.cells.end(), [&](const sweep_cell& c) {
    auto it = rows.find(c.key);
    return it != rows.end() && it->second.verdict == "OK";
  });
}

}  // namespace twinsched
