// Explore's search and shrink over the process pool: schedules in seed order, the first failure, ddmin over its preemptions.
#include "explore/search.hpp"

#include <memory>

#include "explore/ddmin.hpp"

namespace twinsched::explore {

trial simulation_trial(const sim_batch& b) {
  return [&b](const sim_options& o, outcome& out) {
    auto sim = std::make_shared<running_simulation>(b.start(o));
    return jobs::started_job{sim->fd, [sim] { return read_available(*sim); }, [sim, &out] {
                               out = judge(finish_simulation(*sim));
                               return out.failed;
                             }};
  };
}

std::vector<std::optional<outcome>> run_schedules(const std::vector<sim_options>& schedules, const trial& t,
                                                  const search_options& o) {
  std::vector<outcome> outcomes(schedules.size());
  std::vector<bool> ran(schedules.size());
  jobs::pool_options po;
  po.jobs = o.jobs;
  po.stop_after_failure = true;
  po.wall_limit_s = o.wall_limit_s;
  po.tick = o.progress;
  jobs::run_pool(
      schedules.size(), po,
      [&](std::size_t i) {
        ran[i] = true;
        return t(schedules[i], outcomes[i]);
      },
      [&](std::size_t i, const std::string& what) {  // the run's process crashed: a failure too
        outcomes[i] = outcome{true, "crash", what, {}};
      });
  std::vector<std::optional<outcome>> out(schedules.size());
  for (std::size_t i = 0; i < schedules.size(); ++i)
    if (ran[i]) out[i] = std::move(outcomes[i]);
  return out;
}

std::vector<sim_options> draw_schedules(const sim_options& base, const schedule_spec& spec, std::uint64_t runs) {
  std::vector<sim_options> v;
  for (std::uint64_t k = 0; k < runs; ++k) {
    sim_options o = base;
    o.schedule = spec;
    o.schedule.seed = spec.seed + k;
    v.push_back(o);
  }
  return v;
}

search_result search(const std::vector<sim_options>& schedules, const trial& t, const search_options& o) {
  search_result r;
  r.outcomes = run_schedules(schedules, t, o);
  for (std::size_t i = 0; i < r.outcomes.size(); ++i) {
    if (!r.outcomes[i]) continue;
    ++r.ran;
    if (r.outcomes[i]->failed && !r.failed) r.failed = i;
  }
  return r;
}

sim_options with_preemptions(const sim_options& failing, const std::vector<preemption>& list) {
  sim_options o = failing;
  o.schedule = schedule_spec{};
  o.schedule.strategy = "list";
  o.schedule.list = list;
  return o;
}

std::vector<preemption> shrink_schedule(const sim_options& failing, std::vector<preemption> list, const std::string& kind,
                                        const trial& t, unsigned jobs, std::size_t& tries) {
  search_options o;
  o.jobs = jobs;
  auto first_failing = [&](const std::vector<std::vector<preemption>>& candidates) -> std::optional<std::size_t> {
    std::vector<sim_options> opts;
    for (const auto& c : candidates) opts.push_back(with_preemptions(failing, c));
    tries += opts.size();
    const auto results = run_schedules(opts, t, o);
    for (std::size_t i = 0; i < results.size(); ++i)
      if (results[i] && results[i]->failed && results[i]->kind == kind) return i;
    return std::nullopt;
  };
  return ddmin(std::move(list), first_failing);
}

}  // namespace twinsched::explore
