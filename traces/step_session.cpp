// The step session: a lookahead over the merged events, the breakpoints, and the command loop that reads `in`.
#include "step_session.hpp"

#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "models/config.hpp"
#include "models/whole_number.hpp"
#include "header.hpp"
#include "merged_cursor.hpp"
#include "step_state.hpp"
#include "step_text.hpp"

namespace twinsched::traces {
namespace {

constexpr const char* help_text = R"(commands (short forms in brackets):
  next [N]        [n]  apply and print the next N events (default 1); stops early at a breakpoint
  continue        [c]  run to the next breakpoint (or the until time, or the end); print the event that stopped it
  break SPEC      [b]  add a breakpoint: event N | time T | actor A | worker W | kind K | K
                       (T since the run began, in ns or with a unit: 120us, 1.5ms, 2s; K an event kind: steal,
                       park, donate, ...)
  delete [N]           delete breakpoint N, or all of them
  breaks               list the breakpoints and how often each was hit
  workers         [w]  what each worker is doing
  queues          [q]  runnable actors, by the worker that queued them (steals and migrations move them)
  mailboxes [N]   [m]  the N largest mailboxes (default 10) and the total (full-level traces)
  state                where, workers, queues, mailboxes and counts by kind
  where                the event number and time reached, the last event and the next
  help                 this list
  quit            [exit]  end the session (so does the end of input)
A breakpoint stops with its event applied: the state shown includes it. `event N` and `time T` fire once;
actor, worker and kind breakpoints on every match. An empty line repeats `next` or `continue`.
Event lines: #ordinal  time  worker  kind  fields; times are since the run began (its first event), as in
the report, analyze, diff and the Perfetto export; msg S:N is the N-th message sent by actor S (S = 0: the
workload's start).
)";

std::string lowercase(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  std::size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

/// A count argument: empty -> `fallback`; otherwise a positive whole number or an error.
std::optional<std::uint64_t> count_arg(const std::string& a, std::uint64_t fallback) {
  if (a.empty()) return fallback;
  const auto v = whole_number(a);
  return v && *v > 0 ? v : std::nullopt;
}

class session {
 public:
  session(const trace_reader& r, std::ostream& out, const step_options& o)
      : r_(r),
        out_(out),
        cur_(r),
        start_(run_start_ns(r.footer())),
        state_(r.header().lanes, r.header().level == trace_level::full) {
    for (const auto& b : o.breakpoints) breaks_.push_back({next_id_++, b, 0});
    if (o.until_ns) until_ = breakpoint{breakpoint::what::time, *o.until_ns};
    fetch();
  }

  void banner() {
    const auto& h = r_.header();
    out_ << "stepping " << r_.path() << ": " << h.scenario << ", " << h.backend << ", " << h.policy << ", "
         << h.workers << " workers, " << r_.events() << " events, " << level_name(h.level) << " level\n"
         << "times are since the run began (its first event)\n";
    if (h.level != trace_level::full)
      out_ << "note: mailbox sizes need a full-level trace (sends and message events); this one is "
           << level_name(h.level) << " level\n";
    for (const auto& b : breaks_) out_ << "breakpoint " << b.id << ": " << b.spec.describe() << "\n";
    if (until_) out_ << "until " << time_label(until_->value) << "\n";
  }

  /// Batch mode: to the first stop, then the stopping event and the state.
  void run_batch() {
    banner();
    go();
    state();
  }

  /// Reads commands until quit or end of input.
  void run_interactive(std::istream& in, bool echo) {
    banner();
    out_ << "before event #1. Type `help` for commands.\n";
    std::string line, last;
    for (;;) {
      out_ << "(step) " << std::flush;
      if (!std::getline(in, line)) {
        out_ << "\n";
        return;
      }
      if (echo) out_ << line << "\n";
      std::string cmd = trim(line);
      if (cmd.empty()) {
        if (last.empty()) continue;
        cmd = last;
      }
      if (!execute(cmd, last)) return;
    }
  }

 private:
  struct numbered {
    int id;
    breakpoint spec;
    std::uint64_t hits;
  };

  void fetch() {
    const trace_event* e = cur_.next();
    if (!e) return next_.reset();
    next_ = *e;
    next_->time_ns = since_run_start(e->time_ns, start_);  // the one time base (footer.hpp)
  }

  /// Applies the next event; returns what it hit ("breakpoint 2 (kind steal)"), empty if nothing.
  std::string step() {
    const trace_event e = *next_;
    const std::uint64_t ordinal = state_.events() + 1;
    state_.apply(e);
    std::string hit;
    for (auto& b : breaks_) {
      if (!b.spec.hit(e, ordinal, previous_ns_)) continue;
      ++b.hits;
      if (hit.empty()) hit = "breakpoint " + std::to_string(b.id) + " (" + b.spec.describe() + ")";
    }
    if (until_ && until_->hit(e, ordinal, previous_ns_) && hit.empty()) hit = "until " + time_label(until_->value);
    previous_ns_ = e.time_ns;
    last_ = e;
    fetch();
    return hit;
  }

  /// `continue`: to the next stop; prints why it stopped and the event.
  void go() {
    if (!next_) {
      out_ << "at the end of the trace: all " << state_.events() << " events applied\n";
      return;
    }
    const std::uint64_t from = state_.events();
    std::string hit;
    while (next_ && (hit = step()).empty()) {
    }
    const std::uint64_t ran = state_.events() - from;
    if (hit.empty())
      out_ << "end of the trace after " << ran << " more event" << (ran == 1 ? "" : "s") << "; last:\n";
    else
      out_ << hit << ", after " << ran << " event" << (ran == 1 ? "" : "s") << ":\n";
    out_ << event_line(state_.events(), *last_) << "\n";
  }

  void next(std::uint64_t n) {
    for (std::uint64_t i = 0; i < n; ++i) {
      if (!next_) {
        out_ << "end of the trace: all " << state_.events() << " events applied\n";
        return;
      }
      const std::string hit = step();
      out_ << event_line(state_.events(), *last_) << "\n";
      if (!hit.empty() && i + 1 < n) {
        out_ << "stopped at " << hit << "\n";
        return;
      }
    }
  }

  void add_break(const std::string& spec) {
    breakpoint b = breakpoint::parse(spec);
    breaks_.push_back({next_id_, b, 0});
    out_ << "breakpoint " << next_id_++ << ": " << b.describe();
    using w = breakpoint::what;
    if (b.on == w::event && b.value <= state_.events())
      out_ << "  (already past: " << state_.events() << " events applied; it will not fire)";
    if (b.on == w::time && previous_ns_ && *previous_ns_ >= b.value)
      out_ << "  (already past: now at " << time_label(*previous_ns_) << "; it will not fire)";
    out_ << "\n";
  }

  void remove_break(const std::string& arg) {
    if (arg.empty()) {
      out_ << "deleted " << breaks_.size() << " breakpoint" << (breaks_.size() == 1 ? "" : "s") << "\n";
      breaks_.clear();
      return;
    }
    auto n = count_arg(arg, 0);
    for (auto it = breaks_.begin(); n && it != breaks_.end(); ++it) {
      if (std::uint64_t(it->id) != *n) continue;
      out_ << "deleted breakpoint " << it->id << ": " << it->spec.describe() << "\n";
      breaks_.erase(it);
      return;
    }
    out_ << "error: no breakpoint '" << arg << "' (see `breaks`)\n";
  }

  void list_breaks() {
    if (breaks_.empty()) out_ << "no breakpoints\n";
    for (const auto& b : breaks_)
      out_ << "  " << b.id << "  " << b.spec.describe() << "  (hit " << b.hits << " time" << (b.hits == 1 ? "" : "s")
           << ")\n";
    if (until_) out_ << "  until " << time_label(until_->value) << "\n";
  }

  void where() {
    const std::uint64_t total = r_.events(), done = state_.events();
    if (!last_) {
      out_ << "before event #1 of " << total << "\n";
    } else {
      char pct[32];
      std::snprintf(pct, sizeof pct, "%.1f%%", total ? 100.0 * double(done) / double(total) : 100.0);
      out_ << "at event #" << done << " of " << total << " (" << pct << "), time " << time_label(last_->time_ns)
           << "\n  last: " << event_line(done, *last_) << "\n";
    }
    if (next_) out_ << "  next: " << event_line(done + 1, *next_) << "\n";
    else out_ << "  next: none (end of the trace)\n";
  }

  void state() {
    where();
    print_workers(out_, state_);
    print_queues(out_, state_);
    print_mailboxes(out_, state_, 10, level_name(r_.header().level));
    print_counts(out_, state_);
  }

  /// One command; false ends the session. `last` is the command an empty line repeats.
  bool execute(const std::string& line, std::string& last) {
    std::istringstream words(line);
    std::string cmd;
    words >> cmd;
    cmd = lowercase(cmd);
    std::string rest;
    std::getline(words, rest);
    rest = trim(rest);
    last.clear();
    try {
      if (cmd == "next" || cmd == "n") {
        auto n = count_arg(rest, 1);
        if (!n) return error("`next` takes a positive count: next 10");
        next(*n);
        last = line;
      } else if (cmd == "continue" || cmd == "c" || cmd == "cont") {
        if (!rest.empty()) return error("`continue` takes no argument");
        go();
        last = line;
      } else if (cmd == "break" || cmd == "b") {
        add_break(rest);
      } else if (cmd == "delete" || cmd == "d") {
        remove_break(rest);
      } else if (cmd == "breaks" || cmd == "breakpoints") {
        list_breaks();
      } else if (cmd == "workers" || cmd == "w") {
        print_workers(out_, state_);
      } else if (cmd == "queues" || cmd == "q") {
        print_queues(out_, state_);
      } else if (cmd == "mailboxes" || cmd == "m") {
        auto n = count_arg(rest, 10);
        if (!n) return error("`mailboxes` takes a positive count: mailboxes 20");
        print_mailboxes(out_, state_, *n, level_name(r_.header().level));
      } else if (cmd == "state") {
        state();
      } else if (cmd == "where") {
        where();
      } else if (cmd == "help" || cmd == "h" || cmd == "?") {
        out_ << help_text;
      } else if (cmd == "quit" || cmd == "exit") {
        return false;
      } else {
        return error("unknown command '" + cmd + "' (type `help`)");
      }
    } catch (const std::invalid_argument& e) {
      return error(e.what());
    }
    return true;
  }

  bool error(const std::string& what) {
    out_ << "error: " << what << "\n";
    return true;
  }

  const trace_reader& r_;
  std::ostream& out_;
  merged_cursor cur_;
  std::uint64_t start_;  // when the run began, on the trace's clock
  step_state state_;
  std::optional<trace_event> next_, last_;
  std::optional<std::uint64_t> previous_ns_;
  std::vector<numbered> breaks_;
  std::optional<breakpoint> until_;
  int next_id_ = 1;
};

}  // namespace

int run_step_session(const trace_reader& r, std::istream& in, std::ostream& out, const step_options& o) {
  session s(r, out, o);
  if (!o.interactive) {
    s.run_batch();
    return 0;
  }
  const bool echo = o.echo ? *o.echo : (&in == &std::cin && !::isatty(STDIN_FILENO));
  s.run_interactive(in, echo);
  return 0;
}

}  // namespace twinsched::traces
