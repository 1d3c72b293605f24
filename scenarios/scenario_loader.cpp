// The scenario loader: TOML text → twinsched::scenario, checked key by key, then validate().
#include "scenario_loader.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>

#include "models/registry.hpp"
#include "stock_folder.hpp"
#include "toml_reader.hpp"

namespace twinsched {

using detail::joined;
using detail::toml_reader;

namespace {

std::vector<std::string> workload_names() {
  std::vector<std::string> v;
  for (const auto* w : all_workloads()) v.push_back(w->name);
  return v;
}

std::vector<std::string> param_names(const workload_info& w) {
  std::vector<std::string> v;
  for (const auto& p : w.params) v.push_back(p.name);
  return v;
}

const param_spec* find_param(const workload_info& w, std::string_view name) {
  auto it = std::find_if(w.params.begin(), w.params.end(), [&](const param_spec& p) { return p.name == name; });
  return it == w.params.end() ? nullptr : &*it;
}

void read_workload(const toml_reader& r, const toml::table& root, scenario& s) {
  const toml::table* t = r.table(root, "workload", "workload");
  if (!t)
    r.fail_at_start("missing [workload] table; every scenario names its workload, e.g. [workload] kind = \"forward\" "
                    "(known: " + joined(workload_names()) + ")");
  if (!t->get("kind"))
    r.fail(t->source(), "workload.kind is required (known: " + joined(workload_names()) + ")");
  r.read_choice(*t, "kind", "workload.kind", s.workload, workload_names(), "workload");
  const workload_info& w = *find_workload(s.workload);
  std::vector<std::string> allowed = param_names(w);
  allowed.insert(allowed.begin(), "kind");
  r.check_keys(*t, "[workload] for kind \"" + s.workload + "\"", allowed);
  for (auto&& [k, v] : *t) {
    if (k.str() == "kind") continue;
    s.workload_params[std::string(k.str())] = r.read_param(v, *find_param(w, k.str()), "workload." + std::string(k.str()));
  }
}

/// Reads a registered knob's key from `t`, typed and range-checked as the knob declares it.
template <class C>
void read_knob(const toml_reader& r, const toml::table& t, const std::string& prefix, const knob<C>& k, C& c) {
  const std::string path = prefix + k.key;
  if (k.boolean) r.read(t, k.key, path, c.*k.boolean);
  if (k.u32) {
    std::uint64_t v = c.*k.u32;
    r.read(t, k.key, path, v, k.min, std::min<std::uint64_t>(k.max, std::numeric_limits<std::uint32_t>::max()));
    c.*k.u32 = std::uint32_t(v);
  }
  if (k.u64 && k.micros) {
    r.read_us_as_ns(t, k.key, path, c.*k.u64, k.min);
    if (c.*k.u64 / 1000 > k.max) r.fail(t.get(k.key)->source(), path + " must be at most " + std::to_string(k.max));
  }
  if (k.u64 && !k.micros) r.read(t, k.key, path, c.*k.u64, k.min, k.max);
  if (k.text) {
    r.read_choice(t, k.key, path, c.*k.text, k.choice_names(), std::string(k.key) + " mode");
  }
}

/// The keys of a table: `fixed` ones, then every registered knob's.
template <class Entries>
std::vector<std::string> keys_with_knobs(std::vector<std::string> fixed, const Entries& entries) {
  for (const auto& e : entries)
    for (const auto& k : e.knobs) fixed.push_back(k.key);
  return fixed;
}

void read_idle(const toml_reader& r, const toml::table& t, idle_config& c) {
  r.check_keys(t, "[scheduler.idle]", keys_with_knobs({"strategy"}, idle_catalog()));
  r.read_choice(t, "strategy", "scheduler.idle.strategy", c.strategy, idle_names(), "idle strategy");
  for (const idle_entry& e : idle_catalog())
    for (const auto& k : e.knobs) read_knob(r, t, "scheduler.idle.", k, c);
}

void read_scheduler(const toml_reader& r, const toml::table& t, scheduler_config& c) {
  r.check_keys(t, "[scheduler]", keys_with_knobs({"policy", "workers", "burst", "checks", "idle"}, policy_catalog()));
  r.read_choice(t, "policy", "scheduler.policy", c.policy, policy_names(), "policy");
  r.read(t, "workers", "scheduler.workers", c.workers, 1);
  r.read(t, "burst", "scheduler.burst", c.burst, 1);
  for (const policy_entry& e : policy_catalog())
    for (const auto& k : e.knobs) read_knob(r, t, "scheduler.", k, c);
  r.read(t, "checks", "scheduler.checks", c.checks);
  if (const toml::table* idle = r.table(t, "idle", "scheduler.idle")) read_idle(r, *idle, c.idle);
}

/// The scenario's name when the file has none: the file's stem, if it is a .toml file.
std::string default_name(const std::string& source) {
  std::filesystem::path p(source);
  return p.extension() == ".toml" ? p.stem().string() : "unnamed";
}

}  // namespace

scenario_error::scenario_error(std::string file, std::uint32_t line, std::uint32_t column, std::string message)
    : std::runtime_error(line == 0 ? file + ": " + message
                                   : file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message),
      file_(std::move(file)),
      line_(line),
      column_(line == 0 ? 0 : column),
      message_(std::move(message)) {}

scenario load_scenario_text(std::string_view text, const std::string& source_name) {
  toml_reader r(source_name);
  toml::table root = r.parse(text);
  scenario s;
  s.source = source_name;
  s.name = default_name(source_name);
  r.check_keys(root, "the top level", {"name", "description", "seed", "machine", "trace", "workload", "scheduler"});
  r.read(root, "name", "name", s.name);
  r.read(root, "description", "description", s.description);
  r.read(root, "seed", "seed", s.seed, 0);
  r.read(root, "machine", "machine", s.machine);
  std::string trace = level_name(s.trace);
  r.read_choice(root, "trace", "trace", trace, trace_level_names(), "trace level");
  s.trace = level_from_name(trace);
  read_workload(r, root, s);
  const toml::table* sched = r.table(root, "scheduler", "scheduler");
  if (sched) read_scheduler(r, *sched, s.sched);
  try {
    validate(s);
  } catch (const knob_error& e) {  // at the key it names, if the file has it
    for (const std::string& key : {e.key, e.other})
      if (const toml::node* at = key.empty() ? nullptr : root.at_path(key).node()) r.fail(at->source(), e.what());
    if (sched && sched->source().begin.line > 0) r.fail(sched->source(), e.what());
    r.fail_at_start(e.what());
  } catch (const config_error& e) {
    if (sched && sched->source().begin.line > 0) r.fail(sched->source(), e.what());
    r.fail_at_start(e.what());
  }
  return s;
}

scenario load_scenario_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    const int err = errno;
    throw scenario_error(path, 0, 0, std::string("cannot open scenario file (") + std::strerror(err) + ")");
  }
  std::string text;
  char buf[8192];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  const int err = std::ferror(f) ? errno : 0;
  std::fclose(f);
  if (err != 0) throw scenario_error(path, 0, 0, std::string("cannot read scenario file (") + std::strerror(err) + ")");
  return load_scenario_text(text, path);
}

