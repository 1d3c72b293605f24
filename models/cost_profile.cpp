// Naming behavior types, and a kind's quantiles from its histogram.
#include "cost_profile.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace twinsched {

std::string behavior_type_name(const std::type_info& t) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> name(abi::__cxa_demangle(t.name(), nullptr, nullptr, &status), std::free);
  return status == 0 && name ? std::string(name.get()) : std::string(t.name());
}

turn_kind_cost kind_cost(std::string behavior, std::uint32_t tag, const log_histogram& hist) {
  turn_kind_cost k;
  k.behavior = std::move(behavior);
  k.tag = tag;
  k.turns = hist.count();
  k.mean_ns = hist.mean();
  for (unsigned i = 0; i < turn_kind_cost::quantile_count; ++i)
    k.quantiles_ns.push_back(double(hist.quantile(double(i) / double(turn_kind_cost::quantile_count - 1))));
  return k;
}

}  // namespace twinsched
