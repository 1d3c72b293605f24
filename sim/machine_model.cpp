// Loading machine model files (TOML) with one-line file:line:col errors.
#include "machine_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <optional>
#include <sstream>
#include <stdexcept>

#include <toml++/toml.h>

#include "scenarios/stock_folder.hpp"

namespace twinsched {
namespace {

struct cost_key {
  const char* key;
  double machine_model::*member;
};

const std::vector<cost_key>& cost_table() {
  static const std::vector<cost_key> t{
      {"atomic_load", &machine_model::atomic_load},
      {"atomic_store", &machine_model::atomic_store},
      {"atomic_rmw", &machine_model::atomic_rmw},
      {"fence", &machine_model::fence},
      {"line_transfer_same_socket", &machine_model::line_same_socket},
      {"line_transfer_cross_socket", &machine_model::line_cross_socket},
      {"migration_per_kib", &machine_model::migration_per_kib},
      {"lock_handoff", &machine_model::lock_handoff},
      {"contended_unlock", &machine_model::contended_unlock},
      {"queue_op", &machine_model::queue_op},
      {"locked_queue_op", &machine_model::locked_queue_op},
      {"park", &machine_model::park},
      {"unpark", &machine_model::unpark},
      {"wake_latency", &machine_model::wake_latency},
      {"block_cpu", &machine_model::block_cpu},
      {"spin", &machine_model::spin},
      {"yield", &machine_model::yield},
      {"message", &machine_model::message},
      {"turn", &machine_model::turn},
      {"envelope", &machine_model::envelope},
      {"mailbox_push", &machine_model::mailbox_push},
      {"mailbox_pop", &machine_model::mailbox_pop},
      {"burn_call", &machine_model::burn_call},
      {"cold_actor", &machine_model::cold_actor},
      {"llc_actor", &machine_model::llc_actor},
      {"memory_load", &machine_model::memory_load},
      {"stream_load", &machine_model::stream_load},
  };
  return t;
}

[[noreturn]] void fail(const std::string& file, const toml::source_region& at, const std::string& msg) {
  if (at.begin.line == 0) throw machine_error(file + ": " + msg);
  throw machine_error(file + ":" + std::to_string(at.begin.line) + ":" + std::to_string(at.begin.column) + ": " + msg);
}

double number(const std::string& file, const toml::node& n, const std::string& key) {
  if (auto i = n.as_integer()) return double(i->get());
  if (auto f = n.as_floating_point()) {
    // TOML has nan and inf: neither is a cost, a clock or a quantum the simulator can use
    if (!std::isfinite(f->get())) fail(file, n.source(), "'" + key + "' must be a finite number");
    return f->get();
  }
  fail(file, n.source(), "'" + key + "' must be a number");
}

const toml::table& table_of(const std::string& file, const toml::node& n, const std::string& key) {
  if (auto t = n.as_table()) return *t;
  fail(file, n.source(), "'" + key + "' must be a table ([" + key + "])");
}

std::string string_of(const std::string& file, const toml::node& n, const std::string& key) {
  if (auto s = n.as_string()) return s->get();
  fail(file, n.source(), "'" + key + "' must be a string");
}

/// A list of ns, one per wake_quantile_probabilities, each at least the one before.
std::vector<double> quantiles_of(const std::string& file, const toml::node& n, const std::string& key) {
  const toml::array* a = n.as_array();
  if (!a || a->size() != wake_quantile_probabilities.size())
    fail(file, n.source(),
         "'" + key + "' must be a list of " + std::to_string(wake_quantile_probabilities.size()) +
             " numbers (ns at 1%, 10%, 25%, 50%, 75%, 90%, 99% and 99.9%)");
  std::vector<double> q;
  for (const toml::node& x : *a) {
    const double v = number(file, x, key);
    if (v < 0) fail(file, x.source(), "'" + key + "': a latency must not be negative");
    if (!q.empty() && v < q.back()) fail(file, x.source(), "'" + key + "': each quantile must be at least the one before");
    q.push_back(v);
  }
  return q;
}

machine_model parse_over(machine_model m, std::string_view text, const std::string& file) {
  toml::table doc;
  try {
    doc = toml::parse(text, file);
  } catch (const toml::parse_error& e) {
    fail(file, e.source(), std::string(e.description()));
  }
  m.source = file;
  // Costs may be in cycles, which depend on the clock: read the topology first.
  std::vector<std::pair<const toml::node*, std::string>> later;
  for (auto&& [k, v] : doc) {
    const std::string key(k.str());
    if (key == "name") m.name = string_of(file, v, key);
    else if (key == "description") m.description = string_of(file, v, key);
    else if (key == "topology") {
      for (auto&& [tk, tv] : table_of(file, v, key)) {
        const std::string sub(tk.str());
        double x = number(file, tv, sub);
        if (sub == "sockets" || sub == "cores_per_socket") {
          // range first: converting a double outside uint32_t's range (1e10, nan, inf) is undefined
          if (!(x >= 1 && x <= 4096) || x != double(std::uint32_t(x)))
            fail(file, tv.source(), "'" + sub + "' must be a whole number from 1 to 4096");
          (sub == "sockets" ? m.sockets : m.cores_per_socket) = std::uint32_t(x);
        } else if (sub == "clock_ghz") {
          if (!(x > 0)) fail(file, tv.source(), "'clock_ghz' must be positive");
          m.clock_ghz = x;
        } else if (sub == "private_cache_kib" || sub == "shared_cache_kib") {
          if (!(x >= 0 && x <= 1 << 30) || x != double(std::uint32_t(x)))
            fail(file, tv.source(), "'" + sub + "' must be a whole number from 0 to 2^30");
          (sub == "private_cache_kib" ? m.private_cache_kib : m.shared_cache_kib) = std::uint32_t(x);
        } else {
          fail(file, tk.source(),
               "unknown key 'topology." + sub +
                   "' (known: sockets, cores_per_socket, clock_ghz, private_cache_kib, shared_cache_kib)");
        }
      }
    } else if (key == "costs") {
      later.emplace_back(&v, key);
    } else if (key == "kernels") {
      for (auto&& [kk, kv] : table_of(file, v, key)) {
        const std::string sub(kk.str());
        if (!sub.ends_with("_ns") || sub.size() == 3)
          fail(file, kk.source(), "kernel cost '" + sub + "' must be written <kernel>_ns (ns per unit)");
        double x = number(file, kv, sub);
        if (!(x > 0)) fail(file, kv.source(), "kernel cost '" + sub + "' must be positive");
        m.kernels[sub.substr(0, sub.size() - 3)] = x;
      }
    } else if (key == "simulation") {
      for (auto&& [sk, sv] : table_of(file, v, key)) {
        const std::string sub(sk.str());
        if (sub != "quantum_ns") fail(file, sk.source(), "unknown key 'simulation." + sub + "' (known: quantum_ns)");
        double x = number(file, sv, sub);
        if (!(x > 0)) fail(file, sv.source(), "'quantum_ns' must be positive");
        m.quantum_ns = x;
      }
    } else {
      fail(file, k.source(), "unknown key '" + key + "' (known: name, description, [topology], [costs], [kernels], [simulation])");
    }
  }
  for (auto& [node, key] : later) {
    std::vector<std::string> seen;
    for (auto&& [ck, cv] : table_of(file, *node, key)) {
      const std::string sub(ck.str());
      if (sub == "wake_latency_quantiles_ns" || sub == "timer_late_quantiles_ns") {
        (sub == "timer_late_quantiles_ns" ? m.timer_late_quantiles : m.wake_latency_quantiles) = quantiles_of(file, cv, sub);
        continue;
      }
      bool cycles = sub.ends_with("_cycles"), ns = sub.ends_with("_ns");
      std::string base = cycles ? sub.substr(0, sub.size() - 7) : ns ? sub.substr(0, sub.size() - 3) : sub;
      auto it = std::find_if(cost_table().begin(), cost_table().end(), [&](const cost_key& c) { return base == c.key; });
      if ((!cycles && !ns) || it == cost_table().end()) {
        std::string known;
        for (auto& c : cost_table()) known += (known.empty() ? "" : ", ") + std::string(c.key);
        fail(file, ck.source(),
             "unknown cost '" + sub + "' (a cost is <name>_cycles or <name>_ns; names: " + known +
                 "; and the lists wake_latency_quantiles_ns, timer_late_quantiles_ns)");
      }
      if (std::find(seen.begin(), seen.end(), base) != seen.end())
        fail(file, ck.source(), "cost '" + base + "' given twice (use either " + base + "_cycles or " + base + "_ns)");
      seen.push_back(base);
      double x = number(file, cv, sub);
      if (x < 0) fail(file, cv.source(), "cost '" + sub + "' must not be negative");
      const double cost_ns = cycles ? x / m.clock_ghz : x;
      if (!std::isfinite(cost_ns))
        fail(file, cv.source(), "cost '" + sub + "' does not fit in nanoseconds at this clock_ghz");
      m.*(it->member) = cost_ns;
    }
  }
  if (m.cores() == 0) throw machine_error(file + ": a machine needs at least one core");
  if (m.line_cross_socket < m.line_same_socket && m.sockets > 1)
    throw machine_error(file + ": line_transfer_cross_socket must not be below line_transfer_same_socket");
  return m;
}

const machine_model& embedded_default() {
  static const machine_model m = parse_over(machine_model{}, default_machine_text(), "<embedded models/machines/default.toml>");
  return m;
}

}  // namespace

double quantile_draw(const std::vector<double>& q, double u) {
  const auto& p = wake_quantile_probabilities;
  if (q.size() != p.size()) throw std::logic_error("quantile_draw: one quantile per probability");
  if (u <= p.front()) return q.front();
  for (std::size_t i = 1; i < p.size(); ++i)
    if (u <= p[i]) return q[i - 1] + (q[i] - q[i - 1]) * (u - p[i - 1]) / (p[i] - p[i - 1]);
  return q.back();
}

const std::vector<std::string>& machine_cost_keys() {
  static const std::vector<std::string> v = [] {
    std::vector<std::string> r;
    for (auto& c : cost_table()) r.emplace_back(c.key);
    return r;
  }();
  return v;
}

workload_params with_machine_kernels(const workload_info& w, const std::map<std::string, param_value>& given,
                                     const machine_model& m) {
  workload_params p = with_defaults(w, given);
  for (const kernel_spec& k : w.kernels) {
    auto it = m.kernels.find(k.name);
    if (it != m.kernels.end() && !given.contains(k.param)) p.values[k.param] = it->second;
  }
  return p;
}

machine_model parse_machine(std::string_view text, const std::string& source_name) {
  return parse_over(embedded_default(), text, source_name);
}

std::string stock_machine_folder() {
  return stock_folder("machines", TWINSCHED_BUILD_TREE, TWINSCHED_SHARE_FROM_BIN, TWINSCHED_MACHINES_DIR);
}

machine_model load_machine(const std::string& name_or_path) {
  namespace fs = std::filesystem;
  std::string path = name_or_path;
  if (name_or_path.empty()) throw machine_error("the machine's name is empty (`twinsched list machines`)");
  const bool is_path = name_or_path.find('/') != std::string::npos || name_or_path.ends_with(".toml");
  if (!is_path) {
    path = (fs::path(stock_machine_folder()) / (name_or_path + ".toml")).string();
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) {
      if (name_or_path == "default") return embedded_default();
      std::string known;
      for (auto& n : machine_names()) known += (known.empty() ? "" : ", ") + n;
      throw machine_error("unknown machine '" + name_or_path + "': no " + path + " (known: " + known +
                          "; a machine file's path contains a '/' or ends in .toml)");
    }
  }
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (fs::is_directory(st)) throw machine_error(path + ": is a folder, not a machine file");
  if (!fs::exists(st)) throw machine_error(path + ": no such machine file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw machine_error(path + ": cannot read machine file");
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw machine_error(path + ": cannot read machine file");
  return parse_machine(ss.str(), path);
}

std::vector<std::string> machine_names() {
  namespace fs = std::filesystem;
  std::vector<std::string> names{"default"};
  std::error_code ec;
  for (fs::directory_iterator it(stock_machine_folder(), ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".toml" && it->is_regular_file(ec)) names.push_back(it->path().stem().string());
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

void print_machines(std::ostream& out) {
  out << "stock machines in " << stock_machine_folder() << " (`default` is also built in):\n";
  for (const auto& name : machine_names()) {
    try {
      machine_model m = load_machine(name);
      char shape[96];
      std::snprintf(shape, sizeof shape, "%u x %u cores, %.2f GHz", m.sockets, m.cores_per_socket, m.clock_ghz);
      out << "  " << std::left << std::setw(16) << name << std::setw(28) << shape << m.description << '\n';
    } catch (const machine_error& e) {
      out << "  " << std::left << std::setw(16) << name << "(does not load: " << e.what() << ")\n";
    }
  }
}

}  // namespace twinsched
