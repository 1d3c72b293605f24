// Savina's Fib (Fibonacci): each call of the recursion is an actor that spawns an actor for each
// of its two subcalls and adds up their responses.
#include <cstdio>

#include "fib.hpp"
#include "savina.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_fib_impl {
namespace {

using namespace savina_fib;

enum : std::uint32_t { request_tag = 1, response_tag = 2 };

/// Where the root call puts the result (its actor has no parent to respond to).
struct fib_outcome {
  std::uint64_t value = 0, print = 0;
  bool done = false;
};

/// One call: a request for fib(n) spawns two children (or answers 1 at once for n <= 2); the
/// second response completes it. Its response carries the value and the accumulated prints of
/// its whole subtree (so the root ends up with every actor's, without a table of actors).
class fib_call final : public behavior {
 public:
  fib_call(actor_ref parent, fib_outcome* out) : parent_(parent), out_(out) {}
  void receive(context& ctx, const message& m) override {
    if (m.tag == request_tag) {
      print_ += request_print(m.a);
      if (m.a <= 2) return finish(ctx, 1);
      for (std::uint64_t k : {m.a - 1, m.a - 2})
        ctx.send(ctx.spawn_as<fib_call>({}, ctx.self(), nullptr), message{k, 0, request_tag});
      return;
    }
    print_ += response_print(m.a) + m.b;
    if (value_ == 0) {  // the first of two responses (every value is at least 1)
      value_ = m.a;
      return;
    }
    finish(ctx, value_ + m.a);
  }

 private:
  void finish(context& ctx, std::uint64_t v) {
    if (parent_)
      ctx.send(parent_, message{v, print_, response_tag});
    else
      *out_ = {v, print_, true};
    ctx.stop();
  }

  actor_ref parent_;
  fib_outcome* out_;
  std::uint64_t print_ = 0, value_ = 0;
};

class fib final : public savina_workload {
 public:
  explicit fib(const workload_params& p) : n_(std::uint64_t(p.integer("n"))) {}

  void start(context& ctx) override {
    ctx.send(ctx.spawn_as<fib_call>({.name = "fib-root"}, actor_ref(), &out_), message{n_, 0, request_tag});
  }
  std::uint64_t checksum() const override { return out_.print; }
  std::uint64_t reference_checksum() const override { return tree_print(n_); }
  std::uint64_t expected_messages() const override { return messages(n_); }
  bool result_ok() const override { return out_.done && savina_fib::result_ok(n_, out_.value); }
  std::string detail() const override {
    char buf[96];
    std::snprintf(buf, sizeof buf, "fib(%llu) = %llu", (unsigned long long)n_, (unsigned long long)out_.value);
    return buf;
  }
  /// Every call is an actor, and none is freed before the run ends.
  footprint peak() const override { return {double(calls(n_)), double(calls(n_)), 0}; }

 private:
  std::uint64_t n_;
  fib_outcome out_;
};

}  // namespace
}  // namespace savina_fib_impl

workload_info savina_fib_workload() {
  using namespace savina_fib_impl;
  return {"savina-fib",
          "Savina's Fib: every call of the Fibonacci recursion is an actor spawned by its caller, "
          "answering with its value",
          {{"n", std::int64_t(25), "the Fibonacci number to compute (Savina's N)", 1, 50}},
          [](const workload_params& p, std::uint64_t) { return std::make_unique<fib>(p); }};
}

}  // namespace twinsched
