// The lanes' in-memory encoding: random events, and turns whose fields now and then break the short forms' conditions,
// round-trip through the encoder and the writer's decoder, alone and across a lane's chunk boundaries; the worst
// event fits max_lane_event_bytes; a turn of `forward` takes 40 bytes at full level and 16 at decisions.
#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "traces/event_lane.hpp"
#include "traces/lane_codec.hpp"
#include "traces/trace_error.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;
using namespace twinsched::traces;

namespace {

/// An event with these fields (time 0).
trace_event make_event(event_kind k, std::uint32_t actor, std::uint64_t message, std::uint32_t other) {
  trace_event e;
  e.kind = k;
  e.actor = actor;
  e.message = message;
  e.other = other;
  return e;
}

/// Random events mixing what the predictions catch (repeats, turn patterns) with what they
/// cannot (large, extreme and wrapping ids and times).
class event_source {
 public:
  explicit event_source(std::uint64_t seed) : rng_(seed) {}

  trace_event next() {
    trace_event e;
    e.kind = event_kind(pick(16));
    e.actor = field32(prev_.actor);
    e.other = pick(3) == 0 ? field32(prev_.other) : prev_.other;
    switch (pick(5)) {
      case 0: e.message = prev_.message; break;
      case 1: e.message = 0; break;
      case 2: e.message = rng_(); break;  // anything, sender and seq both 32-bit
      case 3: e.message = prev_.message + pick(300) - 150; break;
      default: e.message = (std::uint64_t(field32(std::uint32_t(prev_.message >> 32))) << 32) | pick(1u << 20); break;
    }
    switch (pick(4)) {  // times move both ways: ticks read on a lagging core are "negative"
      case 0: time_ += pick(100); break;
      case 1: time_ += rng_() >> pick(64); break;
      case 2: time_ -= pick(1000); break;
      default: time_ = rng_(); break;
    }
    e.time_ns = time_;
    prev_ = e;
    return e;
  }
  bool coin(unsigned one_in) { return pick(one_in) == 0; }

 private:
  std::uint32_t pick(std::uint64_t n) { return std::uint32_t(rng_() % n); }
  std::uint32_t field32(std::uint32_t prev) {
    switch (pick(5)) {
      case 0: return prev;
      case 1: return 0;
      case 2: return 0xffffffffu - pick(3);
      case 3: return prev + pick(64) - 32;
      default: return std::uint32_t(rng_());
    }
  }
  std::mt19937_64 rng_;
  trace_event prev_{};
  std::uint64_t time_ = 0;
};

/// Turns as the worker emits them (models/worker.hpp), each field now and then replaced by one
/// that breaks its short form's condition (another actor, a wide id, a nonzero `other`), with
/// reschedules and rare kinds in between.
class turn_source {
 public:
  explicit turn_source(std::uint64_t seed) : rng_(seed) {}

  trace_event next() {
    if (queue_.empty()) fill();
    trace_event e = queue_.front();
    queue_.erase(queue_.begin());
    e.time_ns = time_ += 1 + pick(50);
    if (pick(8) == 0) {  // break something
      switch (pick(4)) {
        case 0: e.actor = pick(2) ? 0xffffffffu - pick(3) : (1u << 24) + pick(100); break;
        case 1: e.message = rng_(); break;
        case 2: e.other = pick(2) ? 1 + pick(10) : 0xffffffffu - pick(2); break;
        default: e.message = std::uint64_t(pick(1u << 24)) << 32 | pick(1u << 20); break;
      }
    }
    return e;
  }

