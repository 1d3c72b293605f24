// The trace diff computed: metrics from footers and one stats pass per trace, per-actor deliveries, a lockstep walk.
#include "diff.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <limits>
#include <map>
#include <sstream>

#include "format.hpp"
#include "models/config.hpp"
#include "merged_cursor.hpp"
#include "trace_stats.hpp"

namespace twinsched::traces {
namespace {

/// "key = value" lines of a canonical scenario text, by "table.key".
std::map<std::string, std::string> scenario_keys(const std::string& text) {
  std::map<std::string, std::string> m;
  std::istringstream in(text);
  std::string line, table;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (line[0] == '[') {
      table = line.substr(1, line.find(']') - 1) + ".";
      continue;
    }
    auto eq = line.find(" = ");
    if (eq != std::string::npos) m[table + line.substr(0, eq)] = line.substr(eq + 3);
  }
  return m;
}

double share(std::uint64_t part, const worker_stats& w) {
  const std::uint64_t all = w.busy_ns + w.idle_ns;
  return all ? 100.0 * double(part) / double(all) : 0;
}

struct run_view {
  const trace_reader& r;
  trace_stats st;
  std::uint64_t total(std::uint64_t worker_stats::*field) const {
    std::uint64_t n = 0;
    for (const auto& w : r.footer().per_worker) n += w.*field;
    return n;
  }
};

bool same_event(const trace_event& x, const trace_event& y) {
  return x.time_ns == y.time_ns && x.worker == y.worker && x.kind == y.kind && x.actor == y.actor &&
         x.message == y.message && x.other == y.other;
}

divergence first_divergence(const trace_reader& a, const trace_reader& b, std::size_t context) {
  divergence d;
  d.checked = true;
  merged_cursor ca(a), cb(b);
  const std::uint64_t start_a = run_start_ns(a.footer()), start_b = run_start_ns(b.footer());
  trace_event xe, ye;  // times since each run began (footer.hpp run_start_ns)
  auto since = [](const trace_event* e, std::uint64_t start, trace_event& out) -> const trace_event* {
    if (!e) return nullptr;
    out = *e;
    out.time_ns = since_run_start(e->time_ns, start);
    return &out;
  };
  std::deque<trace_event> recent;
  for (;;) {
    const trace_event* x = since(ca.next(), start_a, xe);
    const trace_event* y = since(cb.next(), start_b, ye);
    if (!x && !y) {
      d.identical = true;
      return d;
    }
    if (x && y && same_event(*x, *y)) {
      ++d.index;
      recent.push_back(*x);
      if (recent.size() > context) recent.pop_front();
      continue;
    }
    d.before.assign(recent.begin(), recent.end());
    if (x) d.after_a.push_back(*x);
    if (y) d.after_b.push_back(*y);
    for (std::size_t k = 1; k < context; ++k) {
      if (const trace_event* e = since(ca.next(), start_a, xe)) d.after_a.push_back(*e);
      if (const trace_event* e = since(cb.next(), start_b, ye)) d.after_b.push_back(*e);
    }
    return d;
  }
}

std::string worker_name(std::uint16_t w) { return w == outside_lane ? "out" : "w" + std::to_string(w); }

}  // namespace

