// The validate engine without the CLI: both backends traced and diffed, the output check before any run,
// the verdict of either side failing the validation.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <thread>

#include "traces/output_file.hpp"
#include "twin/validate.hpp"

TEST_SUITE_BEGIN("sim");  // this file's default label (tests/CMakeLists.txt): it simulates

using namespace twinsched;
namespace fs = std::filesystem;

namespace {

/// A fresh folder for one case's traces, removed at the end.
struct scratch {
  fs::path dir;
  explicit scratch(const std::string& name)
      : dir(fs::temp_directory_path() / ("twinsched-validate-" + name + "-" + std::to_string(::getpid()))) {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~scratch() { fs::remove_all(dir); }
};

validate_request small_forward(const fs::path& out) {
  validate_request r;
  r.s.name = "small-forward";
  r.s.workload = "forward";
  r.s.workload_params = {{"actors", std::int64_t(32)}, {"tokens", std::int64_t(8)}, {"hops", std::int64_t(100)}};
  r.s.sched.policy = "stealing";
  r.s.sched.workers = 2;
  cap_workers_to_machine(r.s);
  r.out_dir = out.string();
  return r;
}

}  // namespace

TEST_CASE("a scenario run on threads and simulated leaves two traces that diff as logically equal" *
          doctest::timeout(120)) {
  scratch tmp("equal");
  const validate_outcome v = validate_scenario(small_forward(tmp.dir));
  CHECK(v.real_path == (tmp.dir / "small-forward.real.tst").string());
  CHECK(v.sim_path == (tmp.dir / "small-forward.sim.tst").string());
  CHECK(fs::exists(v.real_path));
  CHECK(fs::exists(v.sim_path));
  CHECK(v.real.ok());
  CHECK(v.sim.ok());
  CHECK(v.real.messages == 8 * 101);
  CHECK(v.sim.run.messages == v.real.messages);
  CHECK(v.sim.cores == v.workers);
  CHECK(v.diff.logical.state == traces::logical_check::verdict::equal);
  CHECK(v.exit_code() == 0);
  std::ostringstream out;
  print_validation(out, v);
  CHECK(out.str().find("verdict OK, trace " + v.real_path) != std::string::npos);
  CHECK(out.str().find("simulated     " + std::to_string(v.workers) + " cores") != std::string::npos);
}

TEST_CASE("a trace folder that does not exist is refused before either side runs") {
  scratch tmp("missing");
  int runs = 0;
  validate_hooks h;
  h.run_real = [&](const scenario&, const trace_request&) {
    ++runs;
    return run_result{};
  };
  h.simulate = [&](const scenario&, const sim_options&) {
    ++runs;
    return sim_result{};
  };
  CHECK_THROWS_AS(validate_scenario(small_forward(tmp.dir / "no-such-folder"), h), files::path_error);
  CHECK(runs == 0);
}

TEST_CASE("a failed simulated verdict fails the validation though the traces agree" *
          doctest::timeout(120)) {
  scratch tmp("failed");
  validate_hooks h;
  sim_options seen;
  h.simulate = [&](const scenario& s, const sim_options& o) {
    seen = o;
    sim_result r = simulate(s, o);
    r.run.errors.push_back("planted");
    return r;
  };
  validate_request r = small_forward(tmp.dir);
  r.machine = "default";
  const validate_outcome v = validate_scenario(r, h);
  CHECK(seen.cores == r.s.sched.workers);
  CHECK(seen.machine == "default");
  CHECK(seen.trace_path == v.sim_path);
  CHECK(v.real.ok());
  CHECK(v.diff.exit_code() == 0);
  CHECK(v.exit_code() == 1);
}

TEST_CASE("workers are capped at this machine's cores, and the count asked for is returned") {
  scenario s;
  s.sched.workers = 1024;
  CHECK(cap_workers_to_machine(s) == 1024);
  CHECK(s.sched.workers == std::max(1u, std::thread::hardware_concurrency()));
  s.sched.workers = 1;
  CHECK(cap_workers_to_machine(s) == 1);
  CHECK(s.sched.workers == 1);
}