 private:
  void fill() {
    const std::uint32_t a = actor(), b = actor(), from = actor();
    const std::uint64_t m = std::uint64_t(from) << 32 | ++seq_, m2 = std::uint64_t(a) << 32 | ++seq_;
    auto add = [&](event_kind k, std::uint32_t act, std::uint64_t msg, std::uint32_t other) {
      queue_.push_back(make_event(k, act, msg, other));
    };
    add(event_kind::run_begin, a, pick(2) ? 0 : pick(1u << 20), pick(4) ? pick(4) : 0xffffffffu);
    add(event_kind::message_begin, a, m, 0);
    add(event_kind::send, b, m2, 0);
    if (pick(2)) add(event_kind::schedule, b, pick(3) ? m2 : 0, 0);  // 0: as at decisions level
    add(event_kind::message_end, a, m, 0);
    add(event_kind::run_end, a, 0, 1 + pick(3));
    if (pick(4) == 0) add(event_kind::schedule, a, 0, pick(3));                    // a reschedule
    if (pick(8) == 0) add(event_kind(pick(16)), actor(), pick(2) ? rng_() : 0, pick(5));  // anything
  }
  std::uint32_t actor() { return pick(1000); }
  std::uint32_t pick(std::uint64_t n) { return std::uint32_t(rng_() % n); }
  std::mt19937_64 rng_;
  std::vector<trace_event> queue_;
  std::uint64_t seq_ = 20000, time_ = 0;
};

/// What the writer must get back for `e`, stamped with `t` or not.
void check_same(const raw_event& got, const trace_event& e, bool stamped, std::uint64_t t) {
  CHECK(event_kind((got.word >> raw_kind_shift) & 15) == e.kind);
  CHECK(got.actor == e.actor);
  CHECK(got.message == e.message);
  CHECK(got.other == e.other);
  CHECK(bool(got.word & raw_stamped) == stamped);
  CHECK((got.word & raw_time_mask) == (stamped ? t & raw_time_mask : 0));
}

template <class Source>
void round_trip(std::uint64_t seed) {
  Source src(seed);
  std::vector<trace_event> in;
  std::vector<bool> stamped;
  std::vector<std::uint8_t> buf(2000 * max_lane_event_bytes);
  lane_codec enc;
  std::uint8_t* p = buf.data();
  std::mt19937_64 coin(seed);
  for (int i = 0; i < 2000; ++i) {
    in.push_back(src.next());
    stamped.push_back(coin() % 3 == 0);
    std::uint8_t* q = p;
    if (in.back().kind == event_kind::run_end && enc.hold_end(in.back()))
      stamped.back() = false;  // as a sampled lane holds it: the next event writes it
    else
      q = enc.encode(p, in.back(), stamped.back(), in.back().time_ns);
    REQUIRE(std::size_t(q - p) <= max_lane_record_bytes);  // an event, and a held run_end before it
    REQUIRE(std::size_t(q - p) % 4 == 0);
    p = q;
  }
  p = enc.write_held(p);  std::vector<raw_event> out;
  decode_lane_chunk(buf.data(), std::size_t(p - buf.data()), out);
  REQUIRE(out.size() == in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    CAPTURE(seed);
    CAPTURE(i);
    check_same(out[i], in[i], stamped[i], in[i].time_ns);
  }
  // bytes that end inside an event are an error, not garbage (every event is whole 4-byte units)
  CHECK_THROWS_AS(decode_lane_chunk(buf.data(), std::size_t(p - buf.data()) - 1, out), trace_error);
  CHECK_THROWS_AS(decode_lane_chunk(buf.data(), std::size_t(p - buf.data()) - 2, out), trace_error);
}

}  // namespace

TEST_CASE("random events of every kind, stamped or not, round-trip through the lane codec") {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) round_trip<event_source>(seed);
}

TEST_CASE("turns whose fields now and then break the short forms round-trip through the lane codec") {
  for (std::uint64_t seed = 1; seed <= 50; ++seed) round_trip<turn_source>(seed);
}

TEST_CASE("a head no encoder writes is an error, not garbage") {
  std::vector<std::uint8_t> buf(4, 0);
  buf[0] = std::uint8_t(event_kind::park);  // park has no short form
  std::vector<raw_event> out;
  CHECK_THROWS_AS(decode_lane_chunk(buf.data(), buf.size(), out), trace_error);
}