logical_check check_logical(const trace_footer& a, const trace_footer& b) {
  logical_check c;
  c.actors_a = a.actors.size();
  c.actors_b = b.actors.size();
  if (!a.has_actors || !b.has_actors) {
    c.why = std::string("per-actor deliveries not recorded in ") + (!a.has_actors ? "A" : "B");
    return c;
  }
  c.digests_compared = comparable_digests(a, b);
  c.digest_note = digest_note(a, b);
  const bool digests = c.digests_compared;
  // ungrouped actors by id (footers are sorted by id); grouped ones summed per group
  std::vector<actor_stats> xa, xb;
  std::map<std::uint32_t, std::pair<actor_stats, actor_stats>> groups;  // group -> (A's sum, B's sum)
  for (const auto& x : a.actors) {
    if (x.group == 0) {
      xa.push_back(x);
    } else {
      auto& g = groups[x.group].first;
      g.delivered += x.delivered, g.digest += x.digest, ++g.id;  // id counts the members
    }
  }
  for (const auto& y : b.actors) {
    if (y.group == 0) {
      xb.push_back(y);
    } else {
      auto& g = groups[y.group].second;
      g.delivered += y.delivered, g.digest += y.digest, ++g.id;
    }
  }
  c.groups = groups.size();
  auto got = [](const actor_stats& s) {
    return std::to_string(s.delivered) + " messages (digest " + hex_digits(s.digest) + ")";
  };
  auto note = [&](std::uint32_t id, const std::string& what) {
    if (!c.first_actor) {
      c.first_actor = id;
      c.why = "actor " + std::to_string(id) + " " + what;
    }
    ++c.differing;
  };
  std::size_t i = 0, j = 0;
  while (i < xa.size() || j < xb.size()) {
    if (j == xb.size() || (i < xa.size() && xa[i].id < xb[j].id)) {
      note(xa[i].id, "exists only in A (" + std::to_string(xa[i].delivered) + " deliveries)");
      ++i;
    } else if (i == xa.size() || xb[j].id < xa[i].id) {
      note(xb[j].id, "exists only in B (" + std::to_string(xb[j].delivered) + " deliveries)");
      ++j;
    } else {
      if (xa[i].delivered != xb[j].delivered || (digests && xa[i].digest != xb[j].digest))
        note(xa[i].id, "got " + got(xa[i]) + " in A, " + got(xb[j]) + " in B");
      ++i, ++j;
    }
  }
  for (const auto& [g, ab] : groups) {
    const auto& [ga, gb] = ab;
    if (ga.delivered == gb.delivered && (!digests || ga.digest == gb.digest) && ga.id == gb.id) continue;
    ++c.differing;
    if (!c.first_actor && !c.first_group) {
      c.first_group = g;
      c.why = "group " + std::to_string(g) + " (" + std::to_string(ga.id) + " equal actors in A, " +
              std::to_string(gb.id) + " in B) got " + got(ga) + " in A, " + got(gb) + " in B";
    }
  }
  // every stock workload's checksum folds each delivered payload with its receiver: where
  // no actor differs it still tells the payloads apart (a decisions trace has no digests)
  c.checksums_equal = a.checksum == b.checksum;
  if (!c.checksums_equal && !c.differing)
    c.why = "the runs' checksums differ (A " + hex_digits(a.checksum) + ", B " + hex_digits(b.checksum) +
            ") though every actor got as many messages" +
            (digests ? std::string(" with the same payload digests")
                     : std::string(": the payloads differ; traces at --trace-level full name the actor"));
  c.state = c.differing || !c.checksums_equal ? logical_check::verdict::differ : logical_check::verdict::equal;
  return c;
}

std::string hex_digits(std::uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(v));
  return b;
}

std::optional<double> diff_metric::delta() const {
  if (!a || !b) return std::nullopt;
  return *b - *a;
}

bool diff_metric::near_zero_base() const {
  if (!a || !b || *a == *b) return false;
  const double base = std::fabs(*a);
  return base * 100 < std::fabs(*b - *a) || (unit == "%" && base < 1);
}

std::optional<double> diff_metric::relative() const {
  if (!a || !b) return std::nullopt;
  if (*a == *b) return 0.0;
  if (*a == 0 || near_zero_base()) return std::nullopt;  // from (almost) nothing: no ratio worth showing
  return (*b - *a) / std::fabs(*a);
}

std::optional<double> diff_metric::size() const {
  if (unit == "%") {
    if (auto dv = delta()) return std::fabs(*dv) / 100;  // points of the whole time, whatever the base
    return std::nullopt;
  }
  if (auto r = relative()) return std::fabs(*r);
  return std::nullopt;
}

