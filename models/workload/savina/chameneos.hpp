// Savina's Chameneos: the colour rule, what each message adds to the checksum, the reference and
// the result check, shared by the workload (chameneos.cpp) and its test. Which creatures meet
// depends on the interleaving, so neither the checksum nor the check depends on the pairs: they
// hold for every interleaving of a correct run, and fail for a lost or extra message.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "../../rng.hpp"

namespace twinsched::savina_chameneos {

enum colour : std::uint8_t { red, yellow, blue, faded };

/// Savina's ChameneosHelper.complement: two different colours give the third, equal colours
/// stay, and faded stays faded.
constexpr colour complement(colour a, colour b) {
  if (a == faded || b == faded) return faded;
  return a == b ? a : colour(3 - a - b);
}

/// A creature's colour at the start, as Savina's mall gives them.
constexpr colour initial(std::uint64_t creature) { return colour(creature % 3); }

/// The messages of Savina's Chameneos: a creature's meet request (to the mall, or forwarded by
/// the mall to the creature waiting for a partner), the change that tells the partner its new
/// colour, the exit the mall answers a request with once every meeting has happened, and the
/// count of meetings a creature reports as it fades.
enum tag : std::uint32_t { meet = 1, change, exit, count };

/// What a message adds to the checksum: its kind and who receives it (the mall or a creature),
/// never who meets whom.
constexpr std::uint64_t value(bool to_mall, std::uint32_t t) { return splitmix64((std::uint64_t(to_mall) << 8) | t); }

/// Messages a correct run processes, whatever the pairs: the mall takes each creature's first
/// request (injected, in place of Savina's creatures' start-up sends) and two more per meeting,
/// forwards one per meeting, each meeting's change, and an exit and a count per creature.
constexpr std::uint64_t messages(std::uint64_t creatures, std::uint64_t meetings) {
  return 3 * creatures + 4 * meetings;
}

/// The checksum of a correct run: every message's value, and each count's meetings (twice the
/// meetings in all).
constexpr std::uint64_t reference_checksum(std::uint64_t creatures, std::uint64_t meetings) {
  return (creatures + 2 * meetings) * value(true, meet) + meetings * value(false, meet) +
         meetings * value(false, change) + creatures * value(false, exit) + creatures * value(true, count) +
         2 * meetings;
}

/// What the run ends with: the mall's tally, and each creature's meetings and last colour
/// before it faded.
struct outcome {
  std::uint64_t faded_reported = 0, meetings_reported = 0;
  std::vector<std::uint64_t> meetings;
  std::vector<colour> last;
};

/// Savina's check (the mall's sum of the creatures' meetings is twice the meetings), and: every
/// creature faded and reported; the creatures' own counts add up too; and their colours obey
/// the rule's invariant: a meeting of two colours turns both into the third, which lowers each
/// colour's count by one modulo 3, so the differences between the counts modulo 3 never change.
inline bool result_ok(std::uint64_t creatures, std::uint64_t meetings, const outcome& o) {
  if (o.faded_reported != creatures || o.meetings_reported != 2 * meetings) return false;
  if (o.meetings.size() != creatures || o.last.size() != creatures) return false;
  std::uint64_t sum = 0;
  for (std::uint64_t m : o.meetings) sum += m;
  std::array<std::int64_t, 3> diff{};  // final count minus initial count, per colour
  for (std::uint64_t i = 0; i < creatures; ++i) {
    if (o.last[i] == faded) return false;
    ++diff[o.last[i]];
    --diff[initial(i)];
  }
  const auto mod3 = [](std::int64_t x) { return ((x % 3) + 3) % 3; };
  return sum == 2 * meetings && mod3(diff[red] - diff[yellow]) == 0 && mod3(diff[yellow] - diff[blue]) == 0;
}

}  // namespace twinsched::savina_chameneos
