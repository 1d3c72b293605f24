// The HTML report: one self-contained page (nothing fetched), every panel drawn, two runs compared with the diff's table.
#include <doctest/doctest.h>

#include <sstream>

#include "hand_built_traces.hpp"
#include "traces/diff.hpp"
#include "traces/trace_reader.hpp"
#include "viz/html_report.hpp"
#include "viz/scaling_report.hpp"

TEST_SUITE_BEGIN("unit");

using namespace twinsched;
using twinsched::test::temp_file;

namespace {

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t i = s.find(what); i != std::string::npos; i = s.find(what, i + what.size())) ++n;
  return n;
}

std::string page(const std::vector<std::string>& paths) {
  std::vector<std::unique_ptr<traces::trace_reader>> readers;
  std::vector<viz::report_run> runs;
  for (const auto& p : paths) {
    readers.push_back(std::make_unique<traces::trace_reader>(p));
    runs.push_back({p, viz::profile_trace(*readers.back())});
  }
  std::unique_ptr<traces::diff_report> d;
  if (runs.size() == 2) d = std::make_unique<traces::diff_report>(traces::diff_traces(*readers[0], *readers[1], {}));
  std::ostringstream out;
  viz::write_report(out, runs, d.get());
  return out.str();
}

}  // namespace

TEST_CASE("a report is one page that loads nothing: no src, href, url() or import, and a CSP that forbids it" *
          doctest::timeout(30)) {
  temp_file f("report");
  test::pi_trace(f.path());
  const std::string s = page({f.path()});
  CHECK(s.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(s.find("Content-Security-Policy\" content=\"default-src 'none'") != std::string::npos);
  std::string markup = s;  // the code aside: each <script ...>...</script> removed (std::regex trips GCC 12's
                           // -Wmaybe-uninitialized under ASan, and the build has -Werror)
  for (std::size_t at; (at = markup.find("<script")) != std::string::npos;) {
    const std::size_t end = markup.find("</script>", at);
    markup.erase(at, end == std::string::npos ? std::string::npos : end + 9 - at);
  }
  CHECK(count(markup, "<script") == 0);  // every script is inline (none has a src)
  CHECK(count(markup, " src=") == 0);
  CHECK(count(markup, "href=") == 0);
  CHECK(count(s, "url(") == 0);
  CHECK(count(s, "@import") == 0);
  // the only address is the SVG namespace the script creates elements in
  CHECK(count(s, "https://") == 0);
  CHECK(count(s, "http://") == count(s, "http://www.w3.org/2000/svg"));
  CHECK(s.find("</html>") != std::string::npos);
}

TEST_CASE("a report draws every panel: timeline, throughput, queues, decisions, delays, critical path" *
          doctest::timeout(30)) {
  temp_file f("panels");
  test::pi_trace(f.path());
  const std::string s = page({f.path()});
  CHECK(count(s, "<svg class=\"chart zoom\"") == 4);  // the timeline and three time charts
  CHECK(count(s, "<svg class=\"chart\"") == 3);       // two delay histograms (no group, group 1), the bound
  for (const char* caption : {"Workers over time", "Throughput", "Runnable actors queued and parked workers",
                              "Steals, donations, migrations", "Queueing delay", "hottest actors", "busiest edges",
                              "Critical path", "Speed-up the message graph allows"})
    CHECK_MESSAGE(s.find(caption) != std::string::npos, caption);
  CHECK(s.find("109 ns") != std::string::npos);  // the span
  CHECK(count(s, "<polygon") == 5 * 3);          // 5 workers x running, idle, parked
  CHECK(s.find("id=\"spells-A\">[[") != std::string::npos);
}

TEST_CASE("two reports compared: the diff's table with the largest differences marked, and the verdict" *
          doctest::timeout(30)) {
  temp_file a("a"), b("b");
  test::pi_trace(a.path());
  test::chain_trace(b.path(), 9, 100);
  const std::string s = page({a.path(), b.path()});
  CHECK(s.find("A vs B") != std::string::npos);
  CHECK(count(s, "<tr class=\"big\">") >= 1);
  CHECK(s.find("Throughput, A and B") != std::string::npos);
  CHECK(s.find("Run A") != std::string::npos);
  CHECK(s.find("Run B") != std::string::npos);
  const std::string same = page({a.path(), a.path()});
  CHECK(same.find("logically equivalent") != std::string::npos);
}

TEST_CASE("a damaged trace is refused with the file's name" * doctest::timeout(30)) {
  temp_file f("damaged");
  test::pi_trace(f.path());
  auto bytes = test::read_bytes(f.path());
  bytes.resize(bytes.size() / 2);
  test::write_bytes(f.path(), bytes);
  try {
    page({f.path()});
    FAIL("no error");
  } catch (const std::exception& e) {
    CHECK(std::string(e.what()).find(f.path()) != std::string::npos);
  }
}

TEST_CASE("a scaling page draws a curve per series, with a bar where runs repeat" * doctest::timeout(30)) {
  std::ostringstream out;
  viz::write_scaling_report(out, "scaling", "test",
                            {{"stealing", 1, 1.0, 100}, {"stealing", 2, 0.5, 190}, {"stealing", 2, 0.6, 170},
                             {"shared-queue", 1, 1.0, 100}, {"shared-queue", 2, 0.9, 110}});
  const std::string s = out.str();
  CHECK(count(s, "<polyline") == 4);             // one curve per series in each of the two charts ...
  CHECK(count(s, "<svg class=\"chart\"") == 2);  // ... speed-up and msgs/s
  CHECK(s.find("mean of 2") != std::string::npos);  // the repeated cell's tooltip
  CHECK(count(s, "stroke-dasharray") == 1);       // the linear guide, on the speed-up chart only
  CHECK(count(s, "<line") == 1 + 2);              // and the repeated cell's bar in each chart
}
