// Damaged trace files: truncated at many points, flipped bits, wrong magic, a future version, a missing block; each
// rejected at the right byte.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "traces/checksum.hpp"
#include "traces/trace_reader.hpp"
#include "traces_test_support.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;
using namespace twinsched::traces;
using twinsched::test::temp_file;

namespace {

/// A valid synthetic trace and where its parts are.
struct layout {
  temp_file file{"damage-source"};
  std::vector<std::uint8_t> bytes;
  std::uint64_t header_end = 0;  // first block
  std::vector<block_info> blocks;
  std::uint64_t footer = 0, trailer = 0;
  layout() {
    test::write_synthetic(file.path(), 3);
    bytes = test::read_bytes(file.path());
    trace_reader r(file.path());
    blocks = r.blocks();
    header_end = blocks.front().offset;
    trailer = bytes.size() - trailer_size;
    for (int i = 0; i < 8; ++i) footer |= std::uint64_t(bytes[trailer + std::size_t(i)]) << (8 * i);
  }
};

/// Opens (and fully reads) `bytes` as a trace; returns the error, or fails the test.
trace_error rejection(const std::vector<std::uint8_t>& bytes) {
  temp_file f("damaged");
  test::write_bytes(f.path(), bytes);
  try {
    trace_reader r(f.path());
    r.verify();
  } catch (const trace_error& e) {
    return e;
  }
  FAIL("a damaged file was accepted");
  return trace_error("", 0, "");
}

void expect_rejected(const std::vector<std::uint8_t>& bytes, std::uint64_t offset, const std::string& words) {
  trace_error e = rejection(bytes);
  INFO("error: " << e.what());
  CHECK(e.offset() == offset);
  CHECK(e.message().find(words) != std::string::npos);
  CHECK(std::string(e.what()).find("byte " + std::to_string(offset) + ": ") != std::string::npos);
}

std::vector<std::uint8_t> cut(const std::vector<std::uint8_t>& b, std::uint64_t n) {
  return std::vector<std::uint8_t>(b.begin(), b.begin() + std::ptrdiff_t(n));
}

std::vector<std::uint8_t> flip(std::vector<std::uint8_t> b, std::uint64_t at) {
  b[at] ^= 0x10;
  return b;
}

}  // namespace

TEST_CASE("the undamaged source file reads back completely") {
  layout l;
  trace_reader r(l.file.path());
  r.verify();
  CHECK(r.events() == 3 * 3 * 3 * kind_count);
  CHECK(l.footer > l.blocks.back().offset);
}

TEST_CASE("a file truncated anywhere is rejected, naming where it ends or the part that does not fit") {
  layout l;
  const auto& b = l.bytes;
  SUBCASE("empty") { expect_rejected(cut(b, 0), 0, "at least 20 bytes"); }
  SUBCASE("inside the fixed header prefix") { expect_rejected(cut(b, 10), 0, "at least 20 bytes"); }
  SUBCASE("inside the header's fields") { expect_rejected(cut(b, l.header_end - 2), 12, "runs past the end"); }
  SUBCASE("right after the header") { expect_rejected(cut(b, l.header_end), l.header_end, "cut short"); }
  SUBCASE("inside a block header") { expect_rejected(cut(b, l.header_end + 20), l.header_end, "40-byte block header"); }
  SUBCASE("inside a block's events") {
    expect_rejected(cut(b, l.header_end + block_header_size + 5), l.header_end + 12, "runs past the end");
  }
  SUBCASE("between two blocks") { expect_rejected(cut(b, l.blocks[3].offset), l.blocks[3].offset, "cut short"); }
  SUBCASE("before the footer") { expect_rejected(cut(b, l.footer), l.footer, "cut short"); }
  SUBCASE("inside the footer") {
    expect_rejected(cut(b, l.footer + block_header_size + 10), l.footer + 12, "runs past the end");
  }
  SUBCASE("without the trailer") { expect_rejected(cut(b, l.trailer), l.trailer, "trailer"); }
  SUBCASE("one byte short") { expect_rejected(cut(b, b.size() - 1), l.trailer, "truncated"); }
}

