// The metric table. A time summed over processes ends in `_s`; one process's time(1) figure is
// `process_..._s`; a count per operation ends in `_per_op`.
#include "tools/experiment/metrics.hpp"

#include <iterator>

namespace walksim::experiment {
namespace {

double seconds(sim::Picos p) { return sim::to_ns(p) * 1e-9; }

// The share of the processes' time spent in the calibrated component: the workload's user time
// (user_time), or the kernel's private CPU work (cpu_cost_scale). It says how much of a predicted
// number the fit supplies rather than the model.
double calibrated_share(const MetricInput& in) {
  if (in.calibrated.empty()) return 0;
  double wall = 0;
  for (const auto& p : in.run.processes) wall += static_cast<double>(p.wall);
  if (wall <= 0) return 0;
  const auto& r = in.run;
  const double part =
      in.calibrated == "user_time" ? static_cast<double>(r.user) : static_cast<double>(r.compute - r.user);
  return part / wall;
}

// One process's real, user or sys time (the mean over processes), extrapolated to
// run.extrapolate_to_ops operations when the experiment asks, as time(1) would report it.
enum class ProcessTime { kReal, kUser, kSys };
double process_time(const MetricInput& in, ProcessTime which) {
  double wall = 0, user = 0, cpu = 0;
  std::uint64_t ops = 0;
  for (const auto& p : in.run.processes) {
    wall += seconds(p.wall);
    user += seconds(p.user);
    cpu += seconds(p.cpu_time);
    ops += p.ops;
  }
  const double n = static_cast<double>(in.run.processes.size());
  if (n == 0) return 0;
  double scale = 1.0;
  if (in.spec.extrapolate_ops && ops)
    scale = static_cast<double>(in.spec.extrapolate_ops) * n / static_cast<double>(ops);
  switch (which) {
    case ProcessTime::kReal:
      return wall / n * scale;
    case ProcessTime::kUser:
      return user / n * scale;
    case ProcessTime::kSys:
      return (cpu - user) / n * scale;
  }
  return 0;
}

using U = MetricUnit;
using A = Aggregate;
using C = Carried;

// clang-format off
constexpr MetricDef kMetrics[] = {
    {"throughput", U::kThroughput, A::kMean,
     [](const MetricInput& in) { return in.run.reports_bytes ? in.run.bytes_per_s / 1e6 : in.run.ops_per_s; },
     nullptr, true, true, C::kAlways,
     "operations (or MB) per second in the window every process was measuring"},
    {"ns_per_op", U::kNs, A::kMean, [](const MetricInput& in) { return in.run.ns_per_op; },
     nullptr, true, false, C::kAlways, "each process's measured time per operation, averaged over processes"},
    {"call_ns_per_op", U::kNs, A::kMean, [](const MetricInput& in) { return in.run.call_ns_per_op; },
     nullptr, true, false, C::kAlways, "ns_per_op less the workload's user time per operation: the time in its calls"},
    {"scaling_pct", U::kPercent, A::kScaling, nullptr, "throughput", true, false, C::kAlways,
     "throughput at N threads over N times the throughput at the kernel's smallest thread count"},
    {"op_rate", U::kOpRate, A::kMean, [](const MetricInput& in) { return in.run.ops_per_s; },
     nullptr, false, true, C::kAlways, "operations per second (throughput when it does not count bytes)"},
    {"op_scaling_pct", U::kPercent, A::kScaling, nullptr, "op_rate", false, false, C::kAlways,
     "scaling_pct of op_rate"},
    {"atomic_rmw_per_op", U::kCount, A::kMean, [](const MetricInput& in) { return in.run.atomic_rmw_per_op; },
     nullptr, false, false, C::kAlways, "locked read-modify-writes (xadd, xchg, cmpxchg) per operation, lock traffic included"},
    {"loads_per_op", U::kCount, A::kMean, [](const MetricInput& in) { return in.run.loads_per_op; },
     nullptr, false, false, C::kAlways, "the kernel's loads per operation"},
    {"stores_per_op", U::kCount, A::kMean, [](const MetricInput& in) { return in.run.stores_per_op; },
     nullptr, false, false, C::kAlways, "the kernel's stores per operation"},
    {"lock_acquires_per_op", U::kCount, A::kMean, [](const MetricInput& in) { return in.run.lock_acquires_per_op; },
     nullptr, false, false, C::kAlways, "spinlock, rwlock and mutex acquisitions per operation"},
    {"cpu_utilisation", U::kFraction, A::kMean, [](const MetricInput& in) { return in.run.cpu_utilisation; },
     nullptr, false, false, C::kAlways, "CPU time over wall time times processes"},
    {"wall_s", U::kSeconds, A::kMean, [](const MetricInput& in) { return seconds(in.run.wall); },
     nullptr, false, false, C::kAlways, "simulated time until the last process finished"},
    {"cpu_s", U::kSeconds, A::kMean, [](const MetricInput& in) { return seconds(in.run.cpu); },
     nullptr, false, false, C::kAlways, "CPU time, summed over processes"},
    {"user_s", U::kSeconds, A::kMean, [](const MetricInput& in) { return seconds(in.run.user); },
     nullptr, false, false, C::kAlways, "user time, summed over processes"},
    {"sys_s", U::kSeconds, A::kMean, [](const MetricInput& in) { return seconds(in.run.sys); },
     nullptr, false, false, C::kAlways, "system time (CPU time less user time), summed over processes"},
    {"spin_s", U::kSeconds, A::kMean, [](const MetricInput& in) { return seconds(in.run.spin); },
     nullptr, false, false, C::kAlways, "time spent spinning on locks, summed over processes (part of sys_s)"},
    {"sleep_s", U::kSeconds, A::kMean, [](const MetricInput& in) { return seconds(in.run.sleep); },
     nullptr, false, false, C::kAlways, "time spent asleep, summed over processes"},
    {"memory_stall_s", U::kSeconds, A::kMean, [](const MetricInput& in) { return seconds(in.run.memory_stall); },
     nullptr, false, false, C::kAlways, "time waiting for memory accesses, summed over processes"},
    {"process_real_s", U::kSeconds, A::kMean, [](const MetricInput& in) { return process_time(in, ProcessTime::kReal); },
     nullptr, true, false, C::kAlways, "one process's real time as time(1) reports it (extrapolated to run.extrapolate_to_ops)"},
    {"process_user_s", U::kSeconds, A::kMean, [](const MetricInput& in) { return process_time(in, ProcessTime::kUser); },
     nullptr, true, false, C::kAlways, "one process's user time as time(1) reports it (extrapolated to run.extrapolate_to_ops)"},
    {"process_sys_s", U::kSeconds, A::kMean, [](const MetricInput& in) { return process_time(in, ProcessTime::kSys); },
     nullptr, true, false, C::kAlways, "one process's system time as time(1) reports it (extrapolated to run.extrapolate_to_ops)"},
    {"calibrated_share", U::kFraction, A::kMean, calibrated_share,
     nullptr, false, false, C::kWithCalibration, "the share of the processes' time spent in the calibrated parameter"},
    {"mem_l1_per_op", U::kCount, A::kMean, [](const MetricInput& in) { return in.run.mem_per_op[0]; },
     nullptr, false, false, C::kAlways, "memory accesses per measured operation: hits in the core's first private cache level"},
    {"mem_l1_ns_per_op", U::kNs, A::kMean, [](const MetricInput& in) { return in.run.mem_ns_per_op[0]; },
     nullptr, false, false, C::kAlways, "ns per measured operation waited for mem_l1 accesses"},
    {"mem_l2_per_op", U::kCount, A::kMean, [](const MetricInput& in) { return in.run.mem_per_op[1]; },
     nullptr, false, false, C::kAlways, "memory accesses per measured operation: hits in its second private level"},
    {"mem_l2_ns_per_op", U::kNs, A::kMean, [](const MetricInput& in) { return in.run.mem_ns_per_op[1]; },
     nullptr, false, false, C::kAlways, "ns per measured operation waited for mem_l2 accesses"},
    {"mem_l3_per_op", U::kCount, A::kMean, [](const MetricInput& in) { return in.run.mem_per_op[2]; },
     nullptr, false, false, C::kAlways, "memory accesses per measured operation: hits in its third private level (Itanium 2)"},
    {"mem_l3_ns_per_op", U::kNs, A::kMean, [](const MetricInput& in) { return in.run.mem_ns_per_op[2]; },
     nullptr, false, false, C::kAlways, "ns per measured operation waited for mem_l3 accesses"},
    {"mem_llc_per_op", U::kCount, A::kMean, [](const MetricInput& in) { return in.run.mem_per_op[3]; },
     nullptr, false, false, C::kAlways, "memory accesses per measured operation: hits in the domain's shared cache, without a snoop"},
    {"mem_llc_ns_per_op", U::kNs, A::kMean, [](const MetricInput& in) { return in.run.mem_ns_per_op[3]; },
     nullptr, false, false, C::kAlways, "ns per measured operation waited for mem_llc accesses"},
    {"mem_onchip_per_op", U::kCount, A::kMean, [](const MetricInput& in) { return in.run.mem_per_op[4]; },
     nullptr, false, false, C::kAlways, "memory accesses per measured operation: copies a sibling core of the same domain held, found by the shared cache"},
    {"mem_onchip_ns_per_op", U::kNs, A::kMean, [](const MetricInput& in) { return in.run.mem_ns_per_op[4]; },
     nullptr, false, false, C::kAlways, "ns per measured operation waited for mem_onchip accesses"},
    {"mem_cache_per_op", U::kCount, A::kMean, [](const MetricInput& in) { return in.run.mem_per_op[5]; },
     nullptr, false, false, C::kAlways, "memory accesses per measured operation: copies another core's cache supplied through the home"},
    {"mem_cache_ns_per_op", U::kNs, A::kMean, [](const MetricInput& in) { return in.run.mem_ns_per_op[5]; },
     nullptr, false, false, C::kAlways, "ns per measured operation waited for mem_cache accesses"},
    {"mem_local_dram_per_op", U::kCount, A::kMean, [](const MetricInput& in) { return in.run.mem_per_op[6]; },
     nullptr, false, false, C::kAlways, "memory accesses per measured operation: misses served by the DRAM of the requester's node"},
    {"mem_local_dram_ns_per_op", U::kNs, A::kMean, [](const MetricInput& in) { return in.run.mem_ns_per_op[6]; },
     nullptr, false, false, C::kAlways, "ns per measured operation waited for mem_local_dram accesses"},
    {"mem_remote_dram_per_op", U::kCount, A::kMean, [](const MetricInput& in) { return in.run.mem_per_op[7]; },
     nullptr, false, false, C::kAlways, "memory accesses per measured operation: misses served by the DRAM of another node"},
    {"mem_remote_dram_ns_per_op", U::kNs, A::kMean, [](const MetricInput& in) { return in.run.mem_ns_per_op[7]; },
     nullptr, false, false, C::kAlways, "ns per measured operation waited for mem_remote_dram accesses"},
    {"mem_upgrade_per_op", U::kCount, A::kMean, [](const MetricInput& in) { return in.run.mem_per_op[8]; },
     nullptr, false, false, C::kAlways, "memory accesses per measured operation: ownership or invalidations without data (a write to a shared copy)"},
    {"mem_upgrade_ns_per_op", U::kNs, A::kMean, [](const MetricInput& in) { return in.run.mem_ns_per_op[8]; },
     nullptr, false, false, C::kAlways, "ns per measured operation waited for mem_upgrade accesses"},
    {"smt_cores", U::kCount, A::kMax, [](const MetricInput& in) { return static_cast<double>(in.run.smt_cores); },
     nullptr, false, false, C::kAlways, "cores running two of the point's processes on SMT siblings"},
    {"window_share", U::kFraction, A::kMean, [](const MetricInput& in) { return in.run.window_share; },
     nullptr, false, false, C::kAlways, "share of the measured operations completed in the window in which every process was measuring, over which throughput is counted (0: the windows did not overlap and their union was used); below 0.3 the row is marked `w`"},
};
// clang-format on

}  // namespace

std::span<const MetricDef> metric_defs() { return kMetrics; }

const MetricDef* find_metric(std::string_view name) {
  for (const auto& m : kMetrics) {
    if (name == m.name) return &m;
  }
  return nullptr;
}

std::vector<std::string> validatable_metrics() {
  std::vector<std::string> out;
  for (const auto& m : kMetrics) {
    if (m.validatable) out.emplace_back(m.name);
  }
  return out;
}

std::string unit_text(MetricUnit u, const std::string& throughput_unit, const std::string& op_unit) {
  switch (u) {
    case MetricUnit::kThroughput:
      return throughput_unit;
    case MetricUnit::kOpRate:
      return op_unit + "/s";
    case MetricUnit::kNs:
      return "ns";
    case MetricUnit::kSeconds:
      return "s";
    case MetricUnit::kPercent:
      return "%";
    case MetricUnit::kCount:
      return "count";
    case MetricUnit::kFraction:
      return "fraction";
  }
  return "";
}

double metric_value(const MetricDef& m, const MetricInput& in) { return m.extract ? m.extract(in) : 0.0; }

}  // namespace walksim::experiment
