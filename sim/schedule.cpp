// Schedule perturbation (schedule.hpp): the random, PCT and list strategies, and the --preemptions syntax.
#include "schedule.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <stdexcept>

namespace twinsched {

std::string format_preemptions(const std::vector<preemption>& v) {
  std::ostringstream out;
  for (std::size_t i = 0; i < v.size(); ++i) out << (i ? "," : "") << v[i].worker << ':' << v[i].op << ':' << std::llround(v[i].delay_ns);
  return out.str();
}

std::vector<preemption> parse_preemptions(const std::string& text) {
  std::vector<preemption> v;
  std::istringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    preemption p;
    char c1 = 0, c2 = 0;
    long long w = -1;
    unsigned long long op = 0;
    double d = -1;
    std::istringstream one(item);
    if (!(one >> w >> c1 >> op >> c2 >> d) || c1 != ':' || c2 != ':' || w < 0 || d < 0 || !one.eof())
      throw std::invalid_argument("a preemption is WORKER:OPERATION:DELAY_NS, not '" + item + "'");
    p.worker = std::int32_t(w);
    p.op = op;
    p.delay_ns = d;
    v.push_back(p);
  }
  std::stable_sort(v.begin(), v.end(), [](const preemption& a, const preemption& b) { return a.op < b.op; });
  return v;
}

namespace {
/// The shortest text that reads back as the same double.
std::string shortest(double v) {
  char b[32];
  auto r = std::to_chars(b, b + sizeof b, v);
  return std::string(b, r.ptr);
}
}  // namespace

std::string describe_schedule(const schedule_spec& s) {
  std::ostringstream out;
  if (s.strategy == "none") return "";
  if (s.strategy == "list") return "list " + format_preemptions(s.list);
  out << s.strategy << " seed=" << s.seed;
  if (s.strategy == "random") out << " p=" << shortest(s.p);
  if (s.strategy == "pct") out << " depth=" << s.depth << " horizon=" << s.horizon;
  out << " delay=" << shortest(s.min_delay_ns) << ".." << shortest(s.max_delay_ns);
  return out.str();
}

std::string describe_preemption(const preemption& p) {
  char d[32];
  std::snprintf(d, sizeof d, "%.1f us", p.delay_ns / 1000);
  return "worker " + std::to_string(p.worker) + " before its operation " + std::to_string(p.op) +
         (p.where.empty() ? "" : " (" + p.where + ")") + ", preempted for " + d;
}

schedule_spec parse_schedule(const std::string& text) {
  schedule_spec s;
  if (text.empty()) return s;
  std::istringstream in(text);
  in >> s.strategy;
  if (s.strategy == "list") {
    std::string rest;
    in >> rest;
    s.list = parse_preemptions(rest);
    return s;
  }
  std::string kv;
  while (in >> kv) {
    auto eq = kv.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("schedule: expected key=value, not '" + kv + "'");
    std::string k = kv.substr(0, eq), v = kv.substr(eq + 1);
    if (k == "seed") s.seed = std::stoull(v);
    else if (k == "p") s.p = std::stod(v);
    else if (k == "depth") s.depth = std::uint32_t(std::stoul(v));
    else if (k == "horizon") s.horizon = std::stoull(v);
    else if (k == "delay") {
      auto dots = v.find("..");
      if (dots == std::string::npos) throw std::invalid_argument("schedule: delay=MIN..MAX, not '" + v + "'");
      s.min_delay_ns = std::stod(v.substr(0, dots));
      s.max_delay_ns = std::stod(v.substr(dots + 2));
    } else {
      throw std::invalid_argument("schedule: unknown key '" + k + "'");
    }
  }
  if (s.strategy != "random" && s.strategy != "pct") throw std::invalid_argument("schedule: unknown strategy '" + s.strategy + "'");
  return s;
}

namespace sim_detail {

namespace {
/// Uniform in [0, 1).
double unit(rng& r) { return double(r.next() >> 11) * 0x1.0p-53; }
/// Log-uniform in [lo, hi]: short and long preemptions alike.
double log_uniform(rng& r, double lo, double hi) { return lo * std::pow(hi / lo, unit(r)); }
}  // namespace

schedule_perturbation::schedule_perturbation(const schedule_spec& s) : spec_(s), rand_(s.seed * 0x9e3779b97f4a7c15ull + 7) {
  kind_ = s.strategy == "random" ? kind::random : s.strategy == "pct" ? kind::pct : s.strategy == "list" ? kind::list : kind::none;
  if (kind_ == kind::random) gap_ = draw_gap();
  if (kind_ == kind::pct) {
    std::uint64_t k = spec_.horizon ? spec_.horizon : 100'000;
    for (std::uint32_t i = 1; i < spec_.depth; ++i) change_points_.push_back(rand_.next() % k);
    std::sort(change_points_.begin(), change_points_.end());
  }
  for (const preemption& p : spec_.list) listed_[{p.worker, p.op}] = p.delay_ns;
}

namespace {
/// The file relative to the project ("models/parking.hpp"): the same on every machine.
std::string project_relative(const char* file) {
  std::string f = std::filesystem::path(file ? file : "?").lexically_normal().string();
  for (const char* top : {"/models/", "/sim/", "/runtime/", "/tests/"}) {
    auto at = f.rfind(top);
    if (at != std::string::npos) return f.substr(at + 1);
  }
  return f;
}
}  // namespace

double schedule_perturbation::note(int w, std::uint64_t op, double delay, const char* file, unsigned line) {
  delay = std::max(1.0, std::round(delay));  // whole ns: a printed schedule replays exactly
  preemption p;
  p.worker = w;
  p.op = op;
  p.delay_ns = delay;
  p.where = project_relative(file) + ":" + std::to_string(line);
  applied_.push_back(std::move(p));
  return delay;
}

double schedule_perturbation::decide_out_of_line(int w, std::uint64_t op, const char* file, unsigned line) {
  const std::uint64_t nth = global_++;
  if (kind_ == kind::random) {  // decide() passed the points before the gap's end inline
    gap_ = draw_gap();
    return note(w, op, log_uniform(rand_, spec_.min_delay_ns, spec_.max_delay_ns), file, line);
  }
  if (kind_ == kind::pct) {
    if (next_change_ >= change_points_.size() || nth < change_points_[next_change_]) return 0;
    while (next_change_ < change_points_.size() && change_points_[next_change_] <= nth) ++next_change_;
    return note(w, op, log_uniform(rand_, spec_.max_delay_ns, spec_.max_delay_ns * 20), file, line);
  }
  if (kind_ == kind::list) {
    auto it = listed_.find({w, op});
    if (it != listed_.end()) return note(w, op, it->second, file, line);
  }
  return 0;
}

std::uint64_t schedule_perturbation::draw_gap() {
  // Points before the next preemption when each is one with probability p: floor(ln U / ln(1 - p)).
  if (spec_.p >= 1) return 0;
  if (spec_.p <= 0) return ~std::uint64_t(0);
  const double g = std::floor(std::log1p(-unit(rand_)) / std::log1p(-spec_.p));
  return g < 0x1p63 ? std::uint64_t(g) : ~std::uint64_t(0);
}

double schedule_perturbation::start_delay(int w) {
  if (kind_ != kind::pct) return 0;
  // the initial priorities: a random order of the workers, as staggered starts
  return double(splitmix64(spec_.seed ^ (std::uint64_t(w) + 1) * 0x100000001b3ull) % 8) * spec_.max_delay_ns / 8;
}

}  // namespace sim_detail
}  // namespace twinsched
