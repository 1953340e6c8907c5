// rename-loop: every iteration renames the process's file away and back, so neither rename fails;
// the same atomics every iteration; a shared directory makes processes wait on its i_mutex where
// private directories do not.
#include <gtest/gtest.h>

#include <cmath>

#include "models/workload/test_support.hpp"

namespace walksim::workload {
namespace {

RunResult rename_loop(const std::string& kernel, std::uint32_t threads, std::uint64_t ops,
                      const std::string& params = "") {
  return testing::run_kind(kRenameLoopKind, kernel, threads, ops, params);
}

TEST(RenameLoop, EveryIterationRenamesTheFileAwayAndBack) {
  const auto r = rename_loop("linux-2.6.35", 3, 30);
  EXPECT_EQ(r.ops, 90u);
  EXPECT_EQ(r.calls, 180u);
  EXPECT_EQ(r.failed, 0u);  // each rename found the name the previous one left
}

TEST(RenameLoop, EveryIterationCostsTheSameAtomicsAndMoreThanAStat) {
  for (const std::string k : {"linux-2.6.35", "linux-2.6.38"}) {
    SCOPED_TRACE(k);
    const double a = rename_loop(k, 1, 10).atomic_rmw_per_op, b = rename_loop(k, 1, 30).atomic_rmw_per_op;
    EXPECT_NEAR(a, b, 1e-9);
    EXPECT_NEAR(a, std::round(a), 1e-9);
    // Two renames each walk two paths and lock the directory: more than two stats of the file.
    EXPECT_GT(a, 2.0 * static_cast<double>(testing::call_rmw(k, "stat ./f0", "/mnt/ram")));
  }
}

TEST(RenameLoop, ASharedDirectorysMutexIsContendedWherePrivateOnesAreNot) {
  const auto shared = rename_loop("linux-2.6.38", 4, 30);
  const auto priv = rename_loop("linux-2.6.38", 4, 30, "shared_dir: false\n");
  EXPECT_EQ(shared.failed, 0u);
  EXPECT_EQ(priv.failed, 0u);
  EXPECT_GT(shared.sleep + shared.spin, priv.sleep + priv.spin);
}

}  // namespace
}  // namespace walksim::workload