TEST_CASE("the largest event fits max_lane_event_bytes") {
  lane_codec enc;
  std::vector<std::uint8_t> buf(64);
  trace_event e;
  e.kind = event_kind::donate;  // no short form: the long form
  e.actor = 0x80000000u;
  e.message = 0x8000000080000000u;
  e.other = 0xffffffffu;
  std::uint8_t* end = enc.encode(buf.data(), e, true, std::uint64_t(1) << 63);
  CHECK(std::size_t(end - buf.data()) == max_lane_event_bytes);
}

TEST_CASE("events pushed into a lane come back from its chunks and partial chunk, across many chunk boundaries") {
  // One thread plays both sides: it pushes, and drains what is ready as the writer would
  // (W1-W3), with rings so small that chunks are reused many times.
  for (const bool exact : {true, false}) {
    CAPTURE(exact);
    event_source src(exact ? 7 : 8);
    event_lane lane;
    lane.init(200, 3, std::uint64_t(1) << 30);  // rounded up to 256 bytes: ~10-60 events a chunk
    std::vector<trace_event> in;
    std::vector<std::uint64_t> reads;  // sampled: the time each event was stamped with, if it was
    std::vector<raw_event> out, chunk;
    std::size_t chunks = 0;
    auto drain = [&] {
      while (const lane_chunk c = lane.ready()) {
        CHECK(c.bytes > 0);
        CHECK(c.bytes + sizeof(event_lane::chunk_head) <= lane.chunk_bytes());
        decode_lane_chunk(c.data, c.bytes, chunk);
        // the chunk's last event is stamped: its times need no other chunk
        CHECK((chunk.back().word & raw_stamped) != 0);
        out.insert(out.end(), chunk.begin(), chunk.end());
        lane.release();
        ++chunks;
      }
    };
    for (int i = 0; i < 20000; ++i) {
      in.push_back(src.next());
      if (exact) {
        lane.push_exact(in.back());
      } else {
        reads.push_back(~std::uint64_t(0));
        lane.push_sampled(in.back(), [&] { return reads.back() = in.back().time_ns; });
      }
      drain();
    }
    lane.write_held();
    const lane_chunk rest = lane.partial();
    decode_lane_chunk(rest.data, rest.bytes, chunk);
    out.insert(out.end(), chunk.begin(), chunk.end());
    CHECK(chunks > 300);
    CHECK(lane.stalls() == 0);
    REQUIRE(out.size() == in.size());
    std::size_t stamped = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
      CAPTURE(i);
      const bool s = exact || reads[i] != ~std::uint64_t(0);
      stamped += s;
      check_same(out[i], in[i], s, in[i].time_ns);
    }
    CHECK(lane.stamps() == stamped);
    if (!exact) CHECK(stamped < in.size());  // the sampled lane interpolates some
  }
}

TEST_CASE("a held run_end shares the next run_begin's record, or is written before any other event") {
  lane_codec enc;
  std::vector<std::uint8_t> buf(256);
  std::uint8_t* p = enc.encode(buf.data(), make_event(event_kind::run_begin, 5, 0, 1), false, 0);
  CHECK_FALSE(enc.hold_end(make_event(event_kind::run_end, 6, 0, 1)));  // not the turn's actor
  REQUIRE(enc.hold_end(make_event(event_kind::run_end, 5, 0, 3)));
  CHECK_FALSE(enc.hold_end(make_event(event_kind::run_end, 5, 0, 3)));  // one at a time
  std::uint8_t* const fused = p;
  p = enc.encode(p, make_event(event_kind::run_begin, 7, 0, 0), false, 0);
  CHECK(p - fused == 12);  // head, k, actor: one record
  std::uint32_t head;
  std::memcpy(&head, fused, 4);
  CHECK((head & lane_codec::y_bit) != 0);
  REQUIRE(enc.hold_end(make_event(event_kind::run_end, 7, 0, 2)));
  std::uint8_t* const apart = p;
  p = enc.encode(p, make_event(event_kind::schedule, 7, 0, 1), false, 0);
  CHECK(p - apart == 4 + 8);  // the run_end's own record, then the schedule's
  REQUIRE(enc.hold_end(make_event(event_kind::run_end, 7, 0, 4)));
  p = enc.write_held(p);
  std::vector<raw_event> out;
  decode_lane_chunk(buf.data(), std::size_t(p - buf.data()), out);
  REQUIRE(out.size() == 6);
  const std::vector<trace_event> want{make_event(event_kind::run_begin, 5, 0, 1), make_event(event_kind::run_end, 5, 0, 3),
                                      make_event(event_kind::run_begin, 7, 0, 0), make_event(event_kind::run_end, 7, 0, 2),
                                      make_event(event_kind::schedule, 7, 0, 1), make_event(event_kind::run_end, 7, 0, 4)};
  for (std::size_t i = 0; i < want.size(); ++i) {
    CAPTURE(i);
    check_same(out[i], want[i], false, 0);
  }
  // bytes that end inside the fused record (after its run_end's k) are an error
  CHECK_THROWS_AS(decode_lane_chunk(buf.data(), std::size_t(fused + 8 - buf.data()), out), trace_error);
  decode_lane_chunk(buf.data(), std::size_t(fused + 12 - buf.data()), out);  // up to its end: 3 events
  CHECK(out.size() == 3);
}

