// The machine model file calibration writes: its notes as the header comment, then every term.
#include <unistd.h>

#include <ctime>
#include <string>

#include "twin/batch_stats.hpp"
#include "twin/calibrate.hpp"

namespace twinsched {

using calib::fmt;

std::string machine_toml(const calibration& c) {
  const machine_model& m = c.model;
  std::string t;
  char host[256] = "?";
  ::gethostname(host, sizeof host - 1);
  std::time_t now = std::time(nullptr);
  char when[64];
  std::strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  t += "# " + m.name + ": measured by `twinsched calibrate` on " + host + ", " + when + ", " +
       std::to_string(m.cores()) + " logical CPUs.\n";
  t += "# What each term measures: twin/calibrate.cpp and sim/MACHINES.md. Figures of this run:\n";
  for (auto& n : c.notes) t += "#   " + n + "\n";
  t += "\nname = \"" + m.name + "\"\n";
  t += "description = \"measured by twinsched calibrate on " + std::string(host) + "\"\n\n";
  t += "[topology]\nsockets = 1\n";
  t += "cores_per_socket = " + std::to_string(m.cores_per_socket) + "\n";
  t += fmt("clock_ghz = %.3f\n", m.clock_ghz);
  if (m.private_cache_kib > 0) t += "private_cache_kib = " + std::to_string(m.private_cache_kib) + "\n";
  if (m.shared_cache_kib > 0) t += "shared_cache_kib = " + std::to_string(m.shared_cache_kib) + "\n";
  t += "\n[costs]\n";
  auto cost = [&](const char* key, double v) { t += std::string(key) + fmt("_ns = %.3f\n", v); };
  cost("atomic_load", m.atomic_load);
  cost("atomic_store", m.atomic_store);
  cost("atomic_rmw", m.atomic_rmw);
  cost("fence", m.fence);
  cost("line_transfer_same_socket", m.line_same_socket);
  cost("line_transfer_cross_socket", m.line_cross_socket);
  cost("migration_per_kib", m.migration_per_kib);
  cost("lock_handoff", m.lock_handoff);
  cost("contended_unlock", m.contended_unlock);
  cost("queue_op", m.queue_op);
  cost("locked_queue_op", m.locked_queue_op);
  cost("park", m.park);
  cost("unpark", m.unpark);
  cost("wake_latency", m.wake_latency);
  cost("block_cpu", m.block_cpu);
  auto spread = [&](const char* key, const char* what, const std::vector<double>& q) {
    if (q.empty()) return;
    t += std::string("# ") + what + ": ns at 1%, 10%, 25%, 50%, 75%, 90%, 99% and 99.9%\n" + key + " = [";
    for (std::size_t i = 0; i < q.size(); ++i) t += (i ? ", " : "") + fmt("%.0f", q[i]);
    t += "]\n";
  };
  spread("wake_latency_quantiles_ns", "the wake-up latency's spread", m.wake_latency_quantiles);
  spread("timer_late_quantiles_ns", "a timed park's overshoot past its deadline", m.timer_late_quantiles);
  cost("spin", m.spin);
  cost("yield", m.yield);
  cost("message", m.message);
  cost("turn", m.turn);
  cost("envelope", m.envelope);
  cost("mailbox_push", m.mailbox_push);
  cost("mailbox_pop", m.mailbox_pop);
  cost("burn_call", m.burn_call);
  cost("cold_actor", m.cold_actor);
  cost("llc_actor", m.llc_actor);  // 0: no shared level, or hits there cost nothing more
  cost("memory_load", m.memory_load);
  cost("stream_load", m.stream_load);
  if (!m.kernels.empty()) {
    t += "\n[kernels]\n";
    for (const auto& [name, ns] : m.kernels) cost(name.c_str(), ns);
  }
  t += fmt("\n[simulation]\nquantum_ns = %.0f\n", m.quantum_ns);
  return t;
}

}  // namespace twinsched
