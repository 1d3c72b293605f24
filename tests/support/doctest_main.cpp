// The doctest main() shared by the unit test executables, with a deadline on every test case.
//
// doctest's `timeout` decorator only marks a test failed after it returns, so a hung test
// would hang the suite until ctest kills it without a word. The listener below arms a
// run/deadline.hpp for each test case: the decorator's seconds (or 300 without one),
// times the build's slowdown (sanitizers). When it expires it prints the test case and
// the state of every run in progress (workers, queues, mailboxes) and fails the process.
// A run whose filters match no test case fails too: ctest names each case with
// --test-case=<name>, and a list left stale by a renamed case would otherwise pass silently.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "run/deadline.hpp"

namespace {

// Failed assertions in this process: a simulation's checks run in a forked child, which
// sends this count back (platform_harness.hpp) since its own doctest results die with it.
std::atomic<unsigned long> failed_asserts{0};

class deadline_listener final : public doctest::IReporter {
 public:
  explicit deadline_listener(const doctest::ContextOptions&) {}

  void test_case_start(const doctest::TestCaseData& tc) override {
    double limit = (tc.m_timeout > 0 ? tc.m_timeout : 300) * twinsched::deadline::build_slowdown();
    armed_ = std::make_unique<twinsched::deadline>(
        limit, std::string("test case \"") + tc.m_name + "\" (" + tc.m_file.c_str() + ":" + std::to_string(tc.m_line) + ")");
  }
  void test_case_end(const doctest::CurrentTestCaseStats&) override { armed_.reset(); }

  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats& st) override {
    if (st.numTestCasesPassingFilters == 0) {
      std::fprintf(stderr, "no test case matches the filters (a renamed case and a stale ctest list? rebuild)\n");
      std::exit(1);
    }
  }
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData& a) override {
    if (a.m_failed) failed_asserts.fetch_add(1);
  }
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}

 private:
  std::unique_ptr<twinsched::deadline> armed_;
};

}  // namespace

namespace twinsched::testing {
unsigned long failed_checks() { return failed_asserts.load(); }
}  // namespace twinsched::testing

REGISTER_LISTENER("deadline", 1, deadline_listener);
