// stat-loop runs end to end: single-thread time per stat, rcu-walk scaling where ref-walk
// collapses, and the shared cwd dentry as the hottest line of 2.6.35.
#include <gtest/gtest.h>

#include "models/kernel/kernel_loader.hpp"
#include "models/machine/machine_loader.hpp"
#include "models/workload/simulate.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::workload {
namespace {

std::vector<std::string> dir(const char* d) { return {std::string(WALKSIM_SOURCE_DIR) + "/configs/" + d}; }

RunResult run(const std::string& machine, const std::string& kernel, std::uint32_t threads) {
  machine::Machine m(machine::load_machine(machine, dir("machines")));
  const auto k = kernel::load_kernel(kernel, dir("kernels"));
  RunSpec spec;
  spec.machine = &m;
  spec.kernel = &k;
  spec.threads = threads;
  spec.control.ops_per_process = 300;
  spec.control.warmup_ops = 50;
  auto w = kStatLoopKind.make(nullptr);
  return simulate(spec, *w);
}

TEST(StatLoop, OneProcessDoesEveryStatAndCountsItsAtomics) {
  const auto r = run("barcelona-2s8c", "linux-2.6.35", 1);
  EXPECT_EQ(r.ops, 250u);
  EXPECT_NEAR(r.atomic_rmw_per_op, 13.0, 1e-9);
  EXPECT_GT(r.ns_per_op, 100.0);
  EXPECT_EQ(r.failed, 0u);
}

TEST(StatLoop, TheMemoryBreakdownCountsTheMeasuredStatsOnly) {
  // The warm-up's first stat finds every line in DRAM; the 250 measured stats of one hot file hit
  // the private caches: no miss is left in the breakdown, and each stat's loads, stores and atomics
  // are all counted in it.
  const auto r = run("barcelona-2s8c", "linux-2.6.35", 1);
  double accesses = 0;
  for (double x : r.mem_per_op) accesses += x;
  const auto src = [&](coherence::Source s) { return r.mem_per_op[static_cast<std::size_t>(s)]; };
  EXPECT_EQ(src(coherence::Source::kLocalMemory), 0.0);
  EXPECT_EQ(src(coherence::Source::kRemoteMemory), 0.0);
  EXPECT_GT(src(coherence::Source::kL1), 10.0);
  EXPECT_NEAR(accesses, r.loads_per_op + r.stores_per_op + r.atomic_rmw_per_op, 1e-9);
  EXPECT_GT(r.mem_ns_per_op[static_cast<std::size_t>(coherence::Source::kL1)], 0.0);
}

TEST(StatLoop, RcuWalkScalesWhereRefWalkCollapsesOnASharedCwd) {
  const auto old1 = run("nehalem-ex-4s32c", "linux-2.6.35", 1);
  const auto old32 = run("nehalem-ex-4s32c", "linux-2.6.35", 32);
  const auto new1 = run("nehalem-ex-4s32c", "linux-2.6.38", 1);
  const auto new32 = run("nehalem-ex-4s32c", "linux-2.6.38", 32);
  const double old_scaling = old32.ops_per_s / (32 * old1.ops_per_s);
  const double new_scaling = new32.ops_per_s / (32 * new1.ops_per_s);
  EXPECT_LT(old_scaling, 0.3);
  EXPECT_GT(new_scaling, 0.8);
}

TEST(StatLoop, TheHottestLineOf2635IsTheSharedCwdDentryOrTheMount) {
  const auto r = run("nehalem-ex-4s32c", "linux-2.6.35", 16);
  ASSERT_FALSE(r.hot.empty());
  EXPECT_TRUE(r.hot[0].object == "dentry 'user'" || r.hot[0].object == "vfsmount") << r.hot[0].object;
  EXPECT_TRUE(r.hot[0].shared);
}

}  // namespace
}  // namespace walksim::workload
