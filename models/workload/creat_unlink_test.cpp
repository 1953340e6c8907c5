// creat-unlink: every iteration creates the process's file, closes and unlinks it, so each create
// is a real one (the unlink never fails); the same atomics every iteration; a shared directory
// makes processes wait on its i_mutex where private directories do not.
#include <gtest/gtest.h>

#include <cmath>

#include "models/workload/cyclic_source.hpp"
#include "models/workload/test_support.hpp"

namespace walksim::workload {
namespace {

RunResult creat_unlink(const std::string& kernel, std::uint32_t threads, std::uint64_t ops,
                       const std::string& params = "") {
  return testing::run_kind(kCreatUnlinkKind, kernel, threads, ops, params);
}

TEST(CreatUnlink, EveryIterationCreatesClosesAndUnlinksTheFile) {
  const auto r = creat_unlink("linux-2.6.35", 3, 30);
  EXPECT_EQ(r.ops, 90u);
  EXPECT_EQ(r.calls, 270u);
  EXPECT_EQ(r.failed, 0u);  // each unlink found the file its create made
}

TEST(CreatUnlink, EveryIterationCostsTheSameAtomics) {
  for (const std::string k : {"linux-2.6.35", "linux-2.6.38"}) {
    const double a = creat_unlink(k, 1, 10).atomic_rmw_per_op, b = creat_unlink(k, 1, 30).atomic_rmw_per_op;
    EXPECT_NEAR(a, b, 1e-9) << k;
    EXPECT_NEAR(a, std::round(a), 1e-9) << k;
  }
  // Creating and unlinking costs more than walking to an existing file.
  EXPECT_GT(creat_unlink("linux-2.6.35", 1, 10).atomic_rmw_per_op,
            static_cast<double>(testing::call_rmw("linux-2.6.35", "open ./f0 O_WRONLY|O_CREAT", "/mnt/ram") +
                                testing::call_rmw("linux-2.6.35", "close ./f0", "/mnt/ram")));
}

TEST(CreatUnlink, AnInodeFreedAtOnceIsTheNextCreatesAndAnRcuFreedOneIsNot) {
  // 2.6.35 frees the unlinked inode to the CPU's slab at once, so the next create reuses it and
  // only its new dentry adds lines; 2.6.38 frees it (and every kernel its dentries) through RCU.
  auto lines_per_iteration = [](const std::string& k) {
    return static_cast<double>(creat_unlink(k, 1, 60).lines - creat_unlink(k, 1, 30).lines) / 30.0;
  };
  const double immediate = lines_per_iteration("linux-2.6.35"), rcu = lines_per_iteration("linux-2.6.38");
  EXPECT_LT(immediate, 4.0);        // a dentry: 3 lines, slabs made as they fill
  EXPECT_GT(rcu - immediate, 8.0);  // and an inode: 9.5 lines
}

TEST(CreatUnlink, ASharedDirectorysMutexIsContendedWherePrivateOnesAreNot) {
  const auto shared = creat_unlink("linux-2.6.38", 4, 30);
  const auto priv = creat_unlink("linux-2.6.38", 4, 30, "shared_dir: false\n");
  EXPECT_EQ(priv.failed, 0u);
  EXPECT_GT(shared.sleep + shared.spin, priv.sleep + priv.spin);
}

}  // namespace
}  // namespace walksim::workload

namespace walksim::workload {
namespace {

// The loop workloads' source: the cycle in order, the user time before its first call only, the
// operation ending at its last call, and then the cycle again.
TEST(CyclicSource, RepeatsItsCycleWithTheUserTimeFirstAndTheOperationEndingLast) {
  RunControl control;
  control.ops_per_process = 5;
  CyclicSource src(control,
                   {loop_call(kernel::Sys::kOpen, "./f", true, true), loop_call(kernel::Sys::kClose, "./f"),
                    loop_call(kernel::Sys::kUnlink, "./f")},
                   sim::from_ns(7));
  const kernel::Sys want[] = {kernel::Sys::kOpen, kernel::Sys::kClose, kernel::Sys::kUnlink, kernel::Sys::kOpen};
  for (int i = 0; i < 4; ++i) {
    Syscall s;
    ASSERT_TRUE(src.next(s)) << i;
    EXPECT_EQ(s.sys, want[i]) << i;
    EXPECT_EQ(s.path, "./f");
    EXPECT_EQ(s.user_before, i % 3 == 0 ? sim::from_ns(7) : 0) << i;
    EXPECT_EQ(s.ends_op, i % 3 == 2) << i;
    EXPECT_EQ(s.create, i % 3 == 0) << i;
    src.completed(s, false, sim::from_ns(100 * (i + 1)));
  }
  EXPECT_EQ(src.measured().total_ops, 1u);
}

}  // namespace
}  // namespace walksim::workload