TEST_CASE("a flipped bit anywhere is caught by a checksum, naming the damaged part's offset") {
  layout l;
  const auto& b = l.bytes;
  const std::uint64_t header_crc = l.header_end - 4;
  SUBCASE("in the magic") { expect_rejected(flip(b, 3), 0, "not a twinsched trace"); }
  SUBCASE("in the version") { expect_rejected(flip(b, 8), header_crc, "header checksum mismatch"); }
  SUBCASE("in a header field") { expect_rejected(flip(b, 25), header_crc, "header checksum mismatch"); }
  SUBCASE("in the header checksum") {
    expect_rejected(flip(b, header_crc + 1), header_crc, "header checksum mismatch");
  }
  SUBCASE("in a block's marker") { expect_rejected(flip(b, l.blocks[2].offset), l.blocks[2].offset, "block marker"); }
  SUBCASE("in a block header's lane") {
    expect_rejected(flip(b, l.blocks[1].offset + 6), l.blocks[1].offset, "block header checksum mismatch");
  }
  SUBCASE("in a block's events") {
    expect_rejected(flip(b, l.blocks[4].offset + block_header_size + 3), l.blocks[4].offset,
                    "payload checksum mismatch");
  }
  SUBCASE("in the last block's last byte") {
    const auto& last = l.blocks.back();
    expect_rejected(flip(b, last.offset + block_header_size + last.length - 1), last.offset,
                    "payload checksum mismatch");
  }
  SUBCASE("in the footer") {
    expect_rejected(flip(b, l.footer + block_header_size + 2), l.footer, "footer checksum mismatch");
  }
  SUBCASE("in the trailer") { expect_rejected(flip(b, b.size() - 10), l.trailer, "trailer"); }
}

TEST_CASE("a file that is not a trace is rejected at byte 0 for its magic") {
  layout l;
  auto b = l.bytes;
  const char zip[] = "PK\x03\x04\x14\x00\x00\x00";
  std::copy(zip, zip + 8, b.begin());
  expect_rejected(b, 0, "expected the trace magic 89 54 53 54 0d 0a 1a 0a, found 50 4b 03 04");
  const std::string text = "name = \"forward\"\n[workload]\nkind = \"forward\"\n";
  expect_rejected(std::vector<std::uint8_t>(text.begin(), text.end()), 0, "not a twinsched trace");
}

TEST_CASE("a trace from a future format version is rejected at byte 8, saying so") {
  layout l;
  auto b = l.bytes;
  b[8] = std::uint8_t(format_version + 1);
  b[9] = 0;
  const std::uint64_t crc_at = l.header_end - 4;
  const std::uint32_t crc = crc32c(b.data(), std::size_t(crc_at));
  for (int i = 0; i < 4; ++i) b[crc_at + std::size_t(i)] = std::uint8_t(crc >> (8 * i));
  expect_rejected(b, 8, "format version " + std::to_string(format_version + 1) + " is newer than this reader");
}

TEST_CASE("a trace from format version 1 (messages named by worker) is rejected at byte 8, saying to record it again") {
  layout l;
  auto b = l.bytes;
  b[8] = 1;
  b[9] = 0;
  const std::uint64_t crc_at = l.header_end - 4;
  const std::uint32_t crc = crc32c(b.data(), std::size_t(crc_at));
  for (int i = 0; i < 4; ++i) b[crc_at + std::size_t(i)] = std::uint8_t(crc >> (8 * i));
  expect_rejected(b, 8, "format version 1 is older than this reader");
  expect_rejected(b, 8, "record the run again");
}

TEST_CASE("a missing block is found by its lane's event numbering") {
  layout l;
  // drop lane 0's first block: lane 0's next block then starts at event 48, not 0
  const block_info& gone = l.blocks[0];
  REQUIRE(gone.lane == 0);
  auto b = l.bytes;
  const std::uint64_t len = block_header_size + gone.length;
  b.erase(b.begin() + std::ptrdiff_t(gone.offset), b.begin() + std::ptrdiff_t(gone.offset + len));
  const block_info* next0 = nullptr;
  for (const auto& x : l.blocks)
    if (x.lane == 0 && x.offset > gone.offset) {
      next0 = &x;
      break;
    }
  REQUIRE(next0);
  expect_rejected(b, next0->offset - len + 24, "a block is missing or out of order");
}

TEST_CASE("a recording that never finished leaves no file, and an older file under its name as it was") {
  temp_file f("unfinished");
  {
    trace_writer w(f.path(), test::synthetic_header());
    w.write_events(0, test::every_kind(0, 0));
  }  // no finish(): the run failed
  CHECK_FALSE(std::filesystem::exists(f.path()));
  test::write_bytes(f.path(), {1, 2, 3});
  {
    trace_writer w(f.path(), test::synthetic_header());
    w.write_events(0, test::every_kind(0, 0));
    CHECK(test::read_bytes(f.path()) == std::vector<std::uint8_t>{1, 2, 3});
  }
  CHECK(test::read_bytes(f.path()) == std::vector<std::uint8_t>{1, 2, 3});
  {
    trace_writer w(f.path(), test::synthetic_header());
    w.write_events(0, test::every_kind(0, 0));
    w.finish(test::synthetic_footer());
  }
  CHECK_NOTHROW(trace_reader r(f.path()));  // finished: the whole new file in its place
}

TEST_SUITE_END();
