// A batch's runs (explore's schedules) on runner processes that simulate one run after another in one SimGrid engine.
//
// Protocol, between the batch's process and each runner (enforced here, on both sides):
//   - One socket pair per runner: the batch keeps one end, the runner the other. A child
//     forked as a runner closes at once the batch ends of every other runner in the process,
//     of every batch (batch_ends), so the batch closing a runner's end is what that runner
//     reads as its end (EOF, exit 0): no other runner holds it open.
//   - Frames: an 8-byte length, then that many bytes. The batch writes a request (the run's
//     options and its scenario's index, JSON) only to an idle runner; the runner answers with
//     one result frame, a byte "goes on" (1 or 0) before the text finish_simulation reads,
//     and takes no request before it has written it. So at most one frame is in flight per
//     direction.
//   - "goes on" 0: the runner exits after that frame (the run aborted, failed, or left the
//     engine in a state sim_platform cannot reset); the batch reaps it, and the next run gets
//     a new runner. A runner that dies mid-run closes its socket early: the batch reads EOF
//     before a whole frame and reports how it died, as for a fresh process.
//   - Counters in the runner's progress page are zeroed by the batch before each request.
#include <poll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim_platform.hpp"
#include "sim_process.hpp"

namespace twinsched {

namespace {
/// The batch ends of all runner sockets open in this process, of every batch: what a new
/// runner closes at its fork.
std::vector<int>& batch_ends() {
  static std::vector<int> fds;
  return fds;
}
}  // namespace

struct batch_runner {
  pid_t pid = -1;
  int fd = -1;                   ///< the batch's end of the socket pair
  progress_page* page = nullptr;  ///< shared with the runner, reused run after run
  bool busy = false;              ///< a request was sent and its result not yet read
  bool ended = false;             ///< reaped: the process is gone
  /// Closes the batch's end: the runner, idle, reads EOF and exits.
  void close_end() {
    if (fd < 0) return;
    std::erase(batch_ends(), fd);
    ::close(fd);
    fd = -1;
  }
  ~batch_runner() {
    close_end();
    if (!ended && pid > 0) {
      if (busy) ::kill(pid, SIGKILL);  // its run's result will never be read
      while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
      }
    }
    if (page) ::munmap(page, sizeof(progress_page));
  }
};

