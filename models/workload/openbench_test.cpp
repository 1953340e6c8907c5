// openbench runs Dave Hansen's loop: every call succeeds and the file is gone at the end, a loop
// costs exactly the atomics of open (existing file) + write + close on that kernel, and the 2007
// r/o bind mount posting adds one mount-wide lock per open-for-write and per close.
#include <gtest/gtest.h>

#include "models/workload/test_support.hpp"

namespace walksim::workload {
namespace {

using testing::RunArgs;

RunResult openbench(const std::string& kernel, std::uint32_t threads, std::uint64_t loops) {
  auto w = testing::make(kOpenbenchKind, "loops: " + std::to_string(loops));
  RunArgs a;
  a.machine = "x86-32way-2007";
  a.kernel = kernel;
  a.threads = threads;
  return testing::run(a, *w);
}

// The locked RMWs of one steady-state loop: the difference between two runs' totals, so the
// first (creating) open and the final unlink cancel out.
double rmw_per_loop(const std::string& kernel) {
  const auto a = openbench(kernel, 1, 20), b = openbench(kernel, 1, 60);
  return (b.atomic_rmw_per_op * 60 - a.atomic_rmw_per_op * 20) / 40;
}

TEST(Openbench, EveryProcessLoopsWithoutAFailureAndUnlinksItsFile) {
  const auto r = openbench("linux-2.6.35", 4, 50);
  EXPECT_EQ(r.ops, 4u * 50);
  EXPECT_EQ(r.calls, 4u * (3 * 50 + 1));  // open, write, close per loop, then the unlink
  EXPECT_EQ(r.failed, 0u);                // the unlink found the file each process created
  EXPECT_EQ(r.op_unit, "open/write/close loop");
  EXPECT_GT(r.ops_per_s, 0);
}

TEST(Openbench, ALoopCostsTheAtomicsOfOpenWriteAndCloseOfTheExistingFile) {
  for (const std::string k : {"linux-2.6.20", "linux-2.6.26-robind", "linux-2.6.35", "linux-2.6.38"}) {
    const std::uint64_t expected = testing::call_rmw(k, "open ./openbench.0 O_WRONLY|O_CREAT", "/mnt/ram") +
                                   testing::call_rmw(k, "write ./openbench.0 3", "/mnt/ram") +
                                   testing::call_rmw(k, "close ./openbench.0", "/mnt/ram");
    EXPECT_NEAR(rmw_per_loop(k), static_cast<double>(expected), 1e-6) << k;
  }
}

TEST(Openbench, TheReadOnlyBindMountPostingAddsOneMountLockPairPerLoop) {
  EXPECT_NEAR(rmw_per_loop("linux-2.6.26-robind") - rmw_per_loop("linux-2.6.20"), 2.0, 1e-6);
}

TEST(Openbench, ProcessesSleepOnTheSharedDirectoryMutexSoWallTimeExceedsCpuTime) {
  const auto r = openbench("linux-2.6.20", 8, 40);
  EXPECT_EQ(r.failed, 0u);
  EXPECT_GT(r.sleep, 0u);
}

TEST(Openbench, RejectsZeroLoopsAndUnknownKeys) {
  EXPECT_THROW(testing::make(kOpenbenchKind, "loops: 0"), config::ConfigError);
  EXPECT_THROW(testing::make(kOpenbenchKind, "lops: 10"), config::ConfigError);
}

}  // namespace
}  // namespace walksim::workload
