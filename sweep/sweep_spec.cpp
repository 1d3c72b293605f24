// The sweep file loader: axes checked value by value with file:line:col errors, then the grid expanded into cells.
#include "sweep/sweep_spec.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <variant>

#include "scenarios/scenario_loader.hpp"
#include "models/whole_number.hpp"
#include "scenarios/toml_reader.hpp"
#include "sim/machine_model.hpp"
#include "sweep/effective_scenario.hpp"

namespace twinsched {

using detail::joined;
using detail::toml_reader;

namespace {

// workers_limit: models/config.hpp
constexpr std::uint32_t cores_limit = 256;

std::uint64_t whole(const std::string& text, std::uint64_t lo, std::uint64_t hi, const std::string& what) {
  const auto v = whole_number(text);
  if (!v || *v < lo || *v > hi)
    throw std::invalid_argument(what + " takes a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
                                ", not '" + text + "'");
  return *v;
}

void choice(const std::string& value, const std::vector<std::string>& names, const std::string& what) {
  if (std::find(names.begin(), names.end(), value) == names.end())
    throw std::invalid_argument("unknown " + what + " '" + value + "'; valid: " + joined(names));
}

/// A TOML value as the text an axis holds: strings as they are, numbers and booleans as written.
std::string value_text(const toml::node& n, const toml_reader& r, const std::string& path) {
  if (n.is_string()) return n.as_string()->get();
  if (n.is_integer()) return std::to_string(n.as_integer()->get());
  if (n.is_boolean()) return n.as_boolean()->get() ? "true" : "false";
  if (n.is_floating_point()) {
    char b[64];
    auto [p, ec] = std::to_chars(b, b + sizeof b, n.as_floating_point()->get());
    std::string t(b, p);
    if (t.find_first_of(".e") == std::string::npos) t += ".0";  // stays a float when read back as TOML
    return t;
  }
  r.fail(n.source(), path + ": expected a string, number or boolean, got " + std::string(detail::toml_type_name(n)));
}

bool known_axis(const std::string& name) {
  const auto& names = sweep_axis_names();
  return std::find(names.begin(), names.end(), name) != names.end() || name.rfind("workload.", 0) == 0;
}

/// Checks one value of axis `name` against every scenario the cells start from (throws
/// std::invalid_argument); a scenario axis's value is loaded into `loaded` instead.
void check_axis_value(const sweep_spec& spec, const std::string& name, const std::string& value,
                      const std::string& folder, std::map<std::string, scenario>& loaded) {
  if (name == "scenario") {
    try {
      loaded.insert_or_assign(value, load_axis_scenario(value, folder));
    } catch (const scenario_error& e) {
      throw std::invalid_argument(e.what());
    }
    return;
  }
  for (auto& [from, start] : start_scenarios(spec)) {
    scenario s = *start;
    sim_options o = spec.sim;
    try {
      apply_axis_value(s, o, name, value);
    } catch (const std::invalid_argument& e) {
      if (from.empty()) throw;
      throw std::invalid_argument("scenario " + from + ": " + e.what());
    }
  }
}

/// The axis's values, checked one by one against the scenarios the cells start from (a bad one fails at itself).
void read_axis(const toml_reader& r, const std::string& name, const toml::node& n, sweep_spec& spec,
               const std::string& folder, sweep_axis& a) {
  a.name = name;
  a.line = n.source().begin.line;
  a.column = n.source().begin.column;
  auto add = [&](const toml::node& v) {
    std::string text = value_text(v, r, "axes." + name);
    try {
      check_axis_value(spec, name, text, folder, spec.axis_scenarios);
    } catch (const std::invalid_argument& e) {
      r.fail(v.source(), "axes." + name + ": " + e.what());
    }
    if (std::find(a.values.begin(), a.values.end(), text) != a.values.end())
      r.fail(v.source(), "axes." + name + ": '" + text + "' is listed twice");
    a.values.push_back(text);
  };
  if (const toml::array* arr = n.as_array()) {
    if (arr->empty()) r.fail(n.source(), "axes." + name + ": an axis needs at least one value");
    for (const toml::node& v : *arr) add(v);
  } else {
    add(n);  // a single value: the axis is fixed
  }
}

/// [axes], dotted keys (workload.hops) included, in the file's order. The scenario axis is read
/// first, since every other axis's values are checked against each of its scenarios.
void read_axes(const toml_reader& r, const toml::table& t, const std::string& prefix, sweep_spec& spec,
               const std::string& folder) {
  std::vector<std::pair<const toml::key*, const toml::node*>> items;
  for (auto&& [k, v] : t) items.emplace_back(&k, &v);
  std::sort(items.begin(), items.end(), [](auto& a, auto& b) {
    const auto &pa = a.first->source().begin, &pb = b.first->source().begin;
    return pa.line != pb.line ? pa.line < pb.line : pa.column < pb.column;
  });
  std::stable_partition(items.begin(), items.end(), [&](auto& kv) { return prefix + std::string(kv.first->str()) == "scenario"; });
  for (auto& [k, v] : items) {
    std::string name = prefix + std::string(k->str());
    if (name == "workload" && v->is_table()) {
      read_axes(r, *v->as_table(), "workload.", spec, folder);
      continue;
    }
    if (!known_axis(name))
      r.fail(k->source(), "unknown axis '" + name + "'; valid: " + joined(sweep_axis_names()) +
                              ", workload.<parameter> (`twinsched list workloads`)");
    sweep_axis a;
    read_axis(r, name, *v, spec, folder, a);
    a.line = k->source().begin.line;
    a.column = k->source().begin.column;
    spec.axes.push_back(std::move(a));
  }
  std::stable_sort(spec.axes.begin(), spec.axes.end(), [](const sweep_axis& a, const sweep_axis& b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
  });
}

/// A parameter's value as an axis holds it (as value_text writes a TOML value).
std::string param_text(const param_value& v) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::string>)
          return x;
        else if constexpr (std::is_same_v<T, bool>)
          return x ? "true" : "false";
        else if constexpr (std::is_same_v<T, double>) {
          char b[64];
          auto [p, ec] = std::to_chars(b, b + sizeof b, x);
          std::string t(b, p);
          if (t.find_first_of(".e") == std::string::npos) t += ".0";
          return t;
        } else
          return std::to_string(x);
      },
      v);
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw scenario_error(path, 0, 0, std::string("cannot open sweep file (") + std::strerror(errno) + ")");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

