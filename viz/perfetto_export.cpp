// The Perfetto/Chrome JSON exporter: the workers' states (traces::worker_states) as slices, plus flows, instants and counters, over the merged event stream.
#include "perfetto_export.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "models/config.hpp"
#include "traces/format.hpp"
#include "traces/merged_cursor.hpp"
#include "traces/header.hpp"
#include "traces/worker_states.hpp"

namespace twinsched::viz {
using namespace twinsched::traces;
namespace {

/// ns -> microseconds with exactly three decimals (exact: no rounding drift between slices).
std::string us(std::uint64_t ns) {
  char b[32];
  std::snprintf(b, sizeof b, "%llu.%03llu", static_cast<unsigned long long>(ns / 1000),
                static_cast<unsigned long long>(ns % 1000));
  return b;
}

int tid_of(std::uint16_t lane) { return lane == outside_lane ? 0 : int(lane) + 1; }

std::string json_string(const std::string& s) {
  std::string r = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      r += '\\', r += c;
    else if (static_cast<unsigned char>(c) < 0x20) {
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", unsigned(c));
      r += b;
    } else
      r += c;
  }
  return r + "\"";
}

std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return x;
}

class json_out {
 public:
  explicit json_out(std::ostream& o) : o_(o) { o_ << "{\"traceEvents\":[\n"; }
  void event(const std::string& body) {
    if (!first_) o_ << ",\n";
    first_ = false;
    o_ << '{' << body << '}';
  }
  void close(const std::string& other) { o_ << "\n],\"displayTimeUnit\":\"ns\",\"otherData\":" << other << "}\n"; }

 private:
  std::ostream& o_;
  bool first_ = true;
};

/// Each worker's turns, messages, idle spells and parks (traces::worker_states) as slices.
struct slices : worker_visitor {
  std::function<void(std::uint16_t, const std::string&, const std::string&, std::uint64_t, std::uint64_t,
                     const std::string&)>
      slice;
  void span(const worker_span& s) override {
    switch (s.kind) {
      case span_kind::turn:
        slice(s.lane, "actor " + std::to_string(s.actor), "turn", s.begin_ns, s.end_ns,
              s.ended ? "\"actor\":" + std::to_string(s.actor) + ",\"messages\":" + std::to_string(s.messages) : "");
        break;
      case span_kind::message: {
        char args[128] = "";
        if (s.ended) {
          int len = std::snprintf(args, sizeof args, "\"message\":\"%llu:%llu\"",
                                  static_cast<unsigned long long>(s.message >> sender_shift),
                                  static_cast<unsigned long long>(s.message & seq_mask));
          if (s.off_cpu_ns)  // a real run's time off a CPU inside it (format.hpp), not its work
            std::snprintf(args + len, sizeof args - std::size_t(len), ",\"off_cpu_ns\":%llu",
                          static_cast<unsigned long long>(s.off_cpu_ns));
        }
        slice(s.lane, "message", "message", s.begin_ns, s.end_ns, args);
        break;
      }
      case span_kind::parked:
        slice(s.lane, "parked", "idle", s.begin_ns, s.end_ns, "");
        break;
      case span_kind::idle:
        slice(s.lane, "idle", "idle", s.begin_ns, s.end_ns, "");
        break;
    }
  }
};

}  // namespace

