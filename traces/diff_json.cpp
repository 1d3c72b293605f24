// The trace diff as JSON: the report as the one object `twinsched diff --json` prints.
#include "diff_json.hpp"

#include <nlohmann/json.hpp>

#include "format.hpp"
#include "trace_stats.hpp"

namespace twinsched::traces {
namespace {

using nlohmann::json;

/// The value, or null.
template <class T>
json opt(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

}  // namespace

json diff_json(const diff_report& d) {
  json metrics = json::array();
  for (const auto& m : d.metrics)
    metrics.push_back({{"name", m.name},
                       {"unit", m.unit},
                       {"a", opt(m.a)},
                       {"b", opt(m.b)},
                       {"delta", opt(m.delta())},
                       {"relative", opt(m.relative())},
                       {"gated", m.gated},
                       {"over_tolerance", m.over}});
  auto events = [](const std::vector<trace_event>& v) {
    json a = json::array();
    for (const auto& e : v)
      a.push_back({{"time_ns", e.time_ns},
                   {"worker", e.worker == outside_lane ? -1 : int(e.worker)},
                   {"kind", kind_name(unsigned(e.kind))},
                   {"actor", e.actor},
                   {"message", e.message},
                   {"other", e.other}});
    return a;
  };
  const char* verdicts[] = {"equal", "differ", "unavailable"};
  json logical = {{"verdict", verdicts[int(d.logical.state)]},
                  {"detail", d.logical.why},
                  {"actors_a", d.logical.actors_a},
                  {"actors_b", d.logical.actors_b},
                  {"groups", d.logical.groups},
                  {"differing", d.logical.differing},
                  {"digests_compared", d.logical.digests_compared},
                  {"checksums_equal", d.logical.checksums_equal},
                  {"first_actor", opt(d.logical.first_actor)},
                  {"first_group", opt(d.logical.first_group)}};
  json first = {{"checked", d.first.checked}};
  if (!d.first.checked)
    first["why_not"] = d.first.why_not;
  else {
    first["identical"] = d.first.identical;
    first["equal_events"] = d.first.index;
    if (!d.first.identical) {
      first["before"] = events(d.first.before);
      first["a"] = events(d.first.after_a);
      first["b"] = events(d.first.after_b);
    }
  }
  return {{"a", d.file_a},
          {"b", d.file_b},
          {"same_scenario", d.same_scenario},
          {"same_workload", d.same_workload},
          {"scenario_differences", d.scenario_differences},
          {"metrics", metrics},
          {"notes", d.notes},
          {"logical", logical},
          {"first_divergence", first},
          {"tolerance", opt(d.tolerance)},
          {"over_tolerance", d.over_tolerance()},
          {"exit_code", d.exit_code()}};
}

}  // namespace twinsched::traces