TEST_CASE("a stamp the writer asks for (request_stamp) stamps the lane's next event only, at any point of a chunk") {
  // A huge interval keeps stamps by position away: after its first two events the lane
  // would stamp only each chunk's last, unless asked.
  event_lane lane;
  lane.init(4096, 4, std::uint64_t(1) << 40);
  trace_event e{0, 0, 3, 0, 0, event_kind::run_end};
  int reads = 0;
  auto push = [&](std::uint64_t t) { lane.push_sampled(e, [&] { return ++reads, t; }); };
  push(100);  // the first event is stamped
  push(200);  // and the next (k starts at 1 byte: the next event), where k adapts to the interval
  for (std::uint64_t i = 0; i < 20; ++i) push(300 + i);
  CHECK(reads == 2);
  for (int round = 0; round < 5; ++round) {
    CAPTURE(round);
    lane.request_stamp();
    push(1000);
    CHECK(reads == 3 + round);
    for (std::uint64_t i = 0; i < 10; ++i) push(1001 + i);
    CHECK(reads == 3 + round);
  }
  CHECK(lane.stamps() == std::uint64_t(reads));
  lane.write_held();
  std::vector<raw_event> out;
  decode_lane_chunk(lane.partial().data, lane.partial().bytes, out);
  CHECK(out.size() == 2 + 20 + 5 * 11);
}

TEST_CASE("a turn of forward takes 40 bytes at full level and 16 at decisions, and comes back") {
  // run_begin(A) message_begin(A, m) send(B, m') schedule(B, m') message_end(A, m) run_end(A),
  // with A and B among 1000 actors and seqs around 20000, as forward records 20 M messages;
  // at decisions level run_begin and schedule name no message (models/worker.hpp)
  for (const bool full : {true, false}) {
    CAPTURE(full);
    std::mt19937_64 rng(3);
    std::vector<std::uint32_t> sent(1000), processed(1000);
    lane_codec enc;
    std::vector<std::uint8_t> buf(6 * 1000 * max_lane_event_bytes);
    std::vector<trace_event> in;
    std::uint8_t* p = buf.data();
    auto push = [&](event_kind k, std::uint32_t actor, std::uint64_t message, std::uint32_t other) {
      if (!recorded_at(k, full ? trace_level::full : trace_level::decisions)) return;
      in.push_back(make_event(k, actor, message, other));
      if (k != event_kind::run_end || !enc.hold_end(in.back())) p = enc.encode(p, in.back(), false, 0);
    };
    for (auto& s : sent) s = 20000 + std::uint32_t(rng() % 400);
    for (auto& n : processed) n = 1 + std::uint32_t(rng() % 400);
    std::vector<bool> ran(1000);
    for (int turn = 0; turn < 1000; ++turn) {
      const std::uint32_t a = std::uint32_t(rng() % 1000), b = std::uint32_t(rng() % 1000);
      const std::uint32_t from = std::uint32_t(rng() % 1000);
      const std::uint64_t m = std::uint64_t(from) << 32 | sent[from]++;
      const std::uint64_t m2 = std::uint64_t(a) << 32 | sent[a]++;
      // the worker's last_worker: ~0 before the first turn, else 0 or 1
      const std::uint32_t last = ran[a] ? std::uint32_t(rng() % 2) : ~0u;
      ran[a] = true;
      push(event_kind::run_begin, a, full ? processed[a]++ : 0, last);
      push(event_kind::message_begin, a, m, 0);
      push(event_kind::send, b, m2, 0);
      push(event_kind::schedule, b, full ? m2 : 0, 0);
      push(event_kind::message_end, a, m, 0);
      push(event_kind::run_end, a, 0, 1);  // held: the next turn's run_begin carries it
    }
    p = enc.write_held(p);
    const std::size_t bytes = std::size_t(p - buf.data());
    MESSAGE(std::string(full ? "full" : "decisions") << ": " << double(bytes) / double(in.size()) << " bytes per event");
    CHECK(bytes == (full ? 40u : 16u) * 1000);
    std::vector<raw_event> out;
    decode_lane_chunk(buf.data(), bytes, out);
    REQUIRE(out.size() == in.size());
    for (std::size_t i = 0; i < in.size(); ++i) check_same(out[i], in[i], false, 0);
  }
}


