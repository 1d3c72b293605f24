// What `trace info` shows of a trace: its header, what the run measured, events by kind, per-worker time, queueing.
#pragma once
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>

#include "trace_reader.hpp"
#include "trace_stats.hpp"

namespace twinsched::traces {

/// `st`: compute_stats(r), or null for the header and the footer's totals only (--quick).
/// `file`: the path as the user named it.
nlohmann::json info_json(const trace_reader& r, const std::string& file, const trace_stats* st);
void write_info_text(std::ostream& out, const trace_reader& r, const std::string& file, const trace_stats* st);

}  // namespace twinsched::traces