std::vector<std::size_t> largest_differences(const diff_report& d, std::size_t n) {
  std::vector<std::pair<double, std::size_t>> ranked;  // (size, row), the makespan above every size
  for (std::size_t i = 0; i < d.metrics.size(); ++i) {
    const diff_metric& m = d.metrics[i];
    const auto s = m.size();
    if (!s || *s == 0) continue;
    ranked.push_back({m.name == "makespan" ? std::numeric_limits<double>::infinity() : *s, i});
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  std::vector<std::size_t> rows;
  for (std::size_t k = 0; k < ranked.size() && k < n; ++k) rows.push_back(ranked[k].second);
  return rows;
}

bool diff_report::over_tolerance() const {
  return std::any_of(metrics.begin(), metrics.end(), [](const diff_metric& m) { return m.over; });
}

int diff_report::exit_code() const {
  return logical.state == logical_check::verdict::differ || over_tolerance() ? 1 : 0;
}

std::string describe(const trace_event& e) {
  char b[200];
  std::string msg = "-";
  if (e.message) {
    char m[48];
    std::snprintf(m, sizeof m, "%llu:%llu", static_cast<unsigned long long>(e.message >> sender_shift),
                  static_cast<unsigned long long>(e.message & seq_mask));
    msg = m;
  }
  std::snprintf(b, sizeof b, "%14llu ns  %-4s %-14s actor %-8u msg %-16s other %u",
                static_cast<unsigned long long>(e.time_ns), worker_name(e.worker).c_str(), kind_name(unsigned(e.kind)),
                e.actor, msg.c_str(), e.other);
  return b;
}

diff_report diff_traces(const trace_reader& ra, const trace_reader& rb, const diff_options& o) {
  diff_report d;
  d.file_a = ra.path();
  d.file_b = rb.path();
  d.a = ra.header();
  d.b = rb.header();
  d.tolerance = o.tolerance;
  d.same_scenario = d.a.scenario_hash == d.b.scenario_hash;
  d.same_workload = d.a.workload_hash == d.b.workload_hash;
  if (!d.same_scenario) {
    auto ka = scenario_keys(d.a.scenario_text), kb = scenario_keys(d.b.scenario_text);
    for (const auto& [k, v] : ka) {
      auto it = kb.find(k);
      if (it == kb.end())
        d.scenario_differences.push_back(k + ": " + v + " vs (absent)");
      else if (it->second != v)
        d.scenario_differences.push_back(k + ": " + v + " vs " + it->second);
    }
    for (const auto& [k, v] : kb)
      if (!ka.count(k)) d.scenario_differences.push_back(k + ": (absent) vs " + v);
  }

  run_view va{ra, compute_stats(ra)}, vb{rb, compute_stats(rb)};
  const trace_footer &fa = ra.footer(), &fb = rb.footer();
  auto add = [&](std::string name, std::string unit, std::optional<double> x, std::optional<double> y,
                 bool gated = true) {
    diff_metric m;
    m.name = std::move(name);
    m.unit = std::move(unit);
    m.a = x;
    m.b = y;
    m.gated = gated;
    d.metrics.push_back(m);
  };
  auto ms = [](std::uint64_t ns) { return double(ns) * 1e-6; };
  add("makespan", "ms", ms(fa.wall_ns), ms(fb.wall_ns));
  add("throughput", "msgs/s", fa.wall_ns ? double(fa.messages) / (double(fa.wall_ns) * 1e-9) : 0.0,
      fb.wall_ns ? double(fb.messages) / (double(fb.wall_ns) * 1e-9) : 0.0);
  add("messages", "", double(fa.messages), double(fb.messages));
  const std::size_t workers = std::max(fa.per_worker.size(), fb.per_worker.size());
  for (std::size_t i = 0; i < workers; ++i) {
    auto busy = [&](const trace_footer& f) -> std::optional<double> {
      if (i >= f.per_worker.size()) return std::nullopt;
      return share(f.per_worker[i].busy_ns, f.per_worker[i]);
    };
    auto idle = [&](const trace_footer& f) -> std::optional<double> {
      if (i >= f.per_worker.size()) return std::nullopt;
      return share(f.per_worker[i].idle_ns, f.per_worker[i]);
    };
    auto parked = [&](const run_view& v) -> std::optional<double> {
      auto it = v.st.workers.find(std::uint16_t(i));
      if (it == v.st.workers.end()) return std::nullopt;
      return it->second.share(it->second.parked_ns);
    };
    const std::string w = "worker " + std::to_string(i) + " ";
    add(w + "busy", "%", busy(fa), busy(fb));
    add(w + "idle", "%", idle(fa), idle(fb), false);
    add(w + "parked", "%", parked(va), parked(vb), false);
  }
  add("steals", "", double(va.total(&worker_stats::steals)), double(vb.total(&worker_stats::steals)));
  add("donations", "", double(va.total(&worker_stats::donations)), double(vb.total(&worker_stats::donations)));
  add("migrations", "", double(va.total(&worker_stats::migrations)), double(vb.total(&worker_stats::migrations)));
  add("wake-ups", "", double(va.total(&worker_stats::wakeups)), double(vb.total(&worker_stats::wakeups)));
  add("parks", "", double(va.total(&worker_stats::parks)), double(vb.total(&worker_stats::parks)), false);
  // what an idle strategy trades: the workers' CPU time, and the requests' latency where recorded
  auto recorded = [](const trace_footer& f, auto value) -> std::optional<double> {
    if (!f.latency_recorded) return std::nullopt;
    return value(f);
  };
  auto cpu_ms = [](const trace_footer& f) {
    double t = 0;
    for (const auto& w : f.per_worker) t += double(w.cpu_ns);
    return t * 1e-6;
  };
  add("cpu", "ms", recorded(fa, cpu_ms), recorded(fb, cpu_ms), false);
  if (fa.request_latency.count || fb.request_latency.count) {
    auto p50 = [](const trace_footer& f) { return double(f.request_latency.p50_ns) * 1e-3; };
    auto p99 = [](const trace_footer& f) { return double(f.request_latency.p99_ns) * 1e-3; };
    add("latency p50", "us", recorded(fa, p50), recorded(fb, p50));
    add("latency p99", "us", recorded(fa, p99), recorded(fb, p99));
  }
  const bool qa = va.st.has_messages(), qb = vb.st.has_messages();
  auto q = [](const run_view& v, bool has, double p) -> std::optional<double> {
    if (!has) return std::nullopt;
    return double(v.st.queueing.quantile(p)) * 1e-3;
  };
  for (double p : {0.5, 0.9, 0.99}) {
    char name[40];
    std::snprintf(name, sizeof name, "queueing p%g", p * 100);
    add(name, "us", q(va, qa, p), q(vb, qb, p));
  }
  if (!qa || !qb)
    d.notes.push_back(std::string("queueing delay (send -> message begin) needs --trace-level full in both traces; ") +
                      (!qa ? "A" : "B") + " has " + level_name(!qa ? d.a.level : d.b.level));
  // per actor group, when the workload has groups
  std::map<std::uint32_t, std::pair<const histogram*, const histogram*>> groups;
  for (const auto& [g, h] : va.st.queueing_by_group) groups[g].first = &h;
  for (const auto& [g, h] : vb.st.queueing_by_group) groups[g].second = &h;
  if (groups.size() > 1) {
    for (const auto& [g, hh] : groups) {
      auto qq = [](const histogram* h, double p) -> std::optional<double> {
        if (!h) return std::nullopt;
        return double(h->quantile(p)) * 1e-3;
      };
      const std::string n = "group " + std::to_string(g) + " ";
      add(n + "messages", "", hh.first ? std::optional<double>(double(hh.first->count())) : std::nullopt,
          hh.second ? std::optional<double>(double(hh.second->count())) : std::nullopt, false);
      add(n + "queueing p50", "us", qq(hh.first, 0.5), qq(hh.second, 0.5));
      add(n + "queueing p99", "us", qq(hh.first, 0.99), qq(hh.second, 0.99));
    }
  }
  if (o.tolerance) {
    for (auto& m : d.metrics) {
      if (!m.gated || !m.a || !m.b) continue;
      const bool counts = m.unit.empty();
      if (counts && std::max(*m.a, *m.b) < 10) continue;  // a handful of events: noise, not a difference
      auto rel = m.relative();
      if (rel) m.over = std::fabs(*rel) > *o.tolerance;
      else if (m.unit == "%") m.over = std::fabs(*m.delta()) > *o.tolerance * 100;  // a share near 0: in points
      else m.over = true;  // from (almost) nothing to something
    }
  }

  d.logical = check_logical(fa, fb);
  if (!d.same_workload && d.logical.state == logical_check::verdict::differ)
    d.notes.push_back("the workloads differ (kind, parameters or seed), so their deliveries are not expected to match");

  const bool both_sim = d.a.backend == "sim" && d.b.backend == "sim";
  if (both_sim || o.events) {
    d.first = first_divergence(ra, rb, o.context);
  } else {
    d.first.why_not =
        "only for two simulations (deterministic runs): real runs' timing differs every time; "
        "--events compares anyway";
  }
  return d;
}

}  // namespace twinsched::traces
