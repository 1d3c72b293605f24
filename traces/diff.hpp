// Comparing two traces: headline metrics side by side, logical equivalence, and the first diverging event.
// The report printed: diff_text.hpp (text), diff_json.hpp (JSON).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trace_reader.hpp"

namespace twinsched::traces {

struct diff_options {
  std::optional<double> tolerance;  ///< relative, e.g. 0.10; exceeding it on a gated metric fails the diff
  bool events = false;              ///< compare event by event even unless both traces are simulations
  std::size_t context = 3;          ///< events shown around the first divergence
};

/// One row of the table, in the text and the JSON alike.
struct diff_metric {
  std::string name, unit;
  std::optional<double> a, b;
  bool gated = true;  ///< counts toward --tolerance
  bool over = false;  ///< gated, and its relative difference exceeds the tolerance
  std::optional<double> delta() const;  ///< b - a, when both exist
  /// (b - a) / |a|; none from 0 to something, or from a near-zero base (then delta() says it).
  std::optional<double> relative() const;
  /// The values differ and `a` is too small for a ratio to say anything: under 1% of the
  /// change (a ratio past 100x: 0.001 -> 18.5 is not "+1847293.5%"), or, for a share of the
  /// time (unit "%"), under 1% of the time. Such a change reads as its absolute size.
  bool near_zero_base() const;
  /// How much the row differs, for ranking: a share's change in points over 100 (a fraction
  /// of the whole time), any other row's |relative()|; none without one.
  std::optional<double> size() const;
};

/// Deliveries compared from the footers: each actor without a group on its own (count and
/// payload digest), and each group of equal actors (group != 0) as a whole, since which
/// member processes a message is a scheduling choice (donation moves messages between them).
struct logical_check {
  enum class verdict { equal, differ, unavailable } state = verdict::unavailable;
  std::string why;  ///< unavailable: why; differ: the first differing actor or group, in words
  std::size_t actors_a = 0, actors_b = 0, groups = 0;
  std::size_t differing = 0;                 ///< actors and groups that differ
  /// False if either trace has no digests (a decisions-level one) or they come from different
  /// payload hashes (footer.hpp comparable_digests): then only the delivery counts were
  /// compared per actor, and the runs' checksums for the payloads.
  bool digests_compared = true;
  std::string digest_note;  ///< why digests were not compared (footer.hpp digest_note)
  /// The runs' checksums (each folds every delivered payload with its receiver) are equal.
  bool checksums_equal = true;
  std::optional<std::uint32_t> first_actor;  ///< the lowest ungrouped actor that differs
  std::optional<std::uint32_t> first_group;  ///< the lowest group that differs, when no actor does
};

/// The first event where two deterministic traces part ways.
struct divergence {
  bool checked = false;
  std::string why_not;  ///< when not checked
  bool identical = false;
  std::uint64_t index = 0;                    ///< events equal before it (merged order)
  std::vector<trace_event> before;            ///< the last equal events (shared)
  std::vector<trace_event> after_a, after_b;  ///< from the first difference on
};

struct diff_report {
  std::string file_a, file_b;
  trace_header a, b;
  bool same_scenario = false, same_workload = false;
  std::vector<std::string> scenario_differences;  ///< "policy: "stealing" vs "shared-queue""
  std::vector<diff_metric> metrics;
  std::vector<std::string> notes;
  logical_check logical;
  divergence first;
  std::optional<double> tolerance;
  bool over_tolerance() const;
  /// 0: equivalent and within tolerance; 1: a logical difference, or over tolerance.
  int exit_code() const;
};

/// Compares every actor's delivery count and payload digest (ungrouped actors by id, grouped
/// ones summed per group), and the runs' checksums; digests only if both traces hold them,
/// made by the same payload hash (footer.hpp comparable_digests).
logical_check check_logical(const trace_footer& a, const trace_footer& b);

/// The `n` rows that differ most, as indexes into d.metrics, largest first: the makespan first
/// whenever it differs (the headline), then the others by size() (a share's 0.05% -> 0.52%
/// is 0.47 points, small beside a makespan 80% shorter); rows with no size (from a zero or
/// near-zero base) are not ranked.
std::vector<std::size_t> largest_differences(const diff_report& d, std::size_t n = 3);

/// Reads both traces once each (merged order) plus, for the event comparison, once more in
/// lockstep. Throws trace_error on a damaged file.
diff_report diff_traces(const trace_reader& a, const trace_reader& b, const diff_options& o);

/// One event as one line: "1234567 ns  w1  run_begin  actor 17  msg 2:000123  other 0" (the text
/// report's divergence, with times since the run began; replay_check's first difference).
std::string describe(const trace_event& e);

/// A hash or payload digest as 16 hex digits, as the diff's words show them.
std::string hex_digits(std::uint64_t v);

}  // namespace twinsched::traces
