// `twinsched trace step FILE`: the stepper's command line, and the --break/--until/--batch flags replay shares.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/option_checks.hpp"
#include "cli/step_session.hpp"
#include "traces/trace_reader.hpp"

namespace twinsched::cli {
namespace {

constexpr const char* step_footer = R"(Times are since the run began: its first event (the workload's start), the time zero of
trace info, diff, report, analyze and export perfetto too, so a time read off the report
finds the same event here.
Break specs (--break, or `break` in the session; quote the ones with a space):
  event 120        stop with event #120 applied (events are numbered from 1 in time order)
  time 1.5ms       stop at the first event at or after 1.5 ms (also 120000 = ns, 120us, 2s)
  actor 17         every event of actor 17 (donations: either actor)
  worker 1         every event on worker 1's lane (`worker outside`: the workload's start)
  kind steal       every steal; a bare kind name works too: --break park
  kinds: worker_start worker_stop send schedule run_begin run_end message_begin message_end steal
         donate migrate park unpark thread_start thread_retire idle
Examples:
  twinsched trace step run.tst                                  step interactively (type `help`)
  twinsched trace step run.tst --break steal --batch            the state at the first steal
  twinsched trace step run.tst --until 2ms --batch              the state at 2 ms
  printf 'break actor 17\ncontinue\nqueues\n' | twinsched trace step run.tst   a scripted session)";

struct step_command_options {
  std::string file;
  step_options step;
};

}  // namespace

void add_step_flags(CLI::App* app, step_options& o) {
  takes_parsed(app->add_option_function<std::vector<std::string>>(
         "--break",
         [&o](const std::vector<std::string>& specs) {
           for (const auto& s : specs) o.breakpoints.push_back(traces::breakpoint::parse(s));
         },
         "Stop at a breakpoint (repeatable): 'event N', 'time T', 'actor A', 'worker W', 'kind K' or a bare kind "
         "name such as steal, park, donate.")
      ->type_name("SPEC")
      ->allow_extra_args(false),
               [](const std::string& s) { traces::breakpoint::parse(s); });
  takes_parsed(app->add_option_function<std::string>(
                      "--until", [&o](const std::string& s) { o.until_ns = traces::parse_time_ns(s); },
                      "Stop once at the first event at or after TIME since the run began: ns, or with a unit (120us, "
                      "1.5ms, 2s).")
                   ->type_name("TIME"),
               [](const std::string& s) { traces::parse_time_ns(s); });
  app->add_flag_function(
      "--batch", [&o](std::int64_t) { o.interactive = false; },
      "Do not read commands: go to the first stop (a breakpoint, --until, or the end), print that event and the "
      "state (workers, runnable actors, mailboxes, counts), and exit.");
}

void add_trace_step_command(CLI::App* trace, action& chosen) {
  auto o = std::make_shared<step_command_options>();
  CLI::App* cmd = trace->add_subcommand(
      "step",
      "Step through a trace event by event, gdb style: next N, continue to a breakpoint, and look at what the "
      "events imply at that point: each worker's state, the runnable actors, the mailboxes. Reads commands from "
      "stdin (a pipe works: each command is echoed); streams the file, so any size steps in little memory.");
  cmd->add_option("file", o->file, "Trace file (.tst).")->required()->type_name("FILE");
  add_step_flags(cmd, o->step);
  cmd->footer(step_footer);
  cmd->callback([&chosen, o] {
    chosen = [o] {
      traces::trace_reader r(o->file);
      return run_step_session(r, std::cin, std::cout, o->step);
    };
  });
}

}  // namespace twinsched::cli
