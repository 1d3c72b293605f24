// libFuzzer harness: bytes -> a .tst trace read the way `twinsched trace info` and `trace step` read it.
//
// The bytes go to a memfd (no disk), opened by path through /proc/self/fd, since trace_reader
// takes a path. Each input is read whole: the header, every block header, the footer and the
// trailer (trace_reader's constructor), then every event of every block merged by time, into
// compute_stats (what `twinsched trace info` prints) or into step_state (what `trace step`
// shows, with its views of queues and mailboxes), one or the other by a hash of the input.
//
// Every part of a trace carries a CRC-32C, so most mutations would only ever reach a checksum
// check. The harness therefore reads each input repaired, with every CRC and the trailer's
// back-references recomputed where the layout can be followed, so that mutated fields and
// payloads reach the decoders behind the checks; when the repair changed something, the input
// as given is also opened, and its first block with a wrong payload checksum read (the
// checksum paths).
//
// A rejected input is a trace_error naming a byte; anything else that escapes, every crash,
// leak, hang or sanitizer report, and an accepted trace whose merged walk does not yield
// exactly the events its blocks declare, is a bug.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_common.hpp"
#include "traces/checksum.hpp"
#include "traces/format.hpp"
#include "traces/merged_cursor.hpp"
#include "traces/step_state.hpp"
#include "traces/trace_reader.hpp"
#include "traces/trace_stats.hpp"

using namespace twinsched;
using namespace twinsched::traces;

namespace {

std::uint64_t get(const std::vector<std::uint8_t>& b, std::size_t at, int n) {
  std::uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= std::uint64_t(b[at + std::size_t(i)]) << (8 * i);
  return v;
}

void put(std::vector<std::uint8_t>& b, std::size_t at, std::uint64_t v, int n) {
  for (int i = 0; i < n; ++i) b[at + std::size_t(i)] = std::uint8_t(v >> (8 * i));
}

/// `b` with every checksum the layout lets us find recomputed (format.hpp): the header's, each
/// block header's and payload's, and the trailer's, whose footer offset and block count are set
/// to what precedes it. Stops where the layout cannot be followed (the reader rejects it there).
std::vector<std::uint8_t> repaired(std::vector<std::uint8_t> b) {
  const std::size_t n = b.size();
  if (n < header_prefix + 4) return b;
  const std::uint64_t length = get(b, 12, 4);
  if (length > max_header_length || header_prefix + length + 4 > n) return b;
  const std::size_t crc_at = header_prefix + std::size_t(length);
  put(b, crc_at, crc32c(b.data(), crc_at), 4);
  std::size_t at = crc_at + 4;
  std::uint64_t blocks = 0;
  while (n - at >= block_header_size && std::memcmp(b.data() + at, block_marker.data(), 4) == 0) {
    const std::uint64_t len = get(b, at + 12, 4);
    const bool fits = len <= n - at - block_header_size;
    if (fits) put(b, at + 32, crc32c(b.data() + at + block_header_size, std::size_t(len)), 4);
    put(b, at + 36, crc32c(b.data() + at, 36), 4);
    if (!fits) break;
    const std::size_t end = at + block_header_size + std::size_t(len);
    if (b[at + 4] == std::uint8_t(block_type::footer)) {
      if (n - end == trailer_size) {
        put(b, end, at, 8);
        put(b, end + 8, blocks, 8);
        put(b, end + 16, crc32c(b.data() + end, 16), 4);
      }
      break;
    }
    ++blocks;
    at = end;
  }
  return b;
}

/// A memfd holding the current input, and the path trace_reader opens it by.
struct memfile {
  int fd = -1;
  std::string path;
  memfile() {
    fd = ::memfd_create("fuzz-trace", MFD_CLOEXEC);
    if (fd < 0) {
      std::perror("memfd_create");
      std::abort();
    }
    path = "/proc/self/fd/" + std::to_string(fd);
  }
  void write(const std::vector<std::uint8_t>& b) {
    if (::ftruncate(fd, 0) != 0) std::abort();
    std::size_t done = 0;
    while (done < b.size()) {
      const ssize_t k = ::pwrite(fd, b.data() + done, b.size() - done, off_t(done));
      if (k <= 0) std::abort();
      done += std::size_t(k);
    }
  }
};

/// Reads the trace in `f` whole, with every event of every block merged by time: into
/// compute_stats (what `trace info` prints) or, when `step`, into step_state and its views of
/// queues and mailboxes (what `trace step` shows).
void read_whole(const memfile& f, bool step) {
  const trace_reader r(f.path);
  const trace_header& h = r.header();
  (void)r.footer().events();
  (void)r.lanes();
  if (!step) {
    const trace_stats st = compute_stats(r);
    if (st.events != r.events()) fuzz::broken("trace info: the merged walk's event count differs from the blocks'");
    return;
  }
  step_state state(h.lanes, h.level == trace_level::full);
  merged_cursor cur(r);
  while (const trace_event* e = cur.next()) state.apply(*e);
  if (state.events() != r.events()) fuzz::broken("trace step: the merged walk's event count differs from the blocks'");
  (void)state.runnable();
  (void)state.largest_mailboxes(10);
  (void)state.mailbox_total();
  (void)state.mailboxes_nonempty();
}

/// Opens the input as given (the header, block header and trailer checksums) and reads the
/// first block whose payload checksum the repair changed (the payload checksum path), without
/// decoding the intact blocks before it.
void open_as_given(const memfile& f, const std::vector<std::uint8_t>& raw, const std::vector<std::uint8_t>& fixed) {
  const trace_reader r(f.path);
  std::vector<trace_event> events;
  for (const block_info& b : r.blocks())
    if (std::memcmp(raw.data() + b.offset + 32, fixed.data() + b.offset + 32, 4) != 0) {
      r.read_block(b, events);
      fuzz::broken("a block whose payload checksum is wrong was read without an error");
    }
}

/// Runs `read` on `bytes`; a trace_error is a rejection.
template <class Read>
void attempt(memfile& f, const std::vector<std::uint8_t>& bytes, Read read) {
  f.write(bytes);
  try {
    read();
  } catch (const trace_error&) {
  } catch (const std::exception& e) {
    fuzz::other_exception(e);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static memfile f;
  const std::vector<std::uint8_t> raw(data, data + size);
  const std::vector<std::uint8_t> fixed = repaired(raw);
  if (fixed != raw) attempt(f, raw, [&] { open_as_given(f, raw, fixed); });
  // One consumer per input, chosen by a hash of its bytes: half the work per execution, and
  // each consumer still sees inputs of every shape (a mutation flips the choice at random).
  const std::size_t hash = std::hash<std::string_view>{}({reinterpret_cast<const char*>(data), size});
  attempt(f, fixed, [&] { read_whole(f, (hash >> 17) & 1); });
  return 0;
}
