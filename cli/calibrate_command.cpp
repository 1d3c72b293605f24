// `twinsched calibrate`: measure this machine's costs (twin/calibrate.hpp) and write them as a machine model file.
#include <cstdio>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "twin/calibrate.hpp"
#include "sim/machine_model.hpp"
#include "traces/output_file.hpp"

namespace twinsched::cli {
namespace {

struct calibrate_cli {
  std::string out;
  calibrate_options opt;
};

constexpr const char* calibrate_footer =
    "Measures every cost term of a machine model on this machine: atomics, cache-line transfers, lock hand-off,\n"
    "parking, spinning and yielding, the burn loop, and the runtime's own work (run-queue op, envelope, mailbox\n"
    "push and pop, the worker loop per message and per turn; the last two from single-worker runs of a ring\n"
    "workload of its own, against their simulation). Progress goes to stderr; the model to stdout or -o FILE.\n"
    "Use it with: twinsched sim SCENARIO --machine FILE --cores N. Run it on an otherwise idle machine:\n"
    "what else runs shows up in the figures. sim/MACHINES.md says what each term measures.";

int run_calibrate(const calibrate_cli& c) {
  const bool to_stdout = c.out.empty() || c.out == "-";
  if (!to_stdout) files::check_output(c.out, "-o");  // before seconds of measuring
  calibrate_options o = c.opt;
  o.progress = [](const std::string& line) {
    std::cerr << line << '\n';
    std::cerr.flush();
  };
  calibration cal = calibrate_machine(o);
  std::string text = machine_toml(cal);
  parse_machine(text, c.out.empty() ? "<calibrate output>" : c.out);  // what we write must load
  if (to_stdout) {
    std::cout << text;
    std::cout.flush();
    return std::cout ? 0 : 1;
  }
  files::write_whole(c.out, text);
  std::cerr << "calibrate: wrote " << c.out << '\n';
  return 0;
}

}  // namespace

void add_calibrate_command(CLI::App& app, action& chosen) {
  auto c = std::make_shared<calibrate_cli>();
  CLI::App* cmd = app.add_subcommand("calibrate", "Measure this machine's costs and write them as a machine model (TOML).");
  cmd->footer(calibrate_footer);
  cmd->add_option("-o,--output", c->out, "Write the model here instead of stdout.")->type_name("FILE");
  cmd->add_flag("--quick", c->opt.quick, "Shorter loops and fewer repetitions (a few seconds; noisier): for tests.");
  cmd->add_option("--name", c->opt.name, "The model's name.")->type_name("NAME")->capture_default_str();
  cmd->add_option("--shared-cache-kib", c->opt.shared_cache_kib,
                  "The shared cache level this core finds, in KiB (0: none), instead of what a random walk over growing\n"
                  "working sets finds: for a host whose other tenants hide the level from the walk (its latencies are\n"
                  "in the model's header).")
      ->type_name("KIB")
      ->check(CLI::Range(std::int64_t(0), std::int64_t(1) << 30));
  cmd->callback([&chosen, c] { chosen = [c] { return run_calibrate(*c); }; });
}

}  // namespace twinsched::cli