std::string stock_scenario_folder() {
  return stock_folder("scenarios", TWINSCHED_BUILD_TREE, TWINSCHED_SHARE_FROM_BIN, TWINSCHED_SCENARIOS_DIR);
}

std::vector<std::string> stock_scenario_names() {
  namespace fs = std::filesystem;
  const fs::path top = stock_scenario_folder();
  std::vector<std::string> names;
  for (const auto& f : list_scenario_files(top.string())) names.push_back(fs::path(f).stem().string());
  // a suite's folder (scenarios/savina/) gives names of the form "savina/pingpong"
  std::error_code ec;
  std::vector<std::string> suites;
  for (const auto& e : fs::directory_iterator(top, ec))
    if (e.is_directory(ec) && e.path().filename() != "sweeps") suites.push_back(e.path().filename().string());
  std::sort(suites.begin(), suites.end());
  for (const auto& suite : suites)
    for (const auto& f : list_scenario_files((top / suite).string()))
      names.push_back(suite + "/" + fs::path(f).stem().string());
  return names;
}

namespace {
/// A stock name is NAME or SUITE/NAME (a file of a suite's folder), without ".toml".
bool stock_name_form(const std::string& s) {
  const auto slash = s.find('/');
  return !s.empty() && !s.ends_with(".toml") && s[0] != '.' &&
         (slash == std::string::npos || (slash > 0 && slash + 1 < s.size() && s.find('/', slash + 1) == std::string::npos));
}
}  // namespace

scenario load_scenario(const std::string& name_or_path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  // SUITE/NAME is a stock name unless a file of that path exists here
  const bool suite_name = name_or_path.find('/') != std::string::npos && stock_name_form(name_or_path) &&
                          !fs::exists(name_or_path, ec);
  if (!suite_name && (name_or_path.find('/') != std::string::npos || name_or_path.ends_with(".toml"))) {
    if (fs::is_directory(name_or_path, ec))
      throw scenario_error(name_or_path, 0, 0, "is a folder, not a scenario file");
    return load_scenario_file(name_or_path);
  }
  const fs::path file = fs::path(stock_scenario_folder()) / (name_or_path + ".toml");
  if (fs::is_regular_file(file, ec)) return load_scenario_file(file.string());
  if (name_or_path == "forward") return load_default_scenario();
  std::string known;
  for (const auto& n : stock_scenario_names()) known += (known.empty() ? "" : ", ") + n;
  std::string hint = "; a scenario file's path contains a '/' or ends in .toml";
  if (fs::is_regular_file(name_or_path, ec)) hint = "; for the file in this folder, write ./" + name_or_path;
  throw scenario_error(name_or_path, 0, 0,
                       "no such stock scenario: no " + file.string() + " (stock: " +
                           (known.empty() ? "forward" : known) + hint + ")");
}

scenario load_default_scenario() {
  return load_scenario_text(default_scenario_text(), "<embedded scenarios/forward.toml>");
}

void apply_param_override(scenario& s, std::string_view assignment) {
  toml_reader r("--param " + std::string(assignment), /*positions=*/false);
  const auto eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0) r.fail_at_start("expected KEY=VALUE, e.g. --param tokens=500");
  const std::string key(assignment.substr(0, eq));
  const std::string value(assignment.substr(eq + 1));
  const workload_info* w = find_workload(s.workload);
  if (!w) r.fail_at_start("unknown workload '" + s.workload + "'; valid: " + joined(workload_names()));
  const param_spec* spec = find_param(*w, key);
  if (!spec)
    r.fail_at_start("unknown parameter '" + key + "' for workload \"" + s.workload +
                    "\"; valid: " + joined(param_names(*w)));
  toml::table t;
  try {
    t = toml::parse("v = " + value);
  } catch (const toml::parse_error&) {
    t.clear();
  }
  if (t.size() != 1 || !t.get("v")) {  // not a single TOML value: a bare word
    t.clear();
    t.insert("v", value);
  }
  s.workload_params[key] = r.read_param(*t.get("v"), *spec, "workload." + key);
}

std::vector<std::string> list_scenario_files(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.path().extension() == ".toml" && e.is_regular_file(ec)) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace twinsched