const std::vector<std::string>& sweep_axis_names() {
  static const std::vector<std::string> names{"scenario", "policy", "idle", "workers", "cores",
                                              "machine",  "burst",  "fifo", "steal",   "seed"};
  return names;
}

scenario load_axis_scenario(const std::string& value, const std::string& folder) {
  const bool path = value.ends_with(".toml") || value.starts_with('.') || value.starts_with('/');
  if (!path || folder.empty()) return load_scenario(value);
  std::filesystem::path p(value);
  if (p.is_relative()) p = std::filesystem::path(folder) / p;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(p, ec))
    throw scenario_error(value, 0, 0, "scenario file '" + p.string() + "' not found (a relative path is relative to "
                                      "the sweep file)");
  return load_scenario_file(p.string());
}

std::vector<std::pair<std::string, const scenario*>> start_scenarios(const sweep_spec& spec) {
  std::vector<std::pair<std::string, const scenario*>> v;
  for (const auto& a : spec.axes)
    if (a.name == "scenario")
      for (const auto& value : a.values) v.emplace_back(value, &spec.axis_scenarios.at(value));
  if (v.empty()) v.emplace_back("", &spec.base);
  return v;
}

void apply_axis_value(scenario& s, sim_options& o, const std::string& axis, const std::string& value) {
  if (axis == "policy") {
    choice(value, policy_names(), "policy");
    s.sched.policy = value;
  } else if (axis == "idle") {
    choice(value, idle_names(), "idle strategy");
    s.sched.idle.strategy = value;
  } else if (axis == "workers") {
    s.sched.workers = std::uint32_t(whole(value, 1, workers_limit, "workers"));
  } else if (axis == "cores") {
    o.cores = std::uint32_t(whole(value, 1, cores_limit, "cores"));
  } else if (axis == "machine") {
    try {
      (void)load_machine(value);
    } catch (const config_error& e) {  // machine_error
      throw std::invalid_argument(e.what());
    }
    o.machine = value;
  } else if (axis == "burst") {
    s.sched.burst = std::uint32_t(whole(value, 1, std::numeric_limits<std::uint32_t>::max(), "burst"));
  } else if (axis == "fifo") {
    choice(value, {"true", "false"}, "fifo value");
    s.sched.fifo = value == "true";
  } else if (axis == "steal") {
    choice(value, {"one", "half"}, "steal mode");
    s.sched.steal = value;
  } else if (axis == "seed") {
    s.seed = whole(value, 0, std::numeric_limits<std::uint64_t>::max(), "seed");
  } else if (axis.rfind("workload.", 0) == 0) {
    try {
      apply_param_override(s, axis.substr(9) + "=" + value);
    } catch (const scenario_error& e) {
      throw std::invalid_argument(e.message());
    }
  } else {
    throw std::invalid_argument("unknown axis '" + axis + "'; valid: " + joined(sweep_axis_names()) +
                                ", workload.<parameter>");
  }
}

