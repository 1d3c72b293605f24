// The registry of runs in progress (live_runs.hpp).
#include "run/live_runs.hpp"

#include <mutex>
#include <vector>

namespace twinsched::live_runs {
namespace {

struct entry {
  unsigned long long id;
  std::function<std::string()> report;
  std::function<void()> on_expire;
};

struct registry {
  std::mutex m;
  std::vector<entry> entries;  // under m
  unsigned long long next = 0;  // under m
};

registry& the() {
  static registry r;
  return r;
}

}  // namespace

registration::registration(std::function<std::string()> report, std::function<void()> on_expire) {
  registry& r = the();
  std::lock_guard<std::mutex> g(r.m);
  id_ = ++r.next;
  r.entries.push_back({id_, std::move(report), std::move(on_expire)});
}

registration::~registration() {
  registry& r = the();
  std::lock_guard<std::mutex> g(r.m);  // waits for a report in progress: the run outlives it
  std::erase_if(r.entries, [&](const entry& e) { return e.id == id_; });
}

std::string report_all() {
  registry& r = the();
  std::lock_guard<std::mutex> g(r.m);
  if (r.entries.empty()) return "no run in progress in this process\n";
  std::string out;
  for (auto& e : r.entries) out += "---\n" + e.report();
  return out;
}

void expire_all() {
  registry& r = the();
  std::lock_guard<std::mutex> g(r.m);
  for (auto& e : r.entries)
    if (e.on_expire) e.on_expire();
}

}  // namespace twinsched::live_runs
