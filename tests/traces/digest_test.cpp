// Delivery digests: the payload hash, comparing digests only between traces of the same format version that hold them, and the checksum where they do not.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "models/delivery_tally.hpp"
#include "traces/checksum.hpp"
#include "traces/diff.hpp"
#include "traces/replay_check.hpp"
#include "traces/trace_reader.hpp"
#include "traces/trace_writer.hpp"
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
  f.has_actors = f.has_digests = true;
  f.actors = {{1, 0, n, digest}};
  f.digest_format = format;
  return f;
}

/// The same, from a decisions-level trace of format 4: counts and the run's checksum, no digest.
trace_footer one_actor_no_digest(std::uint64_t n, std::uint64_t checksum) {
  trace_footer f = one_actor(n, 0, digest_hash_version);
  f.has_digests = false;
  f.checksum = f.reference = checksum;
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
  // the hash is format 3's (digest_hash_version): traces store digests, and a reader compares
  // them with a new run's, so a changed hash without a new digest format must fail here
  CHECK(digest_hash_version == 3);
  CHECK(delivery_hash(payload(7, 9, 1)) == 0x9ce5defafbdaf3ebull);
  CHECK(delivery_hash(payload(1)) == 0x2e72b465600b6cb4ull);
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

TEST_CASE("a trace's digests are marked with their payload hash: format 2's, or format 3's from 3 on") {
  temp_file f("digest-format");
  test::write_synthetic(f.path(), 1);
  CHECK(trace_reader(f.path()).footer().digest_format == digest_hash_version);
  CHECK(format_version == 4);
  CHECK(digest_hash_version == 3);
  // the same bytes stamped as format 2 and 3 (read alike: the footer holds digests, and
  // before format 4 every footer with actors did; 2's payload hash differed)
  for (std::uint8_t version : {std::uint8_t(2), std::uint8_t(3)}) {
    CAPTURE(int(version));
    auto b = test::read_bytes(f.path());
    const std::uint64_t header_end = trace_reader(f.path()).blocks().front().offset;
    b[8] = version;
    b[9] = 0;
    const std::uint64_t crc_at = header_end - 4;
    const std::uint32_t crc = crc32c(b.data(), std::size_t(crc_at));
    for (int i = 0; i < 4; ++i) b[crc_at + std::size_t(i)] = std::uint8_t(crc >> (8 * i));
    temp_file old("digest-format-old");
    test::write_bytes(old.path(), b);
    trace_reader r(old.path());
    r.verify();
    CHECK(r.header().version == version);
    CHECK(r.footer().digest_format == version);
    CHECK(r.footer().has_digests);
    CHECK(r.footer().actors.size() == trace_reader(f.path()).footer().actors.size());
    // format 3's digests compare with format 4's (the same hash), format 2's do not
    CHECK(comparable_digests(r.footer(), trace_reader(f.path()).footer()) == (version == 3));
  }
}

TEST_CASE("a footer without digests (decisions level) stores none, and reads back without them") {
  temp_file with("digest-with"), without("digest-without");
  auto write = [](const std::string& path, bool digests) {  // no events: the files differ in the footer only
    trace_writer w(path, test::synthetic_header("sim"));
    trace_footer f = test::synthetic_footer();
    f.has_digests = digests;
    if (!digests)
      for (auto& a : f.actors) a.digest = 0;
    w.finish(f);
  };
  write(with.path(), true);
  write(without.path(), false);
  trace_reader a(with.path()), b(without.path());
  b.verify();
  CHECK(a.footer().has_digests);
  CHECK(a.footer().actors[1].digest == 0x2222);
  CHECK_FALSE(b.footer().has_digests);
  REQUIRE(b.footer().actors.size() == 3);
  CHECK(b.footer().actors[1].delivered == 22);
  CHECK(b.footer().actors[1].digest == 0);
  CHECK(std::filesystem::file_size(without.path()) + 8 * 3 == std::filesystem::file_size(with.path()));  // 8 B an actor
  CHECK_FALSE(comparable_digests(a.footer(), b.footer()));
  CHECK(digest_note(a.footer(), b.footer()).find("full level only") != std::string::npos);
  CHECK(digest_note(a.footer(), a.footer()).empty());
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

TEST_CASE("a replay's deliveries without digests: the counts and the runs' checksums") {
  delivery_match m = compare_deliveries(one_actor_no_digest(5, 0xaa), one_actor(5, 0x22, digest_hash_version));
  CHECK_FALSE(m.digests_compared);
  CHECK(m.digest_note.find("full level only") != std::string::npos);
  CHECK_FALSE(m.equal);  // one_actor's checksum is 0
  trace_footer replayed = one_actor(5, 0x22, digest_hash_version);
  replayed.checksum = 0xaa;
  m = compare_deliveries(one_actor_no_digest(5, 0xaa), replayed);
  CHECK(m.equal);
  replayed.checksum = 0xab;
  m = compare_deliveries(one_actor_no_digest(5, 0xaa), replayed);
  CHECK_FALSE(m.equal);
  CHECK(m.first_difference.find("checksums differ") != std::string::npos);
}

TEST_CASE("diff's logical check without digests: equal counts and checksums are equal, a checksum apart differs") {
  logical_check c = check_logical(one_actor_no_digest(5, 0xaa), one_actor_no_digest(5, 0xaa));
  CHECK_FALSE(c.digests_compared);
  CHECK(c.checksums_equal);
  CHECK(c.state == logical_check::verdict::equal);
  c = check_logical(one_actor_no_digest(5, 0xaa), one_actor_no_digest(5, 0xbb));
  CHECK_FALSE(c.checksums_equal);
  CHECK(c.state == logical_check::verdict::differ);
  CHECK(c.differing == 0);  // no actor to name: the counts agree
  CHECK(c.why.find("checksums differ") != std::string::npos);
  CHECK(c.why.find("--trace-level full") != std::string::npos);
  // a count apart still names the actor
  c = check_logical(one_actor_no_digest(5, 0xaa), one_actor_no_digest(6, 0xaa));
  CHECK(c.state == logical_check::verdict::differ);
  REQUIRE(c.first_actor);
  CHECK(*c.first_actor == 1);
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