perfetto_summary export_perfetto(const trace_reader& r, std::ostream& os, const perfetto_options& o) {
  perfetto_summary sum;
  const trace_footer& f = r.footer();
  const std::uint64_t from = o.from_ns, to = std::max(o.from_ns, o.to_ns);
  // every time below, the window's included, is since the run began (footer.hpp run_start_ns)
  const std::uint64_t start = run_start_ns(f);
  auto since = [start](std::uint64_t t) { return since_run_start(t, start); };
  // Flow sampling: count the sends inside the window exactly, decoding only the blocks that
  // can hold some (a block of a lane ends where the lane's next block starts).
  std::uint64_t t1 = 0;
  for (const auto& l : f.lanes) t1 = std::max(t1, since(l.last_ns));
  std::uint64_t estimate = 0;
  if (o.max_flows != 0 && f.count(unsigned(event_kind::send)) > 0) {
    const auto& blocks = r.blocks();
    std::vector<std::uint64_t> ends(blocks.size(), ~std::uint64_t(0));  // the lane's next block's start
    std::map<std::uint16_t, std::uint64_t> next_start;
    for (std::size_t k = blocks.size(); k-- > 0;) {
      auto it = next_start.find(blocks[k].lane);
      if (it != next_start.end()) ends[k] = it->second;
      next_start[blocks[k].lane] = blocks[k].first_time;
    }
    std::vector<trace_event> buf;
    for (std::size_t k = 0; k < blocks.size(); ++k) {
      if (since(blocks[k].first_time) > to || since(ends[k]) < from) continue;
      r.read_block(blocks[k], buf);
      for (const auto& e : buf)
        estimate += e.kind == event_kind::send && since(e.time_ns) >= from && since(e.time_ns) <= to;
    }
  }
  sum.no_flows = o.max_flows == 0;
  sum.sample_every =
      sum.no_flows ? ~std::uint64_t(0) : std::max<std::uint64_t>(1, (estimate + o.max_flows - 1) / o.max_flows);

  json_out out(os);
  const trace_header& h = r.header();
  out.event("\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"tid\":0,\"args\":{\"name\":" +
            json_string("twinsched " + h.scenario + " (" + h.backend + ", " + h.policy + ")") + "}");
  for (std::uint16_t lane : r.lanes()) {
    const std::string name = lane == outside_lane ? "workload start" : "worker " + std::to_string(lane);
    out.event("\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":" + std::to_string(tid_of(lane)) +
              ",\"args\":{\"name\":" + json_string(name) + "}");
    out.event("\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":1,\"tid\":" + std::to_string(tid_of(lane)) +
              ",\"args\":{\"sort_index\":" + std::to_string(tid_of(lane)) + "}");
  }

  auto slice = [&](std::uint16_t lane, const std::string& name, const std::string& cat, std::uint64_t b,
                   std::uint64_t e, const std::string& args) {
    if (e < from || b > to) return;  // entirely outside the window
    b = std::max(b, from);
    e = std::min(e, to);
    out.event("\"ph\":\"X\",\"pid\":1,\"tid\":" + std::to_string(tid_of(lane)) + ",\"ts\":" + us(b) +
              ",\"dur\":" + us(e - b) + ",\"name\":" + json_string(name) + ",\"cat\":\"" + cat + "\"" +
              (args.empty() ? "" : ",\"args\":{" + args + "}"));
    ++sum.slices;
  };
  auto in_window = [&](std::uint64_t t) { return t >= from && t <= to; };
  auto sampled = [&](std::uint64_t id) { return !sum.no_flows && mix(id) % sum.sample_every == 0; };
  auto flow_end = [&](std::uint16_t lane, std::uint64_t t, std::uint64_t id) {
    if (!in_window(t)) return;
    out.event("\"ph\":\"f\",\"bp\":\"e\",\"pid\":1,\"tid\":" + std::to_string(tid_of(lane)) + ",\"ts\":" + us(t) +
              ",\"id\":" + std::to_string(id) + ",\"name\":\"message\",\"cat\":\"message\"");
    ++sum.flows;
  };
  auto instant = [&](const trace_event& e, const std::string& name, const std::string& args) {
    if (!in_window(e.time_ns)) return;
    out.event("\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":" + std::to_string(tid_of(e.worker)) +
              ",\"ts\":" + us(e.time_ns) + ",\"name\":\"" + name + "\",\"cat\":\"decision\",\"args\":{" + args + "}");
    ++sum.instants;
  };

  worker_states states;
  slices workers;
  workers.slice = slice;
  // one slice covers the workload's start (the outside lane), for its flows to attach to
  bool started = false;
  std::uint64_t start_begin = 0, start_last = 0;
  std::unordered_set<std::uint64_t> flow_started;
  // deliveries seen before their send (interpolated times across workers): id -> (lane, begin)
  std::unordered_map<std::uint64_t, std::pair<std::uint16_t, std::uint64_t>> early;
  std::int64_t runnable = 0, parked = 0;
  std::int64_t shown_runnable = -1, shown_parked = -1;
  std::uint64_t last_counter = 0;
  bool counter_due = false;
  auto counters = [&](std::uint64_t t, bool force) {
    if (!counter_due || !in_window(t)) return;
    if (!force && t < last_counter + o.counter_step_ns) return;
    if (runnable != shown_runnable) {
      out.event("\"ph\":\"C\",\"pid\":1,\"tid\":0,\"ts\":" + us(t) +
                ",\"name\":\"runnable actors\",\"args\":{\"value\":" +
                std::to_string(std::max<std::int64_t>(runnable, 0)) + "}");
      shown_runnable = runnable;
      ++sum.counters;
    }
    if (parked != shown_parked) {
      out.event("\"ph\":\"C\",\"pid\":1,\"tid\":0,\"ts\":" + us(t) +
                ",\"name\":\"parked workers\",\"args\":{\"value\":" +
                std::to_string(std::max<std::int64_t>(parked, 0)) + "}");
      shown_parked = parked;
      ++sum.counters;
    }
    last_counter = t;
    counter_due = false;
  };

  merged_cursor cur(r);
  std::uint64_t last_time = 0;
  while (const trace_event* ep = cur.next()) {
    trace_event e = *ep;
    e.time_ns = since(e.time_ns);
    if (e.time_ns > to) break;  // what is still open ends at the window's end (below)
    last_time = e.time_ns;
    if (e.worker == outside_lane) {
      if (!started) started = true, start_begin = e.time_ns;
      start_last = e.time_ns;
    }
    states.apply(e, workers);  // the slices this event ends
    switch (e.kind) {
      case event_kind::run_begin:
        --runnable;
        counter_due = true;
        break;
      case event_kind::message_begin: {
        if (flow_started.count(e.message)) {
          flow_end(e.worker, e.time_ns, e.message);
          flow_started.erase(e.message);
        } else if (sampled(e.message) && in_window(e.time_ns)) {
          early.emplace(e.message, std::make_pair(e.worker, e.time_ns));
        }
        break;
      }
      case event_kind::send:
        if (in_window(e.time_ns)) {
          ++sum.messages;
          if (sampled(e.message)) {
            out.event("\"ph\":\"s\",\"pid\":1,\"tid\":" + std::to_string(tid_of(e.worker)) +
                      ",\"ts\":" + us(e.time_ns) + ",\"id\":" + std::to_string(e.message) +
                      ",\"name\":\"message\",\"cat\":\"message\"");
            auto it = early.find(e.message);
            if (it == early.end()) {
              flow_started.insert(e.message);
            } else {  // its delivery was stamped first: end the arrow at the send's time, inside the delivery
              flow_end(it->second.first, e.time_ns, e.message);
            }
          }
        }
        if (!early.empty()) early.erase(e.message);
        break;
      case event_kind::schedule:
        ++runnable;
        counter_due = true;
        break;
      case event_kind::park:
        ++parked;
        counter_due = true;
        break;
      case event_kind::unpark:
        --parked;
        counter_due = true;
        break;
      case event_kind::steal:
        instant(e, "steal", "\"actor\":" + std::to_string(e.actor) + ",\"victim\":" + std::to_string(e.other));
        break;
      case event_kind::donate:
        instant(e, "donate", "\"actor\":" + std::to_string(e.actor) + ",\"to_actor\":" + std::to_string(e.other));
        break;
      case event_kind::migrate:
        instant(e, "migrate", "\"actor\":" + std::to_string(e.actor) + ",\"to_worker\":" + std::to_string(e.other));
        break;
      case event_kind::thread_start:
        instant(e, "thread start", "");
        break;
      case event_kind::thread_retire:
        instant(e, "thread retire", "");
        break;
      default:
        break;
    }
    counters(e.time_ns, false);
  }
  const std::uint64_t end = to == std::numeric_limits<std::uint64_t>::max() ? last_time : to;
  counters(std::min(last_time, end), true);
  // close what is still open at the trace's or the window's end
  states.finish(end, workers);
  if (started) slice(outside_lane, "workload start", "start", start_begin, std::min(start_last + 1, end), "");
  std::string other = "{\"scenario\":" + json_string(h.scenario) + ",\"backend\":" + json_string(h.backend) +
                      ",\"level\":\"" + level_name(h.level) + "\",\"flows\":" + std::to_string(sum.flows) +
                      ",\"flows_sampled\":" + (sum.sampled() ? "true" : "false") + ",\"flow_sampling\":" +
                      json_string(sum.no_flows    ? std::string("none (max_flows 0)")
                                  : sum.sampled() ? "about 1 in " + std::to_string(sum.sample_every) +
                                                        " messages (chosen by a hash of the message id) of " +
                                                        std::to_string(estimate) + " in the window"
                                                  : std::string("every message")) +
                      ",\"window_ns\":[" + std::to_string(from) + "," +
                      std::to_string(to == std::numeric_limits<std::uint64_t>::max() ? t1 : to) + "]}";
  out.close(other);
  return sum;
}

}  // namespace twinsched::viz
