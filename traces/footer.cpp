// Encoding and decoding the trace footer; building it from a run_result.
#include "footer.hpp"

#include <algorithm>

namespace twinsched::traces {

std::uint64_t trace_footer::events() const {
  std::uint64_t n = 0;
  for (const auto& l : lanes) n += l.events;
  return n;
}

std::uint64_t trace_footer::count(unsigned kind) const {
  std::uint64_t n = 0;
  for (const auto& l : lanes) n += l.by_kind[kind & 15];
  return n;
}

std::uint64_t run_start_ns(const trace_footer& f) {
  std::uint64_t start = 0;
  bool any = false;
  for (const auto& l : f.lanes) {
    if (l.events == 0) continue;
    start = any ? std::min(start, l.first_ns) : l.first_ns;
    any = true;
  }
  return start;
}

std::string digest_note(const trace_footer& a, const trace_footer& b) {
  if (comparable_digests(a, b)) return "";
  if (!a.has_digests || !b.has_digests)
    return "payload digests are tallied at the full level only (--trace-level full names the actor whose "
           "payloads differ; the runs' checksums, over every delivered payload, are compared instead)";
  return "one trace is format 2, whose payload hash differs from later formats' (record it again to compare payloads)";
}

trace_footer footer_from_result(const run_result& r, trace_level level) {
  trace_footer f;
  f.messages = r.messages;
  f.expected_messages = r.expected_messages;
  f.dead_letters = r.dead_letters;
  f.leftover = r.leftover;
  f.wall_ns = std::uint64_t(r.wall_s * 1e9 + 0.5);
  f.checksum = r.checksum;
  f.reference = r.reference;
  f.workload_ok = r.workload_ok;
  f.ok = r.ok();
  f.detail = r.detail;
  f.error_count = r.errors.size();
  for (std::size_t i = 0; i < r.errors.size() && i < 10; ++i) f.errors.push_back(r.errors[i]);
  f.per_worker = r.per_worker;
  f.latency_recorded = true;
  f.request_latency = r.request_latency;
  f.scheduling_delay = r.scheduling_delay;
  f.timers = r.timers;
  f.has_actors = !r.per_actor.empty();
  f.has_digests = f.has_actors && level == trace_level::full;
  f.actors = r.per_actor;
  std::sort(f.actors.begin(), f.actors.end(), [](const actor_stats& a, const actor_stats& b) { return a.id < b.id; });
  return f;
}

namespace {
enum : std::uint8_t { flag_workload_ok = 1, flag_ok = 2, flag_has_actors = 4, flag_has_digests = 8 };
}

void encode_footer(const trace_footer& f, byte_sink& out) {
  out.varint(f.messages);
  out.varint(f.expected_messages);
  out.varint(f.dead_letters);
  out.varint(f.leftover);
  out.varint(f.wall_ns);
  out.u64(f.checksum);
  out.u64(f.reference);
  out.u8(std::uint8_t((f.workload_ok ? flag_workload_ok : 0) | (f.ok ? flag_ok : 0) |
                      (f.has_actors ? flag_has_actors : 0) | (f.has_digests ? flag_has_digests : 0)));
  out.str(f.detail);
  out.varint(f.error_count);
  out.varint(f.errors.size());
  for (const auto& e : f.errors) out.str(e);
  out.varint(f.per_worker.size());
  for (const auto& w : f.per_worker) {
    for (std::uint64_t v :
         {w.messages, w.turns, w.steals, w.parks, w.wakeups, w.donations, w.migrations, w.busy_ns, w.idle_ns})
      out.varint(v);
  }
  out.varint(f.lanes.size());
  for (const auto& l : f.lanes) {
    out.u16(l.lane);
    out.varint(l.events);
    out.varint(l.clock_reads);
    out.varint(l.stalls);
    out.u64(l.event_hash);
    out.varint(l.first_ns);
    out.varint(l.last_ns - l.first_ns);
    for (std::uint64_t c : l.by_kind) out.varint(c);
  }
  out.varint(f.actors.size());
  std::uint32_t prev = 0;
  for (const auto& a : f.actors) {
    out.varint(a.id - prev);  // sorted by id
    prev = a.id;
    out.varint(a.group);
    out.varint(a.delivered);
    if (f.has_digests) out.u64(a.digest);
  }
  out.str(f.clock_note);
  // appended (format.hpp, versioning): per lane, in the order above, what the host took
  out.varint(f.lanes.size());
  for (const auto& l : f.lanes) {
    out.varint(l.run_delay_ns < 0 ? 0 : std::uint64_t(l.run_delay_ns) + 1);  // 0: unknown
    out.varint(l.off_cpu_ns);
  }
  // appended: latency and CPU (each worker's parked and CPU time, the two distributions, timers)
  out.varint(f.per_worker.size());
  for (const auto& w : f.per_worker) {
    out.varint(w.parked_ns);
    out.varint(w.cpu_ns);
  }
  for (const latency_summary* l : {&f.request_latency, &f.scheduling_delay})
    for (std::uint64_t v : {l->count, std::uint64_t(l->mean_ns + 0.5), l->p50_ns, l->p99_ns, l->p999_ns, l->max_ns}) out.varint(v);
  out.varint(f.timers);
}

trace_footer decode_footer(byte_source& in, std::uint16_t version) {
  trace_footer f;
  f.digest_format = std::min(version, digest_hash_version);
  f.messages = in.varint();
  f.expected_messages = in.varint();
  f.dead_letters = in.varint();
  f.leftover = in.varint();
  f.wall_ns = in.varint();
  f.checksum = in.u64();
  f.reference = in.u64();
  std::uint8_t flags = in.u8();
  f.workload_ok = flags & flag_workload_ok;
  f.ok = flags & flag_ok;
  f.has_actors = flags & flag_has_actors;
  // before version 4 every traced run tallied digests (format.hpp, versioning)
  f.has_digests = f.has_actors && (version < 4 || (flags & flag_has_digests));
  f.detail = in.str();
  f.error_count = in.varint();
  auto count = [&](const char* what, std::uint64_t max) {
    const std::size_t at = in.pos();
    std::uint64_t n = in.varint();
    if (n > max || n > in.left())
      in.fail(at, std::string("footer: implausible ") + what + " count " + std::to_string(n));
    return std::size_t(n);
  };
  for (std::size_t n = count("error", 1000); n > 0; --n) f.errors.push_back(in.str());
  for (std::size_t n = count("worker", 65535); n > 0; --n) {
    worker_stats w;
    for (std::uint64_t* v :
         {&w.messages, &w.turns, &w.steals, &w.parks, &w.wakeups, &w.donations, &w.migrations, &w.busy_ns, &w.idle_ns})
      *v = in.varint();
    f.per_worker.push_back(w);
  }
  for (std::size_t n = count("lane", 65536); n > 0; --n) {
    lane_summary l;
    l.lane = in.u16();
    l.events = in.varint();
    l.clock_reads = in.varint();
    l.stalls = in.varint();
    l.event_hash = in.u64();
    l.first_ns = in.varint();
    l.last_ns = l.first_ns + in.varint();
    for (auto& c : l.by_kind) c = in.varint();
    f.lanes.push_back(l);
  }
  std::uint32_t id = 0;
  for (std::size_t n = count("actor", std::uint64_t(1) << 32); n > 0; --n) {
    actor_stats a;
    id += std::uint32_t(in.varint());
    a.id = id;
    a.group = std::uint32_t(in.varint());
    a.delivered = in.varint();
    if (f.has_digests) a.digest = in.u64();
    f.actors.push_back(a);
  }
  f.clock_note = in.str();
  if (!in.done()) {  // written since the recorder accounts for time off a CPU
    const std::size_t at = in.pos();
    if (in.varint() != f.lanes.size()) in.fail(at, "footer: the off-CPU section does not list every lane");
    for (auto& l : f.lanes) {
      const std::uint64_t delay = in.varint();
      l.run_delay_ns = delay == 0 ? -1 : std::int64_t(delay - 1);
      l.off_cpu_ns = in.varint();
    }
    f.off_cpu_recorded = true;
  }
  if (!in.done()) {  // written since the runtime measures latency and CPU
    const std::size_t at = in.pos();
    if (in.varint() != f.per_worker.size()) in.fail(at, "footer: the CPU section does not list every worker");
    for (auto& w : f.per_worker) {
      w.parked_ns = in.varint();
      w.cpu_ns = in.varint();
    }
    for (latency_summary* l : {&f.request_latency, &f.scheduling_delay}) {
      l->count = in.varint();
      l->mean_ns = double(in.varint());
      l->p50_ns = in.varint();
      l->p99_ns = in.varint();
      l->p999_ns = in.varint();
      l->max_ns = in.varint();
    }
    f.timers = in.varint();
    f.latency_recorded = true;
  }
  return f;
}

}  // namespace twinsched::traces
