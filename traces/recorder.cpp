// The recorder's writer thread: drains full chunks, interpolates and converts times, writes blocks and the footer.
#include "recorder.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "format.hpp"

namespace twinsched::traces {
namespace {
__extension__ typedef unsigned __int128 u128;  // ticks x 32.32 rate without overflow

/// An interval longer than this many times the lane's pace per event holds a gap.
constexpr std::uint64_t gap_factor = 8;

/// Gives events [from, to) of a chunk their times in ticks, between the stamps t0 (the event
/// before `from`) and t1 (event `to`). By default linearly by position. But where the
/// interval is far longer than `pace` (ticks per event, 32.32, of the lane's last interval
/// without a gap: 0 while unknown) per event, it holds a gap: the events after a message_begin
/// wait for the user's code (pi: a burst of sends, then a millisecond-long job), and
/// interpolating by position would put each job's begin in the middle of it. Then the
/// events are placed `pace` apart and the excess goes after the interval's message_begin
/// events, shared evenly; at decisions level, which records no message events, after its
/// run_begin events. The stamped event t0 counts too (in the chunk: `from` > 0): at
/// decisions level it is often the job's run_begin, since a turn's run_end is held and the
/// stamp after the gap goes to the next turn's run_begin. With no such event the interval
/// is interpolated by position. Updates `pace` from intervals without a gap.
/// `burned` (ticks; 0: not known) is what the handlers' busy loops ran in the interval
/// (event_lane::add_burned): then, gap or not, the jobs after the message_begins are that
/// long, the events `rpace` apart (the runtime's ticks per event, 32.32, of the lane's
/// intervals so far: 0 while unknown), and the rest is the runtime's own slow moments (a
/// first touch of memory, a slab of envelopes, a thread's first steps), which go at the
/// interval's first moment outside a handling (`open`: one is under way at t0), where it has
/// one. Updates `rpace` from such intervals, leaving out those far slower than it.
void place_between(const raw_event* p, std::size_t from, std::size_t to, std::uint64_t t0, std::uint64_t t1,
                   std::uint64_t burned, bool open, std::uint64_t& pace_ref, std::uint64_t& rpace_ref,
                   std::uint64_t* out) {
  u128 pace = pace_ref;
  const std::size_t steps = to - from + 1;  // gaps between t0, the events, and t1
  const u128 span = u128(t1 - t0) << 32;
  const std::size_t first = from > 0 ? from - 1 : from;  // t0's event, where the chunk has it
  std::size_t message_begins = 0, run_begins = 0;
  for (std::size_t j = first; j < to; ++j) {
    message_begins += raw_kind(p[j]) == event_kind::message_begin;
    run_begins += raw_kind(p[j]) == event_kind::run_begin;
  }
  const u128 work = u128(burned) << 32;
  if (message_begins && burned && work < span) {
    // the runtime's time per event here, and the lane's so far
    const u128 here = (span - work) / steps;
    const u128 rp = rpace_ref ? std::min<u128>(rpace_ref, here) : 0;  // unknown: the events close together
    if (rpace_ref ? here <= 4 * u128(rpace_ref) : steps >= 16)  // a first estimate from many events
      rpace_ref = std::uint64_t(std::min<u128>(rpace_ref ? (rp + here) / 2 : here, ~0ull));
    std::size_t rest_at = to + 1;  // the rest goes just before event rest_at (to: before t1)
    for (std::size_t j = from; j <= to && rest_at > to; ++j) {
      if (!open) rest_at = j;
      if (j < to && raw_kind(p[j]) == event_kind::message_begin) open = true;
      if (j < to && raw_kind(p[j]) == event_kind::message_end) open = false;
    }
    u128 rest = span - work - rp * steps, jobs = work;
    if (rest_at > to) jobs += rest, rest = 0;  // no moment outside a handling: the jobs hold it
    const u128 job = jobs / message_begins;
    u128 at = rp;
    if (first < from && raw_kind(p[first]) == event_kind::message_begin) at += job;
    for (std::size_t j = from; j < to; ++j, at += rp) {
      if (j == rest_at) at += rest;
      out[j] = t0 + std::uint64_t(at >> 32);
      if (raw_kind(p[j]) == event_kind::message_begin) at += job;
    }
    return;
  }
  const bool gap = pace != 0 && span > pace * (gap_factor * steps);
  // where the user's code starts: message_begin, or run_begin where there is none (decisions)
  const event_kind opens = message_begins ? event_kind::message_begin : event_kind::run_begin;
  const std::size_t begins = message_begins ? message_begins : run_begins;
  if (!gap || begins == 0) {
    const u128 step = span / steps;
    if (!gap) pace_ref = std::uint64_t(std::min<u128>(step, ~0ull));
    u128 at = step;
    for (std::size_t j = from; j < to; ++j, at += step) out[j] = t0 + std::uint64_t(at >> 32);
    return;
  }
  const u128 excess = (span - pace * steps) / begins;  // > 0: span > 8 x pace x steps
  u128 at = pace;
  if (first < from && raw_kind(p[first]) == opens) at += excess;
  for (std::size_t j = from; j < to; ++j, at += pace) {
    out[j] = t0 + std::uint64_t(at >> 32);
    if (raw_kind(p[j]) == opens) at += excess;
  }
}
}  // namespace

recorder::recorder(const std::string& path, trace_header h, tick_clock* clock, recorder_options o)
    : discard_(o.discard),
      deferred_(o.mode == writer_mode::deferred),
      workers_(h.lanes),
      level_(h.level),
      lanes_(std::make_unique<event_lane[]>(std::size_t(h.lanes) + 1)),
      clocks_(h.lanes + 1),
      writer_(path, (h.clock = clock ? clock->name() : "simulated", h)),
      clock_(clock) {
  const std::size_t lanes = std::size_t(workers_) + 1;
  const std::size_t chunk_bytes = std::max(o.chunk_bytes, event_lane::min_chunk_bytes);
  std::size_t budget = o.memory_budget, most = 64;
  if (deferred_) {
    budget = o.deferred_budget;
    if (budget == 0) {
      const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
      budget =
          std::min<std::size_t>(std::size_t(4) << 30, pages > 0 && page > 0 ? std::size_t(pages) * std::size_t(page) / 4
                                                                            : std::size_t(256) << 20);
    }
    most = std::size_t(1) << 20;
  }
  // The worker lanes share the budget; the outside lane (the workload's start: a few events
  // per actor) gets a small ring of its own, which drains like any other when full.
  const std::uint32_t chunks = std::uint32_t(std::clamp<std::size_t>(budget / ((lanes - 1) * chunk_bytes), 4, most));
  const std::uint64_t interval = clock ? std::uint64_t(double(o.stamp_interval_ns) / clock->ns_per_tick()) : 1;
  for (std::size_t i = 0; i < lanes; ++i)
    lanes_[i].init(chunk_bytes, i + 1 < lanes ? chunks : std::min<std::uint32_t>(chunks, 64), interval);
  // Full level (what the analysis of handlings needs): a worker's stretch between two clock
  // reads longer than 25 stamp intervals (50 us by default) reads its run delay
  // (event_lane.hpp, "Time off a CPU"); decisions level never reads it there.
  if (clock && level_ == trace_level::full)
    for (unsigned i = 0; i < workers_; ++i)
      lanes_[i].watch_gaps(
          std::uint64_t(double(std::max<std::uint64_t>(50000, 25 * o.stamp_interval_ns)) / clock->ns_per_tick()),
          clock);
  if (deferred_ && o.expected_events) {
    // Spread over the worker lanes with a margin (they rarely share evenly), not the outside lane.
    const std::uint64_t per_lane = o.expected_events / std::max<unsigned>(workers_, 1) * 5 / 4 * prefault_event_bytes;
    for (unsigned i = 0; i < workers_; ++i) lanes_[i].prefault(per_lane);
  }
  thread_ = std::thread([this] { writer_loop(); });
}

recorder::~recorder() { stop_writer(); }

void recorder::stop_writer() {
  stop_.store(true, std::memory_order_release);  // pairs with writer_loop's acquire
  if (thread_.joinable()) thread_.join();
}

lane_memory recorder::memory() const {
  lane_memory m;
  m.events = events_;  // the producers do not count them (event_lane.hpp): the writer does
  for (unsigned i = 0; i <= workers_; ++i) m.bytes += lanes_[i].held_bytes();
  return m;
}

std::uint64_t recorder::stalls() const {
  std::uint64_t n = 0;
  for (unsigned i = 0; i <= workers_; ++i) n += lanes_[i].stalls();
  return n;
}

void recorder::writer_loop() {
  for (;;) {
    // acquire: pairs with stop_writer's release; every chunk published before it (the
    // producers were joined before finish) is visible to the drain that follows
    const bool stopping = stop_.load(std::memory_order_acquire);
    if (!drain_ready(deferred_ && !stopping)) {
      if (stopping) return;  // everything published before stop was seen has been drained
      std::this_thread::sleep_for(std::chrono::microseconds(deferred_ ? 1000 : 50));
      // once per wake-up, so at most every 50 us: a hint for the lanes to stamp (event_lane.hpp)
      for (unsigned i = 0; i <= workers_; ++i) lanes_[i].request_stamp();
    }
  }
}

bool recorder::drain_ready(bool backlogged_only) {
  bool any = false;
  for (unsigned i = 0; i <= workers_; ++i) {
    // deferred: leave a lane alone until its ring is 3/4 full, then bring it down to 1/2
    if (backlogged_only && lanes_[i].backlog() * 4 < std::uint64_t(lanes_[i].chunks()) * 3) continue;
    while (const lane_chunk chunk = lanes_[i].ready()) {
      if (backlogged_only && lanes_[i].backlog() * 2 <= lanes_[i].chunks()) break;
      if (!error_) {
        try {
          take(i, chunk);
        } catch (...) {
          error_ = std::current_exception();  // keep draining so producers never wait forever
        }
      }
      lanes_[i].release();
      any = true;
    }
  }
  return any;
}

void recorder::take(unsigned lane, const lane_chunk& c) {
  if (discard_) return;  // not even decoded (recorder_options::discard)
  decode_lane_chunk(c.data, c.bytes, decoded_, &notes_);
  convert_and_write(lane);
}

void recorder::convert_and_write(unsigned lane) {
  raw_event* p = decoded_.data();
  const std::size_t n = decoded_.size();
  lane_clock& lc = clocks_[lane];
  ticks_.resize(n);
  shift_.resize(n);
  const std::uint16_t lane_id = lane < workers_ ? std::uint16_t(lane) : outside_lane;
  // 1. times in ticks: stamps as read, the events between two stamps placed by
  //    place_between (above); and, in the same pass, each turn's messages to its actor
  //    (count_turn: the footer's per-actor counts)
  std::uint64_t prev = lc.last_ticks;
  std::size_t pending = 0;  // first index not yet given a time
  std::size_t note = 0;     // notes_[note] is the next note
  noted_.assign(notes_.size(), 0);
  bool open = lc.handling, open_at_t0 = open;  // a handling under way (after each event; at the stretch's start)
  // lanes hold raw clock ticks (tick_clock.hpp): since the base, modulo the 56-bit field
  const std::uint64_t base = clock_ ? clock_->base() : 0;
  const double per_tick = clock_ ? clock_->ns_per_tick() : 1;
  auto ticks_of = [per_tick](std::uint64_t ns) { return std::uint64_t(double(ns) / per_tick); };
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t w = p[i].word;
    const event_kind k = raw_kind(p[i]);
    if (k == event_kind::run_end) count_turn(p[i].actor, p[i].other);
    if (k == event_kind::message_begin) open = true;
    if (k == event_kind::message_end) open = false;
    if (!(w & raw_stamped)) continue;
    std::uint64_t t = (w - base) & raw_time_mask;
    if (t > (raw_time_mask >> 1)) t = 0;  // read on a core whose clock lagged the base: negative
    t = std::max(t, prev);
    // Time off a CPU in the stretch this stamp ends (event_lane.hpp, "Time off a CPU"): what a
    // handling's busy loops lost, just before its end (that message_end's `other`), and what
    // an off-CPU note says, at the stretch's end, just before this event. The events are
    // placed as if that time were not there, then each moves by what lies before it: so a
    // send keeps its offset from its handling's begin (viz/causality.cpp), and the handling
    // under way holds the time in its duration, which the analysis leaves out of its work
    // (a note is charged to it below).
    std::uint64_t room = t - prev, burned = 0;
    if (clock_) {
      for (std::size_t j = pending; j <= i; ++j) {
        shift_[j] = 0;
        if (raw_kind(p[j]) == event_kind::message_end && p[j].other != 0)
          room -= shift_[j] = std::min(room, ticks_of(p[j].other));
      }
      for (; note < notes_.size() && notes_[note].index == i; ++note) {
        if (notes_[note].kind == note_kind::burned) {
          burned += ticks_of(notes_[note].ns);
          continue;
        }
        const std::uint64_t more = std::min(room, ticks_of(notes_[note].ns));
        noted_[note] = std::min<std::uint64_t>(notes_[note].ns, std::uint64_t(double(more) * per_tick + 0.5));
        room -= more;
      }
    }
    place_between(p, pending, i, prev, prev + room, burned, open_at_t0, lc.pace, lc.rpace, ticks_.data());
    if (room != t - prev)
      for (std::uint64_t before = 0; pending < i; ++pending) ticks_[pending] += before += shift_[pending];
    ticks_[i] = t;
    prev = t;
    pending = i + 1;
    open_at_t0 = open;
  }
  for (std::size_t j = pending; j < n; ++j) ticks_[j] = prev;  // only a final partial chunk ends unstamped
  lc.last_ticks = prev;
  // an off-CPU note's time goes to the handling under way at its stamp, if any: that
  // handling's message_end's `other` (maybe in a later chunk) says it with its busy loops' gaps
  note = 0;
  for (std::size_t i = 0; i < n; ++i) {
    for (; note < notes_.size() && notes_[note].index == i; ++note)
      if (lc.handling) lc.charged += noted_[note];
    const event_kind k = raw_kind(p[i]);
    if (k == event_kind::message_begin) lc.handling = true;
    if (k != event_kind::message_end) continue;
    const std::uint64_t off = std::min<std::uint64_t>(std::uint64_t(p[i].other) + lc.charged, ~std::uint32_t(0));
    p[i].other = std::uint32_t(off);
    lc.off_cpu_ns += off;
    lc.charged = 0;
    lc.handling = false;
  }
  // 2. ticks -> ns in place (the rate refined first, as 32.32 fixed point), never below the
  //    lane's previous time
  std::uint64_t mult = std::uint64_t(1) << 32;
  if (clock_) {
    clock_->refine();
    mult = std::uint64_t(std::llround(clock_->ns_per_tick() * 4294967296.0));
  }
  std::uint64_t last = lc.last_ns;
  for (std::size_t i = 0; i < n; ++i) {
    last = std::max(last, std::uint64_t(u128(ticks_[i]) * mult >> 32));
    ticks_[i] = last;
  }
  lc.last_ns = last;
  // 3. encode straight from the raw chunk (no intermediate events)
  const std::uint64_t* ns = ticks_.data();
  writer_.write_with(lane_id, n, [p, ns, lane_id](std::size_t i) {
    trace_event e;
    e.time_ns = ns[i];
    e.message = p[i].message;
    e.actor = p[i].actor;
    e.other = p[i].other;
    e.worker = lane_id;
    e.kind = raw_kind(p[i]);
    return e;
  });
  events_ += n;
}

