// SMT end to end: rcu-walk stat (2.6.38) on nehalem-ex-4s32c, whose 32 cores have 2 threads each.
// With cores-first placement 32 processes get a core each and 64 put two on every core; the 64
// then share their cores' pipelines, so throughput grows by 2 x smt_throughput, not 2.
#include <gtest/gtest.h>

#include "models/config/strict_yaml.hpp"
#include "models/exec/core_speed.hpp"
#include "models/kernel/kernel_loader.hpp"
#include "models/machine/machine_loader.hpp"
#include "models/workload/simulate.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::workload {
namespace {

std::vector<std::string> dir(const char* d) { return {std::string(WALKSIM_SOURCE_DIR) + "/configs/" + d}; }

constexpr std::uint64_t kOps = 300, kWarmup = 50;

RunResult stat_run(const machine::Machine& m, std::uint32_t threads, const std::string& params = "") {
  const auto k = kernel::load_kernel("linux-2.6.38", dir("kernels"));
  RunSpec spec;
  spec.machine = &m;
  spec.kernel = &k;
  spec.threads = threads;
  spec.placement = Placement::kCoresFirst;
  spec.control.ops_per_process = kOps;
  spec.control.warmup_ops = kWarmup;
  if (params.empty()) {
    auto w = kStatLoopKind.make(nullptr);
    return simulate(spec, *w);
  }
  const config::Node node = config::load_string(params, "params.yaml");
  auto w = kStatLoopKind.make(&node);
  node.finish();
  return simulate(spec, *w);
}

TEST(SmtStat, SixtyFourThreadsOnThirtyTwoCoresGiveTwiceTheSmtThroughputNotTwiceTheThroughput) {
  const machine::Machine m(machine::load_machine("nehalem-ex-4s32c", dir("machines")));
  const double f = m.spec().smt_throughput;  // 0.59
  const RunResult r32 = stat_run(m, 32);
  const RunResult r64 = stat_run(m, 64);
  EXPECT_EQ(r32.smt_cores, 0u);
  EXPECT_EQ(r64.smt_cores, 32u);
  const double ratio = r64.ops_per_s / r32.ops_per_s;

  // What the model predicts. Per stat, a process spends P on private work and hits and Q waiting
  // on the memory system; with a busy sibling P becomes P / f, so the ratio is
  // 2 (P + Q) / (P / f + Q) = 2 / ((1 - q) / f + q) with q = Q / (P + Q): 2f when q = 0, more when
  // misses remain. q is at most the 32-thread run's memory stall over its CPU time (warm-up misses
  // included, so an upper bound). The throughput estimator counts whole stats in the window common
  // to every process: each process can gain or lose one at each end of it, a relative error of at
  // most 2 / (kOps - kWarmup) on each run's rate.
  const double q = static_cast<double>(r32.memory_stall) / static_cast<double>(r32.cpu);
  const double counting = 2.0 / static_cast<double>(kOps - kWarmup);
  const double low = 2 * f * (1 - counting) / (1 + counting);
  const double high = 2 / ((1 - q) / f + q) * (1 + counting) / (1 - counting);
  EXPECT_GE(ratio, low) << "q " << q;
  EXPECT_LE(ratio, high) << "q " << q;
  EXPECT_LT(ratio, 1.5);  // far from the 2x of siblings simulated as full cores
}

TEST(SmtStat, ThirtyTwoThreadsOnThirtyTwoCoresRunAtSingleThreadSpeed) {
  const machine::Machine m(machine::load_machine("nehalem-ex-4s32c", dir("machines")));
  const RunResult r1 = stat_run(m, 1);
  const RunResult r32 = stat_run(m, 32);
  EXPECT_EQ(r1.smt_cores, 0u);
  EXPECT_EQ(r32.smt_cores, 0u);
  // rcu-walk stat on private files scales linearly while every process has a core of its own: up
  // to the estimator's counting error (as above) and, downwards, the share of time spent waiting
  // on the memory system, which contention could at most stretch.
  const double per_process = r32.ops_per_s / (32 * r1.ops_per_s);
  const double q = static_cast<double>(r32.memory_stall) / static_cast<double>(r32.cpu);
  const double counting = 2.0 / static_cast<double>(kOps - kWarmup);
  EXPECT_GE(per_process, (1 - q) * (1 - counting) / (1 + counting)) << "q " << q;
  EXPECT_LE(per_process, (1 + counting) / (1 - counting));
}

TEST(SmtStat, UserTimeIsCountedAtTheSpeedTheSharedCoreRunsIt) {
  const machine::Machine m(machine::load_machine("nehalem-ex-4s32c", dir("machines")));
  const Picos user = sim::from_ns(100);
  const Picos shared = exec::CoreSpeed(m.smt_throughput_ppm())(user);  // 100 ns / 0.59, rounded
  ASSERT_EQ(shared, 169'492);
  const RunResult r32 = stat_run(m, 32, "user_time: 100ns");
  const RunResult r64 = stat_run(m, 64, "user_time: 100ns");
  for (const ProcessTimes& p : r32.processes) EXPECT_EQ(p.user, static_cast<Picos>(p.ops) * user);
  for (const ProcessTimes& p : r64.processes) EXPECT_EQ(p.user, static_cast<Picos>(p.ops) * shared);
}

}  // namespace
}  // namespace walksim::workload
