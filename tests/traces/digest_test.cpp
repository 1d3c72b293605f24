// Delivery digests: the payload hash, and comparing digests only between traces of the same format version.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "models/delivery_tally.hpp"
#include "traces/checksum.hpp"
#include "traces/diff.hpp"
#include "traces/replay_check.hpp"
#include "traces/trace_reader.hpp"
#include "traces_test_support.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;
using namespace twinsched::traces;
using twinsched::test::temp_file;

namespace {

message payload(std::uint64_t a, std::uint64_t b = 0, std::uint32_t tag = 0) {
  message m{};
  m.a = a;
  m.b = b;
  m.tag = tag;
  return m;
}

/// A footer with one actor (id 1) that got `n` messages with digest `digest`.
trace_footer one_actor(std::uint64_t n, std::uint64_t digest, std::uint16_t format) {
  trace_footer f;
  f.has_actors = true;
  f.actors = {{1, 0, n, digest}};
  f.digest_format = format;
  return f;
}

}  // namespace

TEST_CASE("the payload hash tells payloads apart that a sum of linear hashes would not") {
  // digests are sums over an actor's messages: a hash linear in a field would give
  // {1, 4} and {2, 3} the same digest
  CHECK(delivery_hash(payload(1)) + delivery_hash(payload(4)) != delivery_hash(payload(2)) + delivery_hash(payload(3)));
  CHECK(delivery_hash(payload(0, 0, 1)) + delivery_hash(payload(0, 0, 4)) !=
        delivery_hash(payload(0, 0, 2)) + delivery_hash(payload(0, 0, 3)));
  // each field counts, in its place
  CHECK(delivery_hash(payload(7, 9)) != delivery_hash(payload(9, 7)));
  CHECK(delivery_hash(payload(7, 9, 1)) != delivery_hash(payload(7, 9, 2)));
  CHECK(delivery_hash(payload(7, 9, 1)) == delivery_hash(payload(7, 9, 1)));
  // the fields the hash does not read (sender, flags) do not change it
  message m = payload(3, 4, 5);
  m.flags = 1;
  CHECK(delivery_hash(m) == delivery_hash(payload(3, 4, 5)));
  // no two of the first 100,000 counter payloads share a hash (a: forward's token numbers)
  std::vector<std::uint64_t> seen;
  for (std::uint64_t a = 0; a < 100000; ++a) seen.push_back(delivery_hash(payload(a, a % 7, std::uint32_t(a % 3))));
  std::sort(seen.begin(), seen.end());
  CHECK(std::adjacent_find(seen.begin(), seen.end()) == seen.end());
}

TEST_CASE("a trace's digests are marked with its format version, a format 2 trace's with 2") {
  temp_file f("digest-format");
  test::write_synthetic(f.path(), 1);
  CHECK(trace_reader(f.path()).footer().digest_format == format_version);
  CHECK(format_version == 3);
  // the same bytes stamped as format 2 (read alike; only the payload hash differed)
  auto b = test::read_bytes(f.path());
  const std::uint64_t header_end = trace_reader(f.path()).blocks().front().offset;
  b[8] = 2;
  b[9] = 0;
  const std::uint64_t crc_at = header_end - 4;
  const std::uint32_t crc = crc32c(b.data(), std::size_t(crc_at));
  for (int i = 0; i < 4; ++i) b[crc_at + std::size_t(i)] = std::uint8_t(crc >> (8 * i));
  temp_file old("digest-format-2");
  test::write_bytes(old.path(), b);
  trace_reader r(old.path());
  r.verify();
  CHECK(r.header().version == 2);
  CHECK(r.footer().digest_format == 2);
  CHECK(r.footer().actors.size() == trace_reader(f.path()).footer().actors.size());
}

TEST_CASE("a replay's deliveries: digests compared within a format, counts only across formats 2 and 3") {
  SUBCASE("same format: a different digest differs") {
    const delivery_match m = compare_deliveries(one_actor(5, 0x11, 3), one_actor(5, 0x22, 3));
    CHECK(m.digests_compared);
    CHECK_FALSE(m.equal);
    CHECK(m.first_difference.find("digest") != std::string::npos);
  }
  SUBCASE("a format 2 recording, a format 3 replay: equal counts are equal, and it says digests were not compared") {
    const delivery_match m = compare_deliveries(one_actor(5, 0x11, 2), one_actor(5, 0x22, 3));
    CHECK_FALSE(m.digests_compared);
    CHECK(m.equal);
  }
  SUBCASE("across formats, different counts still differ") {
    const delivery_match m = compare_deliveries(one_actor(5, 0x11, 2), one_actor(6, 0x11, 3));
    CHECK_FALSE(m.equal);
  }
  SUBCASE("two format 2 traces: their digests compare (the same hash made both)") {
    CHECK_FALSE(compare_deliveries(one_actor(5, 0x11, 2), one_actor(5, 0x22, 2)).equal);
    CHECK(compare_deliveries(one_actor(5, 0x11, 2), one_actor(5, 0x11, 2)).equal);
  }
}

TEST_CASE("diff's logical check: digests compared within a format, counts only across formats 2 and 3") {
  logical_check c = check_logical(one_actor(5, 0x11, 3), one_actor(5, 0x22, 3));
  CHECK(c.digests_compared);
  CHECK(c.state == logical_check::verdict::differ);
  c = check_logical(one_actor(5, 0x11, 3), one_actor(5, 0x22, 2));
  CHECK_FALSE(c.digests_compared);
  CHECK(c.state == logical_check::verdict::equal);
  c = check_logical(one_actor(5, 0x11, 3), one_actor(4, 0x11, 2));
  CHECK(c.state == logical_check::verdict::differ);
  // grouped actors are summed per group: the same rule
  trace_footer a = one_actor(5, 0x11, 3), b = one_actor(5, 0x22, 2);
  a.actors[0].group = b.actors[0].group = 7;
  c = check_logical(a, b);
  CHECK(c.state == logical_check::verdict::equal);
  b.digest_format = 3;
  CHECK(check_logical(a, b).state == logical_check::verdict::differ);
}