TEST_CASE("a lane's busy-loop gaps ride on its next message_end, and its notes come back with the stamp before them") {
  // add_off_cpu (burn_ns: a handling preempted in its busy loop) is carried by the lane's next
  // message_end as its `other`, once; a watched lane writes what its busy loops ran
  // (add_burned) as a note after the stamp that ends the stretch.
  struct no_clock final : tick_clock {
    std::uint64_t now() const override { return 0; }
    std::uint64_t base() const override { return 0; }
    double ns_per_tick() const override { return 1; }
    void refine() override {}
    std::string name() const override { return "none"; }
    std::string note() const override { return ""; }
  } clock;
  event_lane lane;
  lane.init(4096, 4, std::uint64_t(1) << 40);
  lane.watch_gaps(std::uint64_t(1) << 40, &clock);  // no stretch that long: no CPU clock read
  auto push = [&](trace_event e, std::uint64_t t) { lane.push_sampled(e, [t] { return t; }); };
  push(make_event(event_kind::run_begin, 5, 0, ~0u), 100);  // the first event: stamped
  push(make_event(event_kind::message_begin, 5, 1, 0), 110);
  lane.add_burned(2000);
  lane.add_off_cpu(700);
  lane.add_off_cpu(50);
  push(make_event(event_kind::message_end, 5, 1, 0), 2900);
  push(make_event(event_kind::message_begin, 5, 2, 0), 2910);
  push(make_event(event_kind::message_end, 5, 2, 0), 4900);
  lane.request_stamp();
  push(make_event(event_kind::steal, 9, 0, 1), 5000);  // stamped: it ends the stretch
  lane.write_held();
  std::vector<raw_event> out;
  std::vector<lane_note> notes;
  decode_lane_chunk(lane.partial().data, lane.partial().bytes, out, &notes);
  REQUIRE(out.size() == 6);
  CHECK(raw_kind(out[2]) == event_kind::message_end);
  CHECK(out[2].other == 750);  // the gaps, once
  CHECK(out[4].other == 0);    // not again
  CHECK(out[2].message == 1);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].kind == note_kind::burned);
  CHECK(notes[0].ns == 2000);
  CHECK(notes[0].index == 5);  // the steal's stamp ends the stretch the busy loop ran in
}

TEST_CASE("a note written where no stamped event precedes it is an error") {
  std::vector<std::uint8_t> buf(16);
  lane_codec::write_note(buf.data(), note_kind::off_cpu, 5);
  std::vector<raw_event> out;
  std::vector<lane_note> notes;
  CHECK_THROWS_AS(decode_lane_chunk(buf.data(), 8, out, &notes), trace_error);
}

TEST_SUITE_END();
