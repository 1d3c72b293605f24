// Pieces that several Savina benchmarks share: the actor that ends a run once every worker has
// reported, and the start of a master-and-workers run.
#pragma once
#include <cstdint>
#include <vector>

#include "../../behavior.hpp"

namespace twinsched::savina {

/// Savina's master in ConcDict and ConcSLL: counts the workers' EndWork messages, adding
/// Print(a) of each to its checksum term, and when all `workers` of the Setup have ended sends
/// `End` to the Setup's `Target` actor (read then, so it may be set after this one is spawned)
/// and stops. What differs between the benchmarks is in the template's arguments so that the
/// behavior stays 32 bytes and lives in its actor's first cache line (context::spawn_as).
template <class Setup, actor_ref Setup::*Target, std::uint32_t End, std::uint64_t (*Print)(std::uint64_t worker)>
class end_master final : public behavior {
 public:
  explicit end_master(const Setup& s) : s_(s) {}
  void receive(context& ctx, const message& m) override {
    acc_ += Print(m.a);
    if (++ended_ == s_.workers) {
      ctx.send(s_.*Target, message{0, 0, End});
      ctx.stop();
    }
  }
  std::uint64_t acc() const { return acc_; }
  std::uint64_t ended() const { return ended_; }

 private:
  const Setup& s_;
  std::uint64_t acc_ = 0, ended_ = 0;
};

/// Spawns `n` actors of B, the i-th built from (args..., i), adding each behavior to `out` and
/// its address to `refs`.
template <class B, class Index, class... Args>
void spawn_each(context& ctx, Index n, std::vector<B*>& out, std::vector<actor_ref>& refs, Args&&... args) {
  for (Index i = 0; i < n; ++i) {
    auto made = ctx.spawn_as<B>({}, args..., i);
    out.push_back(&made.behavior);
    refs.push_back(made);
  }
}

/// Spawns `n` workers as spawn_each does, and only then sends each `go`, so that no worker runs
/// before all exist.
template <class Worker, class... Args>
void spawn_workers(context& ctx, std::uint64_t n, std::vector<Worker*>& out, const message& go, Args&&... args) {
  std::vector<actor_ref> ws;
  spawn_each(ctx, n, out, ws, args...);
  for (actor_ref w : ws) ctx.send(w, go);
}

}  // namespace twinsched::savina
