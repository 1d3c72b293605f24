// Savina's Chameneos: `chameneos` creatures ask a mall for meetings; the mall pairs each request
// with the one waiting (forwarding it to the waiting creature), until `meetings` meetings have
// happened, then answers every request with an exit. Two creatures that meet both take the
// colour the rule gives, and ask again; a creature told to exit reports its meetings to the mall
// and fades. One actor, the mall, takes most messages: it measures contention on one mailbox.
//
// As in Savina's MeetMsg, a request names its creature in its payload (word b), and the mall's
// tables of creatures are set up before the run; the creatures' first requests are injected.
#include <cstdio>
#include <vector>

#include "chameneos.hpp"
#include "savina.hpp"
#include "savina_common.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_chameneos_impl {
namespace {
using namespace savina_chameneos;

struct setup {
  std::uint64_t creatures, meetings;
  actor_ref mall;
  std::vector<actor_ref> refs;
};

class creature final : public behavior {
 public:
  creature(const setup& s, std::uint64_t id) : s_(s), id_(id), colour_(initial(id)) {}
  void receive(context& ctx, const message& m) override {
    acc_ += value(false, m.tag);
    if (m.tag == meet) {  // the mall paired us with the creature m.b: we compute the colour
      colour_ = complement(colour_, colour(m.a));
      ++meetings_;
      ctx.send(s_.refs[m.b], message{colour_, id_, change});
      ctx.send(s_.mall, message{colour_, id_, meet});
    } else if (m.tag == change) {
      colour_ = colour(m.a);
      ++meetings_;
      ctx.send(s_.mall, message{colour_, id_, meet});
    } else {
      last_ = colour_;
      colour_ = faded;
      ctx.send(s_.mall, message{meetings_, id_, count});
      ctx.stop();
    }
  }
  std::uint64_t acc() const { return acc_; }
  std::uint64_t meetings_ = 0;
  colour last_ = faded;

 private:
  const setup& s_;
  std::uint64_t id_;
  colour colour_;
  std::uint64_t acc_ = 0;
};

class mall final : public behavior {
 public:
  explicit mall(const setup& s) : s_(s), left_(s.meetings) {}
  void receive(context& ctx, const message& m) override {
    acc_ += value(true, m.tag);
    if (m.tag == count) {
      acc_ += m.a;
      ++faded_;
      meetings_ += m.a;
      if (faded_ == s_.creatures) ctx.stop();
      return;
    }
    if (left_ == 0) {
      ctx.send(s_.refs[m.b], message{0, 0, exit});
    } else if (!waiting_) {
      waiting_ = s_.refs[m.b];
    } else {
      --left_;
      ctx.send(waiting_, message{m.a, m.b, meet});
      waiting_ = {};
    }
  }
  std::uint64_t acc() const { return acc_; }
  std::uint64_t faded_ = 0, meetings_ = 0;

 private:
  const setup& s_;
  std::uint64_t left_;
  actor_ref waiting_;
  std::uint64_t acc_ = 0;
};

class chameneos final : public savina_workload {
 public:
  explicit chameneos(const workload_params& p)
      : s_{std::uint64_t(p.integer("chameneos")), std::uint64_t(p.integer("meetings")), {}, {}} {}

  void start(context& ctx) override {
    auto m = ctx.spawn_as<mall>({.name = "mall"}, s_);
    s_.mall = m;
    mall_ = &m.behavior;
    savina::spawn_each(ctx, s_.creatures, creatures_, s_.refs, s_);
    for (std::uint64_t i = 0; i < s_.creatures; ++i) ctx.send(m, message{initial(i), i, meet});
  }

  std::uint64_t checksum() const override { return mall_->acc() + sum_of_acc(creatures_); }
  std::uint64_t reference_checksum() const override {
    return savina_chameneos::reference_checksum(s_.creatures, s_.meetings);
  }
  std::uint64_t expected_messages() const override { return messages(s_.creatures, s_.meetings); }
  footprint peak() const override { return {double(s_.creatures) + 1, double(s_.creatures), 8.0 * double(s_.creatures)}; }
  bool result_ok() const override { return savina_chameneos::result_ok(s_.creatures, s_.meetings, result()); }
  std::string detail() const override {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%llu meetings reported by %llu faded chameneos",
                  static_cast<unsigned long long>(mall_->meetings_ / 2), static_cast<unsigned long long>(mall_->faded_));
    return buf;
  }

 private:
  outcome result() const {
    outcome o{mall_->faded_, mall_->meetings_, {}, {}};
    for (const auto* c : creatures_) {
      o.meetings.push_back(c->meetings_);
      o.last.push_back(c->last_);
    }
    return o;
  }
  setup s_;
  mall* mall_ = nullptr;
  std::vector<creature*> creatures_;
};

}  // namespace
}  // namespace savina_chameneos_impl

workload_info savina_chameneos_workload() {
  using namespace savina_chameneos_impl;
  return {"savina-chameneos",
          "Savina Chameneos: creatures meet in pairs through one mall actor and change colour (a contended mailbox)",
          {{"chameneos", std::int64_t(100), "creatures (Savina's numChameneos); two at least, or none could meet", 2, 1e7},
           {"meetings", std::int64_t(200000), "meetings the mall arranges (Savina's numMeetings)", 0, 2e9}},
          [](const workload_params& p, std::uint64_t) { return std::make_unique<chameneos>(p); }};
}

}  // namespace twinsched
