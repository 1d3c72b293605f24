// Writing and reading cost profiles, with every error at its file:line:column.
#include "cost_profile_file.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "scenario_loader.hpp"
#include "toml_reader.hpp"

namespace twinsched {

namespace {
std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}
}  // namespace

std::string cost_profile_text(const cost_profile& p) {
  std::ostringstream o;
  o << "# A twinsched cost profile: how long each kind of turn's own code took on real cores (the\n"
       "# wall time of the behavior's own code, less burn_ns; turns whose thread lost its core left\n"
       "# out), per behavior type and message tag. Written by `twinsched profile`;\n"
       "# `twinsched sim --costs FILE` charges each simulated turn a draw from it.\n"
    << "scenario = " << quoted(p.scenario) << "\nworkload = " << quoted(p.workload) << "\nworkers = " << p.workers
    << "\npreempted_turns = " << p.preempted_turns << "\n";
  for (const turn_kind_cost& k : p.kinds) {
    o << "\n[[kind]]\nbehavior = " << quoted(k.behavior) << "\ntag = " << k.tag << "\nturns = " << k.turns
      << "\nmean_ns = " << number(k.mean_ns) << "\nquantiles_ns = [";
    for (std::size_t i = 0; i < k.quantiles_ns.size(); ++i) o << (i ? ", " : "") << number(k.quantiles_ns[i]);
    o << "]\n";
  }
  return o.str();
}

cost_profile read_cost_profile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw scenario_error(path, 0, 0, "cannot open cost profile");
  std::stringstream text;
  text << in.rdbuf();
  const detail::toml_reader r(path);
  const toml::table doc = r.parse(text.str());
  r.check_keys(doc, "the profile", {"scenario", "workload", "workers", "preempted_turns", "kind"});
  cost_profile p;
  r.read(doc, "scenario", "scenario", p.scenario);
  r.read(doc, "workload", "workload", p.workload);
  r.read(doc, "workers", "workers", p.workers, 1);
  auto real = [&](const toml::table& t, std::string_view key, std::string_view where) {
    const toml::node* n = t.get(key);
    if (!n) r.fail(t.source(), std::string(where) + ": missing key '" + std::string(key) + "'");
    const std::optional<double> v = n->value<double>();
    if (!v || !(*v >= 0)) r.fail(n->source(), std::string(where) + "." + std::string(key) + " must be a number >= 0");
    return *v;
  };
  r.read(doc, "preempted_turns", "preempted_turns", p.preempted_turns, 0);
  const toml::node* kinds = doc.get("kind");
  if (!kinds) return p;
  const toml::array* list = kinds->as_array();
  if (!list) r.fail(kinds->source(), "kind must be an array of tables ([[kind]])");
  for (const toml::node& n : *list) {
    const toml::table* t = n.as_table();
    if (!t) r.fail(n.source(), "kind must be an array of tables ([[kind]])");
    r.check_keys(*t, "[[kind]]", {"behavior", "tag", "turns", "mean_ns", "quantiles_ns"});
    turn_kind_cost k;
    k.behavior = "\x01";  // absent: caught below
    r.read(*t, "behavior", "kind.behavior", k.behavior);
    if (k.behavior == "\x01") r.fail(t->source(), "[[kind]] lacks its behavior");
    std::uint64_t tag = 0;
    r.read(*t, "tag", "kind.tag", tag, 0, 0xffffffffu);
    k.tag = std::uint32_t(tag);
    r.read(*t, "turns", "kind.turns", k.turns, 1);
    k.mean_ns = real(*t, "mean_ns", "kind");
    const toml::node* q = t->get("quantiles_ns");
    if (!q || !q->as_array() || q->as_array()->size() != turn_kind_cost::quantile_count)
      r.fail(q ? q->source() : t->source(), "kind.quantiles_ns must be an array of " +
                                                std::to_string(turn_kind_cost::quantile_count) +
                                                " numbers (the 0, 5, ..., 100% quantiles)");
    for (const toml::node& v : *q->as_array()) {
      const std::optional<double> x = v.value<double>();
      if (!x || !(*x >= 0) || (!k.quantiles_ns.empty() && *x < k.quantiles_ns.back()))
        r.fail(v.source(), "kind.quantiles_ns: each must be a number >= 0, none below the one before");
      k.quantiles_ns.push_back(*x);
    }
    if (p.find(k.behavior, k.tag)) r.fail(t->source(), "a second [[kind]] for " + k.behavior + " tag " + std::to_string(k.tag));
    p.kinds.push_back(std::move(k));
  }
  return p;
}

}  // namespace twinsched
