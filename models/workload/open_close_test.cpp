// open-close: every iteration opens the process's existing file read-only and closes it, with the
// atomics of those two calls and none of the directory's i_mutex; private directories per process
// or one shared directory.
#include <gtest/gtest.h>

#include "models/workload/test_support.hpp"

namespace walksim::workload {
namespace {

RunResult open_close(const std::string& kernel, std::uint32_t threads, std::uint64_t ops,
                     const std::string& params = "") {
  return testing::run_kind(kOpenCloseKind, kernel, threads, ops, params);
}

TEST(OpenClose, EveryIterationOpensAndClosesTheProcesssFile) {
  const auto r = open_close("linux-2.6.35", 3, 40);
  EXPECT_EQ(r.ops, 120u);
  EXPECT_EQ(r.calls, 240u);
  EXPECT_EQ(r.failed, 0u);
  EXPECT_EQ(r.op_unit, "open/close");
}

TEST(OpenClose, AnIterationCostsTheAtomicsOfAReadOnlyOpenAndItsClose) {
  for (const std::string k : {"linux-2.6.35", "linux-2.6.38"}) {
    // walksim trace's close follows an O_RDWR open: a read-only file skips put_write_access.
    const double expected = static_cast<double>(testing::call_rmw(k, "open ./f0", "/mnt/ram") +
                                                testing::call_rmw(k, "close ./f0", "/mnt/ram") - 1);
    EXPECT_NEAR(open_close(k, 1, 30).atomic_rmw_per_op, expected, 1e-9) << k;
  }
}

TEST(OpenClose, PrivateDirectoriesWork) {
  const auto r = open_close("linux-2.6.38", 2, 20, "shared_dir: false\ncwd: /tmp/x\nuser_time: 50ns\n");
  EXPECT_EQ(r.ops, 40u);
  EXPECT_EQ(r.failed, 0u);
  EXPECT_EQ(r.user, 40 * sim::from_ns(50));
}

}  // namespace
}  // namespace walksim::workload
