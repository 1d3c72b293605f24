// Drawing each turn's cost from its kind's measured quantiles.
#include "cost_charger.hpp"

#include <map>

namespace twinsched {

namespace {
/// The mean of turn_kind_cost::at over a uniform draw: the quantile curve's area, segment by segment.
double drawn_mean(const turn_kind_cost& k) {
  const auto& q = k.quantiles_ns;
  if (q.size() < 2) return q.empty() ? 0 : q[0];
  double area = 0;
  for (std::size_t i = 0; i + 1 < q.size(); ++i) area += (q[i] + q[i + 1]) / 2;
  return area / double(q.size() - 1);
}
}  // namespace

cost_charger::cost_charger(const cost_profile& p, unsigned worker_slots, std::uint64_t seed)
    : p_(p), slots_(worker_slots) {
  replaces_declared = true;
  for (unsigned w = 0; w < worker_slots; ++w) slots_[w].draws = rng(splitmix64(seed ^ 0xc057c057u) + w);
}

cost_charger::kind& cost_charger::find(slot& s, const std::type_info& behavior, std::uint32_t tag) {
  for (kind& k : s.kinds)
    if (*k.type == behavior && k.tag == tag) return k;
  const turn_kind_cost* c = p_.find(behavior_type_name(behavior), tag);
  const double m = c ? drawn_mean(*c) : 0;
  return s.kinds.emplace_back(kind{&behavior, tag, c, m > 0 ? c->mean_ns / m : 1.0});
}

std::uint64_t cost_charger::end(unsigned w, const std::type_info& behavior, std::uint32_t tag, std::uint64_t,
                                std::uint64_t declared_ns) {
  slot& s = slots_[w];
  kind& k = find(s, behavior, tag);
  ++k.turns;
  if (!k.cost) return declared_ns;
  const double u = double(s.draws.next() >> 11) * 0x1p-53;  // uniform in [0, 1)
  const double ns = k.cost->at(u) * k.scale;
  s.charged_ns += ns;
  return std::uint64_t(ns + 0.5);
}

cost_report cost_charger::report(std::string source) const {
  cost_report r;
  r.source = std::move(source);
  std::map<std::string, bool> missing;  // by name: sorted
  for (const slot& s : slots_) {
    r.charged_ns += s.charged_ns;
    for (const kind& k : s.kinds) {
      if (k.cost) {
        r.charged_turns += k.turns;
      } else {
        r.unprofiled_turns += k.turns;
        missing[behavior_type_name(*k.type) + " tag " + std::to_string(k.tag)] = true;
      }
    }
  }
  for (const auto& [name, _] : missing) r.unprofiled_kinds.push_back(name);
  return r;
}

}  // namespace twinsched