void recorder::finish(const run_result& r) {
  if (finished_) return;
  finished_ = true;
  stop_writer();  // the writer has drained every chunk published before it stopped
  drain_ready();  // none left in principle; harmless
  for (unsigned i = 0; i <= workers_; ++i) {
    event_lane& l = lanes_[i];
    l.write_held();  // its producer stopped (joined before finish)
    if (!error_ && l.partial().bytes > 0) {
      try {
        take(i, l.partial());
      } catch (...) {
        error_ = std::current_exception();
      }
    }
  }
  if (error_) std::rethrow_exception(error_);
  std::uint64_t reads = 0, stalls = 0;
  for (unsigned i = 0; i <= workers_; ++i) {
    const std::uint16_t id = i < workers_ ? std::uint16_t(i) : outside_lane;
    // a lane's first event is stamped, and one that wrote events has its summary already
    if (lanes_[i].stamps() == 0 && lanes_[i].stalls() == 0) continue;
    lane_summary& t = writer_.tally(id);
    t.clock_reads = lanes_[i].stamps();
    t.stalls = lanes_[i].stalls();
    t.run_delay_ns = lanes_[i].run_delay();
    t.off_cpu_ns = clocks_[i].off_cpu_ns;
    reads += t.clock_reads;
    stalls += t.stalls;
  }
  trace_footer f = footer_from_result(r, level_);
  for (actor_stats& a : f.actors) a.delivered = a.id < delivered_.size() ? delivered_[a.id] : 0;
  const lane_memory m = memory();
  char note[224];
  std::snprintf(note, sizeof note,
                "; %llu of %llu events stamped by a clock read, the rest interpolated; %llu stalls; %.2f bytes per "
                "event in the lanes",
                static_cast<unsigned long long>(reads), static_cast<unsigned long long>(events_),
                static_cast<unsigned long long>(stalls), double(m.bytes) / double(std::max<std::uint64_t>(m.events, 1)));
  f.clock_note = (clock_ ? clock_->note() + note : std::string("exact simulated times")) +
                 (deferred_ ? "; written after the run (deferred writer)" : "; written during the run");
  writer_.finish(std::move(f));
}

}  // namespace twinsched::traces
