// Savina's QuickSort: an actor splits its list around the middle value, spawns an actor for
// each side and joins their sorted sides around the values equal to the pivot; a list shorter
// than the threshold is sorted by its actor sequentially.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>

#include "quicksort.hpp"
#include "savina.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_quicksort_impl {
namespace {

using namespace savina_quicksort;

enum : std::uint32_t { sort_tag = 1, left_tag, right_tag };

struct quicksort_setup {
  std::uint64_t threshold;
  double element_ns;
  // the root's result, read after the run
  values sorted;
  std::uint64_t print = 0;
  bool done = false;
};

/// A list travels as a pointer in the message's first word; its receiver owns it and reads
/// every value (send_data says how many bytes: what a turn on another core pulls across).
std::uint64_t give(values v) { return std::uint64_t(new values(std::move(v))); }
std::uint32_t bytes_of(const values& v) { return std::uint32_t(std::min<std::size_t>(v.size() * sizeof(v[0]), UINT32_MAX)); }
std::unique_ptr<values> take(const message& m) { return std::unique_ptr<values>(reinterpret_cast<values*>(m.a)); }

/// Savina's QuickSortActor. Its answer carries the prints of its subtree, so the root ends up
/// with every actor's.
class quicksort_actor final : public behavior {
 public:
  quicksort_actor(quicksort_setup& s, actor_ref parent, std::uint32_t side) : s_(s), parent_(parent), side_(side) {}
  void receive(context& ctx, const message& m) override {
    std::unique_ptr<values> data = take(m);
    const std::uint64_t c = content(*data);
    std::uint64_t units = 0;
    if (m.tag == sort_tag) {
      print_ += sort_print(c);
      if (data->size() < s_.threshold) {
        result_ = sort_sequentially(*data, units);
        ctx.did_work_ns(std::uint64_t(double(units) * s_.element_ns));
        return finish(ctx);
      }
      const std::uint64_t pivot = (*data)[data->size() / 2];
      send_list(ctx, ctx.spawn_as<quicksort_actor>({}, s_, ctx.self(), std::uint32_t(left_tag)),
                less_than(*data, pivot, units), 0, sort_tag);
      send_list(ctx, ctx.spawn_as<quicksort_actor>({}, s_, ctx.self(), std::uint32_t(right_tag)),
                greater_than(*data, pivot, units), 0, sort_tag);
      result_ = equal_to(*data, pivot, units);
      ctx.did_work_ns(std::uint64_t(double(units) * s_.element_ns));
      ++fragments_;
      return;
    }
    print_ += result_print(c, m.tag == left_tag) + m.b;
    if (!data->empty()) {
      result_ = m.tag == left_tag ? concat(*data, result_, units) : concat(result_, *data, units);
      ctx.did_work_ns(std::uint64_t(double(units) * s_.element_ns));
    }
    if (++fragments_ == 3) finish(ctx);
  }

 private:
  static void send_list(context& ctx, actor_ref to, values v, std::uint64_t b, std::uint32_t tag) {
    const std::uint32_t bytes = bytes_of(v);
    ctx.send_data(to, message{give(std::move(v)), b, tag}, bytes);
  }
  void finish(context& ctx) {
    if (parent_) {
      send_list(ctx, parent_, std::move(result_), print_, side_);
    } else {
      s_.sorted = std::move(result_);
      s_.print = print_;
      s_.done = true;
    }
    ctx.stop();
  }

  quicksort_setup& s_;
  actor_ref parent_;
  std::uint32_t side_;
  std::uint32_t fragments_ = 0;
  values result_;
  std::uint64_t print_ = 0;
};

/// The input (until the root takes it), its multiset print and the actor tree it makes. At
/// namespace scope: clang finds a nested struct with member initializers not
/// default-constructible inside its enclosing class, so std::optional::emplace() would not
/// compile.
struct input_and_tree {
  values input;
  std::uint64_t input_print = 0;
  reference ref;
};

class quicksort final : public savina_workload {
 public:
  quicksort(const workload_params& p, std::uint64_t seed)
      : n_(std::uint64_t(p.integer("n"))), m_(std::uint64_t(p.integer("m"))), seed_(seed),
        s_{std::uint64_t(p.integer("t")), p.real("element_ns"), {}} {}

  /// The root takes the input itself (start runs once): the check needs only its print.
  void start(context& ctx) override {
    prepared();
    ctx.send(ctx.spawn_as<quicksort_actor>({.name = "quicksort-root"}, s_, actor_ref(), std::uint32_t(0)),
             message{give(std::move(ready_->input)), 0, sort_tag});
  }
  std::uint64_t checksum() const override { return s_.print; }
  std::uint64_t reference_checksum() const override { return prepared().ref.print; }
  std::uint64_t expected_messages() const override { return prepared().ref.messages(); }
  bool result_ok() const override {
    return s_.done && savina_quicksort::result_ok(n_, prepared().input_print, s_.sorted);
  }
  std::string detail() const override {
    char buf[128];
    std::snprintf(buf, sizeof buf, "%zu values sorted by %llu actors", s_.sorted.size(),
                  (unsigned long long)prepared().ref.actors);
    return buf;
  }
  /// The input, its copy in flight and the pieces split off it, the sorted result; at most two
  /// actors per `t` values (a tree whose leaves hold t/2 or more, a bound: peak() is asked
  /// before the input exists).
  footprint peak() const override {
    const double actors = 2.0 * double(n_) / double(std::max<std::uint64_t>(s_.threshold / 2, 1)) + 1;
    return {actors, actors, 4.0 * 8.0 * double(n_)};
  }

 private:
  /// The input, its print and the actor tree it makes, on first use: a workload is also built only to ask
  /// its peak() (models/memory_estimate.cpp), which must not pay for them.
  const input_and_tree& prepared() const {
    if (!ready_) {
      ready_.emplace();
      ready_->input = random_input(n_, m_, seed_);
      ready_->input_print = multiset_print(ready_->input);
      split_sequentially(ready_->input, s_.threshold, 0, ready_->ref);
    }
    return *ready_;
  }
  std::uint64_t n_, m_, seed_;
  quicksort_setup s_;
  mutable std::optional<input_and_tree> ready_;
};

/// The kernel: Savina's sequential sort, per element its filters examine and its joins copy.
std::uint64_t sorted_elements(std::uint64_t units) {
  std::uint64_t made = 0, kept = 0;
  for (std::uint64_t seed = 0; made < units; ++seed) kept += sort_sequentially(random_input(2048, 1ull << 60, seed), made).back();
  return kept + made;
}

}  // namespace
}  // namespace savina_quicksort_impl

workload_info savina_quicksort_workload() {
  using namespace savina_quicksort_impl;
  return {"savina-quicksort",
          "Savina's QuickSort: actors split their list around its middle value into two child actors "
          "and join the sorted sides, down to lists short enough to sort sequentially",
          {{"n", std::int64_t(1000000), "Savina's N: values to sort", 1, 1e9},
           {"m", std::int64_t(1) << 60, "Savina's M: values are below it", 1, 9.2e18},
           {"t", std::int64_t(2048), "Savina's T: a list shorter than this is sorted sequentially", 1, 1e9},
           {"element_ns", 3.0,
            "simulation only: modeled cost of one element a filter examines or a join copies, ns (unset: "
            "the machine model's calibrated savina_quicksort_element, else 3: calibrate on the 2-vCPU EPYC VM)",
            0}},
          [](const workload_params& p, std::uint64_t seed) { return std::make_unique<quicksort>(p, seed); },
          {{"savina_quicksort_element", "element_ns", sorted_elements}}};
}

}  // namespace twinsched
