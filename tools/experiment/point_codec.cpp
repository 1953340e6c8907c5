#include "tools/experiment/point_codec.hpp"

#include <stdexcept>

namespace walksim::experiment {

namespace {

template <typename T>
T get(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end()) throw std::runtime_error(std::string("a journalled point has no '") + key + "'");
  return it->get<T>();
}

}  // namespace

nlohmann::json point_to_json(const workload::RunResult& r) {
  nlohmann::json j;
  j["threads"] = r.threads;
  j["cpus"] = r.cpus;
  j["op_unit"] = r.op_unit;
  j["reports_bytes"] = r.reports_bytes;
  j["ops"] = r.ops;
  j["calls"] = r.calls;
  j["failed"] = r.failed;
  j["ops_per_s"] = r.ops_per_s;
  j["window_share"] = r.window_share;
  j["bytes_per_s"] = r.bytes_per_s;
  j["ns_per_op"] = r.ns_per_op;
  j["call_ns_per_op"] = r.call_ns_per_op;
  j["times_ps"] = {r.wall, r.cpu, r.user, r.sys, r.spin, r.sleep, r.memory_stall, r.compute};
  j["cpu_utilisation"] = r.cpu_utilisation;
  j["smt_cores"] = r.smt_cores;
  j["per_op"] = {r.atomic_rmw_per_op, r.loads_per_op, r.stores_per_op, r.lock_acquires_per_op};
  j["mem_per_op"] = r.mem_per_op;
  j["mem_ns_per_op"] = r.mem_ns_per_op;
  nlohmann::json walk;
  for (const auto& f : kernel::kWalkStatsFields) walk[f.name] = r.walk.*f.value;
  j["walk"] = walk;
  j["processes"] = nlohmann::json::array();
  for (const auto& p : r.processes) {
    j["processes"].push_back({p.cpu, p.wall, p.cpu_time, p.user, p.spin, p.sleep, p.ops});
  }
  j["hot"] = nlohmann::json::array();
  for (const auto& h : r.hot) {
    j["hot"].push_back({h.object, h.index, h.fields, h.shared, h.transfers, h.transactions, h.stall, h.queued});
  }
  j["counts"] = {r.mem_ops, r.events, r.lines, r.bytes_per_line};
  j["simulated_ps"] = r.simulated;
  j["host_s"] = {r.host_setup_s, r.host_run_s};
  return j;
}

workload::RunResult point_from_json(const nlohmann::json& j) {
  workload::RunResult r;
  r.threads = get<std::uint32_t>(j, "threads");
  r.cpus = get<std::vector<machine::CpuId>>(j, "cpus");
  r.op_unit = get<std::string>(j, "op_unit");
  r.reports_bytes = get<bool>(j, "reports_bytes");
  r.ops = get<std::uint64_t>(j, "ops");
  r.calls = get<std::uint64_t>(j, "calls");
  r.failed = get<std::uint64_t>(j, "failed");
  r.ops_per_s = get<double>(j, "ops_per_s");
  r.window_share = get<double>(j, "window_share");
  r.bytes_per_s = get<double>(j, "bytes_per_s");
  r.ns_per_op = get<double>(j, "ns_per_op");
  r.call_ns_per_op = get<double>(j, "call_ns_per_op");
  const auto t = get<std::vector<sim::Picos>>(j, "times_ps");
  if (t.size() != 8)
    throw std::runtime_error("a journalled point's times_ps has " + std::to_string(t.size()) + " entries");
  r.wall = t[0], r.cpu = t[1], r.user = t[2], r.sys = t[3], r.spin = t[4], r.sleep = t[5], r.memory_stall = t[6],
  r.compute = t[7];
  r.cpu_utilisation = get<double>(j, "cpu_utilisation");
  r.smt_cores = get<std::uint32_t>(j, "smt_cores");
  const auto per = get<std::vector<double>>(j, "per_op");
  if (per.size() != 4) throw std::runtime_error("a journalled point's per_op has the wrong length");
  r.atomic_rmw_per_op = per[0], r.loads_per_op = per[1], r.stores_per_op = per[2], r.lock_acquires_per_op = per[3];
  r.mem_per_op = get<decltype(r.mem_per_op)>(j, "mem_per_op");
  r.mem_ns_per_op = get<decltype(r.mem_ns_per_op)>(j, "mem_ns_per_op");
  const auto& walk = j.at("walk");
  for (const auto& f : kernel::kWalkStatsFields) r.walk.*f.value = get<std::uint64_t>(walk, f.name);
  for (const auto& p : j.at("processes")) {
    r.processes.push_back({p.at(0).get<machine::CpuId>(), p.at(1).get<sim::Picos>(), p.at(2).get<sim::Picos>(),
                           p.at(3).get<sim::Picos>(), p.at(4).get<sim::Picos>(), p.at(5).get<sim::Picos>(),
                           p.at(6).get<std::uint64_t>()});
  }
  for (const auto& h : j.at("hot")) {
    r.hot.push_back({h.at(0).get<std::string>(), h.at(1).get<std::uint32_t>(), h.at(2).get<std::string>(),
                     h.at(3).get<bool>(), h.at(4).get<std::uint64_t>(), h.at(5).get<std::uint64_t>(),
                     h.at(6).get<sim::Picos>(), h.at(7).get<sim::Picos>()});
  }
  const auto c = get<std::vector<std::uint64_t>>(j, "counts");
  if (c.size() != 4) throw std::runtime_error("a journalled point's counts has the wrong length");
  r.mem_ops = c[0], r.events = c[1], r.lines = c[2], r.bytes_per_line = c[3];
  r.simulated = get<sim::Picos>(j, "simulated_ps");
  const auto h = get<std::vector<double>>(j, "host_s");
  if (h.size() == 2) r.host_setup_s = h[0], r.host_run_s = h[1];
  return r;
}

}  // namespace walksim::experiment