namespace {

constexpr std::size_t header_bytes = 8;

bool write_frame(int fd, const std::string& body, int goes_on = -1) {
  std::string f(header_bytes, '\0');
  const std::uint64_t n = body.size() + (goes_on >= 0 ? 1 : 0);
  std::memcpy(f.data(), &n, header_bytes);
  if (goes_on >= 0) f.push_back(char(goes_on));
  f += body;
  return sim_process::write_all(fd, f.data(), f.size());
}

/// Reads exactly `n` bytes (blocking); false at EOF or an error.
bool read_exact(int fd, char* p, std::size_t n) {
  while (n > 0) {
    ssize_t got = ::read(fd, p, n);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    p += got;
    n -= std::size_t(got);
  }
  return true;
}

/// The options a batch's runs may differ in, as the request carries them. Doubles go as
/// JSON numbers, which nlohmann writes with all the digits that read back the same value.
std::string encode_request(const sim_options& o, std::size_t which) {
  nlohmann::json list = nlohmann::json::array();
  for (const preemption& p : o.schedule.list) list.push_back({p.worker, p.op, p.delay_ns});
  const schedule_spec& sc = o.schedule;
  return nlohmann::json{{"scenario", which},
                        {"interleave", o.interleave},  {"quantum_ns", o.quantum_ns},   {"time_limit_s", o.time_limit_s},
                        {"trace_path", o.trace_path},  {"replay_from", o.replay_from}, {"max_points", o.max_points},
                        {"strategy", sc.strategy},     {"seed", sc.seed},              {"p", sc.p},
                        {"depth", sc.depth},           {"horizon", sc.horizon},        {"min_delay_ns", sc.min_delay_ns},
                        {"max_delay_ns", sc.max_delay_ns}, {"list", list}}
      .dump();
}

/// The request's options, and in `which` its scenario's index.
sim_options decode_request(const sim_options& base, const std::string& text, std::size_t& which) {
  const nlohmann::json j = nlohmann::json::parse(text);
  j.at("scenario").get_to(which);
  sim_options o = base;
  j.at("interleave").get_to(o.interleave);
  j.at("quantum_ns").get_to(o.quantum_ns);
  j.at("time_limit_s").get_to(o.time_limit_s);
  j.at("trace_path").get_to(o.trace_path);
  j.at("replay_from").get_to(o.replay_from);
  j.at("max_points").get_to(o.max_points);
  schedule_spec& sc = o.schedule;
  j.at("strategy").get_to(sc.strategy);
  j.at("seed").get_to(sc.seed);
  j.at("p").get_to(sc.p);
  j.at("depth").get_to(sc.depth);
  j.at("horizon").get_to(sc.horizon);
  j.at("min_delay_ns").get_to(sc.min_delay_ns);
  j.at("max_delay_ns").get_to(sc.max_delay_ns);
  sc.list.clear();
  for (const auto& p : j.at("list")) sc.list.push_back(preemption{p.at(0).get<std::int32_t>(), p.at(1).get<std::uint64_t>(), p.at(2).get<double>(), {}});
  return o;
}

/// The runner's life: a request, a run, its result, until EOF or a run it cannot follow.
[[noreturn]] void serve(int fd, const std::vector<const scenario*>& scenarios, const sim_options& base, const machine_model& m,
                        progress_page* page) {
  for (;;) {
    char head[header_bytes];
    if (!read_exact(fd, head, header_bytes)) ::_exit(0);  // the batch is done with us
    std::uint64_t n = 0;
    std::memcpy(&n, head, header_bytes);
    std::string request(n, '\0');
    if (!read_exact(fd, request.data(), n)) ::_exit(0);
    std::string text;
    int rc = 0;
    try {
      std::size_t which = 0;
      const sim_options o = decode_request(base, request, which);
      rc = sim_process::result_text(*scenarios.at(which), o, m, page, text);
    } catch (const std::exception& e) {  // a request this runner cannot read
      text = nlohmann::json{{"error", std::string("runner: ") + e.what()}}.dump();
      rc = 3;
    }
    const bool goes_on = rc == 0 && sim_platform::can_simulate_again();
    if (!write_frame(fd, text, goes_on ? 1 : 0)) ::_exit(4);
    if (!goes_on) ::_exit(rc);  // no destructors: SimGrid's engine is never torn down
  }
}

/// The whole result frame arrived: its "goes on" byte and its text.
bool frame_complete(const std::string& text) {
  if (text.size() < header_bytes) return false;
  std::uint64_t n = 0;
  std::memcpy(&n, text.data(), header_bytes);
  return text.size() >= header_bytes + n && n >= 1;
}

/// Reaps an ended runner; returns why it ended when that was not a plain exit with code 0.
std::string reap(batch_runner& r) {
  int status = 0;
  while (::waitpid(r.pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.ended = true;
  if (WIFSIGNALED(status))
    return "simulation process died of signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
  return "simulation process exited with code " + std::to_string(WEXITSTATUS(status)) + " and no result";
}

}  // namespace

bool sim_process::batch_runner_read(running_simulation& r) {
  char buf[65536];
  for (;;) {
    if (frame_complete(r.text)) return true;
    ssize_t n = ::read(r.fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return false;
    if (n <= 0) return true;  // the runner died before its whole result
    r.text.append(buf, std::size_t(n));
  }
}

sim_result sim_process::batch_runner_finish(running_simulation& r) {
  batch_runner& runner = *r.runner;
  while (!batch_runner_read(r)) {  // the socket may be non-blocking (the process pool makes it so)
    pollfd p{r.fd, POLLIN, 0};
    ::poll(&p, 1, -1);
  }
  runner.busy = false;
  r.page = nullptr;  // the runner's, not the run's
  if (!frame_complete(r.text)) {
    runner.close_end();
    throw std::runtime_error(reap(runner));
  }
  const bool goes_on = r.text[header_bytes] != 0;
  const std::string text = r.text.substr(header_bytes + 1);
  if (!goes_on) {
    runner.close_end();
    (void)reap(runner);
  }
  return parse_result(text);
}

std::string sim_batch::engine_key(const scenario& s, const sim_options& o) {
  std::ostringstream k;
  k << sim_process::machine_spec(s, o) << '\n' << o.cores << '\n' << o.context_factory << '\n' << o.costs.get();
  return k.str();
}

sim_batch::sim_batch(const scenario& s, const sim_options& base)
    : s_{&s},
      checked_(1, 1),
      base_(base),
      engine_(engine_key(s, base)),
      machine_(sim_process::checked(s, base)) {
  sim_platform::prepare(machine_, sim_process::config_of(base));
}

sim_batch::sim_batch(std::vector<const scenario*> scenarios, const sim_options& base)
    : s_(std::move(scenarios)),
      checked_(s_.size(), 0),
      base_(base),
      engine_(s_.empty() ? "" : engine_key(*s_.front(), base)),
      machine_(load_machine(s_.empty() ? base.machine : sim_process::machine_spec(*s_.front(), base))) {
  sim_process::check_options(base);
}

sim_batch::~sim_batch() = default;  // each runner's destructor ends it

std::shared_ptr<batch_runner> sim_batch::fork_runner() const {
  auto runner = std::make_shared<batch_runner>();
  runner->page = sim_process::map_progress_page();
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    throw std::runtime_error(std::string("socketpair: ") + std::strerror(errno));
  // No thread that may allocate lives at a fork (run_sim.cpp's fork_simulation says why).
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(sv[0]);
    ::close(sv[1]);
    throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    ::close(sv[0]);
    for (int other : batch_ends()) ::close(other);
    serve(sv[1], s_, base_, machine_, runner->page);
  }
  ::close(sv[1]);
  runner->pid = pid;
  runner->fd = sv[0];
  batch_ends().push_back(sv[0]);
  runners_.push_back(runner);
  ++forked_;
  return runner;
}

running_simulation sim_batch::start(const sim_options& o, std::size_t which) const {
  const scenario& s = *s_.at(which);
  if (engine_key(s, o) != engine_)
    throw std::logic_error("sim_batch: a run's machine, cores, context factory and costs are the batch's");
  if (!checked_[which]) {
    sim_process::check_scenario(s);  // throws for this scenario's runs only
    checked_[which] = 1;
  }
  sim_process::check_options(o);
  const std::string request = encode_request(o, which);
  for (;;) {
    std::erase_if(runners_, [](const auto& r) { return r->ended; });
    std::shared_ptr<batch_runner> runner;
    for (const auto& r : runners_)
      if (!r->busy) runner = r;
    const bool fresh = !runner;
    if (fresh) runner = fork_runner();
    runner->page->clear();
    if (write_frame(runner->fd, request)) {
      runner->busy = true;
      running_simulation r;
      r.pid = runner->pid;
      r.fd = runner->fd;
      r.page = runner->page;
      r.runner = runner;
      return r;
    }
    // The runner is gone (killed while idle): reap it; an idle one is replaced, a new one that
    // cannot take a request is an error.
    runner->close_end();
    const std::string why = reap(*runner);
    if (fresh) throw std::runtime_error(why);
  }
}

sim_result sim_batch::simulate(const sim_options& o, std::size_t which) const {
  return sim_process::watched(*s_.at(which), o, start(o, which));
}

}  // namespace twinsched