sweep_spec load_sweep_text(std::string_view text, const std::string& source_name) {
  toml_reader r(source_name);
  toml::table root = r.parse(text);
  sweep_spec spec;
  spec.source = source_name;
  std::filesystem::path p(source_name);
  spec.name = p.stem().string();
  r.check_keys(root, "the top level of a sweep file",
               {"name", "description", "scenario", "backend", "axes", "sim", "skip_impossible"});
  r.read(root, "name", "name", spec.name);
  r.read(root, "skip_impossible", "skip_impossible", spec.skip_impossible);
  std::string scenario_path;
  r.read(root, "scenario", "scenario", scenario_path);
  const toml::table* axes = r.table(root, "axes", "axes");
  if (!scenario_path.empty() && axes && axes->get("scenario"))
    r.fail(root.get("scenario")->source(), "a sweep with a scenario axis has no base scenario: give one or the other");
  if (scenario_path.empty()) {
    spec.base = load_default_scenario();
  } else {
    std::filesystem::path sp(scenario_path);
    if (sp.is_relative()) sp = p.parent_path() / sp;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(sp, ec))
      r.fail(root.get("scenario")->source(), "scenario file '" + sp.string() + "' not found (a relative path is "
                                             "relative to the sweep file)");
    spec.base = load_scenario_file(sp.string());
  }
  std::string backend = "sim";
  r.read_choice(root, "backend", "backend", backend, {"sim", "real", "both"}, "backend");
  spec.backends = backend == "both" ? std::vector<std::string>{"sim", "real"} : std::vector<std::string>{backend};
  if (const toml::table* sim = r.table(root, "sim", "sim")) {
    r.check_keys(*sim, "[sim]", {"interleave", "time_limit", "quantum_ns"});
    r.read_choice(*sim, "interleave", "sim.interleave", spec.sim.interleave, {"coarse", "fine"}, "interleave mode");
    for (const char* key : {"time_limit", "quantum_ns"}) {
      const toml::node* n = sim->get(key);
      if (!n) continue;
      const std::optional<double> v = n->value<double>();
      if (!v || !(*v >= 0) || (*v == 0 && std::string(key) == "time_limit"))
        r.fail(n->source(), std::string("sim.") + key + ": expected a number above 0");
      (std::string(key) == "time_limit" ? spec.sim.time_limit_s : spec.sim.quantum_ns) = *v;
    }
  }
  if (!axes || axes->empty())
    r.fail_at_start("a sweep needs an [axes] table with at least one axis, e.g. [axes] policy = [\"stealing\", "
                    "\"sharing\"]");
  spec.axes_line = axes->source().begin.line;
  spec.axes_column = axes->source().begin.column;
  read_axes(r, *axes, "", spec, p.parent_path().empty() ? std::string(".") : p.parent_path().string());
  return spec;
}

sweep_spec load_sweep_file(const std::string& path) { return load_sweep_text(read_text(path), path); }

void apply_axis_override(sweep_spec& spec, std::string_view assignment) {
  const std::string where = "--axis " + std::string(assignment);
  const auto eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0)
    throw scenario_error(where, 0, 0, "expected NAME=V1,V2,..., e.g. --axis cores=1,2,4");
  sweep_axis a;
  a.name = std::string(assignment.substr(0, eq));
  if (!known_axis(a.name))
    throw scenario_error(where, 0, 0, "unknown axis '" + a.name + "'; valid: " + joined(sweep_axis_names()) +
                                          ", workload.<parameter>");
  std::stringstream ss{std::string(assignment.substr(eq + 1))};
  std::string v;
  std::map<std::string, scenario> loaded;  // a scenario axis's, replacing the old one's
  while (std::getline(ss, v, ',')) {
    try {
      check_axis_value(spec, a.name, v, "", loaded);
    } catch (const std::invalid_argument& e) {
      throw scenario_error(where, 0, 0, e.what());
    }
    a.values.push_back(v);
  }
  if (a.values.empty()) throw scenario_error(where, 0, 0, "an axis needs at least one value");
  if (a.name == "scenario") spec.axis_scenarios = std::move(loaded);
  auto it = std::find_if(spec.axes.begin(), spec.axes.end(), [&](const sweep_axis& x) { return x.name == a.name; });
  if (it != spec.axes.end())
    *it = std::move(a);
  else
    spec.axes.push_back(std::move(a));
}

