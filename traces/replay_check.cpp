// compare_replay: the recording's lanes against the replay's, filtered to the recording's level.
#include "replay_check.hpp"

#include <map>
#include <set>

#include "checksum.hpp"
#include "diff.hpp"
#include "lane_cursor.hpp"

namespace twinsched::traces {
namespace {

bool same(const trace_event& a, const trace_event& b) {
  return a.time_ns == b.time_ns && a.message == b.message && a.actor == b.actor && a.other == b.other &&
         a.worker == b.worker && a.kind == b.kind;
}

std::string lane_name(std::uint16_t l) { return l == outside_worker ? "the outside lane" : "worker " + std::to_string(l); }

}  // namespace

replay_match compare_replay(const trace_reader& recorded, const trace_reader& replayed) {
  const trace_level level = recorded.header().level;
  std::set<std::uint16_t> lanes;
  for (auto l : recorded.lanes()) lanes.insert(l);
  for (auto l : replayed.lanes()) lanes.insert(l);
  replay_match m;
  for (std::uint16_t l : lanes) {
    ++m.lanes;
    std::uint64_t want_hash = 0;
    for (const auto& s : recorded.footer().lanes)
      if (s.lane == l) want_hash = s.event_hash;
    lane_cursor a(recorded, l), b(replayed, l);
    std::uint64_t hash = 0, index = 0;
    bool differs = false;
    for (;;) {
      const trace_event* next = b.next();
      while (next && !recorded_at(next->kind, level)) next = b.next();
      trace_event projected;
      if (next) projected = at_level(*next, level);
      const trace_event* y = next ? &projected : nullptr;
      const trace_event* x = a.next();
      if (!x && !y) break;
      if (x) ++m.events;
      if (y) hash += event_hash_term(*y, index);
      if (!differs && (!x || !y || !same(*x, *y))) {
        differs = true;
        if (m.first_difference.empty())
          m.first_difference = lane_name(l) + ", event #" + std::to_string(index + 1) + ": recorded " +
                               (x ? describe(*x) : std::string("(lane ends)")) + "; replayed " +
                               (y ? describe(*y) : std::string("(lane ends)"));
      }
      ++index;
    }
    if (!differs && hash == want_hash) ++m.lanes_equal;
    else if (m.first_difference.empty())
      m.first_difference = lane_name(l) + ": same events but the lane hash differs from the recording's footer";
  }
  m.identical = m.lanes == m.lanes_equal;
  return m;
}

delivery_match compare_deliveries(const trace_footer& recorded, const trace_footer& replayed) {
  std::map<std::uint32_t, std::pair<const actor_stats*, const actor_stats*>> by_id;
  for (const auto& a : recorded.actors) by_id[a.id].first = &a;
  for (const auto& a : replayed.actors) by_id[a.id].second = &a;
  delivery_match m;
  m.digests_compared = comparable_digests(recorded, replayed);
  m.digest_note = digest_note(recorded, replayed);
  for (const auto& [id, p] : by_id) {
    ++m.actors;
    const auto [x, y] = p;
    if (x && y && x->delivered == y->delivered && (!m.digests_compared || x->digest == y->digest)) {
      ++m.actors_equal;
      continue;
    }
    if (!m.first_difference.empty()) continue;
    auto show = [](const actor_stats* a) {
      return a ? std::to_string(a->delivered) + " messages, digest " + std::to_string(a->digest) : std::string("absent");
    };
    m.first_difference = "actor " + std::to_string(id) + ": recorded " + show(x) + "; replayed " + show(y);
  }
  const bool same_checksum = recorded.checksum == replayed.checksum;
  m.equal = recorded.has_actors && replayed.has_actors && m.actors == m.actors_equal && same_checksum;
  if (!recorded.has_actors && m.first_difference.empty()) m.first_difference = "the recording has no per-actor deliveries";
  if (!same_checksum && m.first_difference.empty())
    m.first_difference = "the checksums differ (recorded " + hex_digits(recorded.checksum) + ", replayed " +
                         hex_digits(replayed.checksum) + "): the payloads differ";
  return m;
}

}  // namespace twinsched::traces