void apply_param(sweep_spec& spec, std::string_view assignment) {
  const std::string where = "--param " + std::string(assignment);
  std::vector<std::pair<std::string, scenario>> checked;  // every scenario the cells start from must take it
  for (auto& [from, start] : start_scenarios(spec)) {
    checked.emplace_back(from, *start);
    try {
      apply_param_override(checked.back().second, assignment);  // the key and the value, with errors naming --param
    } catch (const scenario_error& e) {
      if (from.empty()) throw;
      throw scenario_error(where, 0, 0, "scenario " + from + ": " + e.message());
    }
  }
  const std::string key(assignment.substr(0, assignment.find('=')));
  spec.params.emplace_back(assignment);
  auto it = std::find_if(spec.axes.begin(), spec.axes.end(), [&](const sweep_axis& a) { return a.name == "workload." + key; });
  if (it == spec.axes.end()) {
    for (auto& [from, s] : checked) (from.empty() ? spec.base : spec.axis_scenarios.at(from)) = std::move(s);
    return;
  }
  if (it->line == 0)
    throw scenario_error(where, 0, 0, "--axis " + it->name + " sets it too; give it once");
  if (it->values.size() > 1)
    throw scenario_error(where, 0, 0,
                         it->name + " is an axis of this sweep (" + joined(it->values) + " at " + spec.source + ":" +
                             std::to_string(it->line) + "); one value for every cell: --axis " + it->name + "=V");
  it->values = {param_text(checked.front().second.workload_params.at(key))};  // the value the file fixed, replaced
}

std::vector<sweep_cell> expand(const sweep_spec& spec, std::vector<skipped_cell>* skipped) {
  std::vector<sweep_cell> cells;
  const bool has_workers = std::any_of(spec.axes.begin(), spec.axes.end(), [](auto& a) { return a.name == "workers"; });
  std::vector<std::size_t> pick(spec.axes.size(), 0);
  std::size_t index = 0;
  for (const std::string& backend : spec.backends) {
    std::fill(pick.begin(), pick.end(), 0);
    for (bool more = true; more; ++index) {
      sweep_cell c;
      c.index = index;
      c.backend = backend;
      c.s = spec.base;
      c.o = spec.sim;
      c.key = "backend=" + backend;
      for (std::size_t i = 0; i < spec.axes.size(); ++i) {
        c.values.push_back(spec.axes[i].values[pick[i]]);
        c.key += " " + spec.axes[i].name + "=" + c.values.back();
        if (spec.axes[i].name == "scenario") c.s = spec.axis_scenarios.at(c.values.back());  // before the other axes
      }
      for (std::size_t i = 0; i < spec.axes.size(); ++i) {
        if (spec.axes[i].name == "scenario") continue;
        try {
          apply_axis_value(c.s, c.o, spec.axes[i].name, c.values[i]);  // checked when read, against another scenario axis maybe
        } catch (const std::invalid_argument& e) {
          const bool file = spec.axes[i].line > 0;
          throw scenario_error(file ? spec.source : "--axis " + spec.axes[i].name, spec.axes[i].line,
                               spec.axes[i].column, "the cell " + c.key + ": " + e.what());
        }
      }
      more = false;
      for (std::size_t i = spec.axes.size(); i-- > 0;) {
        if (++pick[i] < spec.axes[i].values.size()) {
          more = true;
          break;
        }
        pick[i] = 0;
      }
      if (!has_workers && c.o.cores) c.s.sched.workers = c.o.cores;  // one worker per core, as `sim --cores`
      try {
        validate(c.s);
      } catch (const config_error& e) {
        if (spec.skip_impossible) {
          if (skipped) skipped->push_back({c.backend, c.key, e.what(), c.values});
          continue;
        }
        throw scenario_error(spec.source, spec.axes_line, spec.axes_column,
                             "the cell " + c.key + " cannot run: " + e.what());
      }
      try {
        c.effective = effective_scenario(c.s, backend == "sim" ? &c.o : nullptr);
      } catch (const config_error& e) {  // a machine that loaded when its axis was read, gone since
        throw scenario_error(spec.source, spec.axes_line, spec.axes_column, "the cell " + c.key + ": " + e.what());
      }
      cells.push_back(std::move(c));
    }
  }
  return cells;
}

}  // namespace twinsched
