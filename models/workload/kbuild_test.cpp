// kbuild: each compilation unit fails only where designed (two PATH misses and the header misses),
// and on 2.6.38 its lookups drop out of rcu-walk at the designed rates: 6 of 248 for a missing
// dentry (2.4%, [PL] 2.3%) and 10 of 248 for a symlink (4.0%, [PL] 4.0%).
#include <gtest/gtest.h>

#include "models/workload/test_support.hpp"

namespace walksim::workload {
namespace {

using testing::RunArgs;

RunResult kbuild(const std::string& kernel, std::uint32_t jobs, std::uint64_t units, const std::string& params = "") {
  auto w = testing::make(kKbuildKind, params);
  RunArgs a;
  a.machine = "nehalem-ep-2s8c";
  a.kernel = kernel;
  a.threads = jobs;
  a.control.ops_per_process = units;
  return testing::run(a, *w);
}

TEST(Kbuild, AUnitFailsOnlyInThePathSearchAndTheHeaderMisses) {
  const auto r = kbuild("linux-2.6.35", 2, 3);
  EXPECT_EQ(r.ops, 6u);
  EXPECT_EQ(r.failed, 6u * (2 + 4));
  EXPECT_EQ(r.op_unit, "compilation unit");
}

TEST(Kbuild, RcuWalkDropsAtTheDesignedRatesForMissesAndSymlinks) {
  const auto r = kbuild("linux-2.6.38", 2, 4);
  const double lookups = static_cast<double>(r.walk.rcu_lookups);
  EXPECT_EQ(r.walk.rcu_lookups, 8u * 248);
  EXPECT_NEAR(static_cast<double>(r.walk.nodentry) / lookups, 6.0 / 248, 1e-9);
  EXPECT_NEAR(static_cast<double>(r.walk.link) / lookups, 10.0 / 248, 1e-9);
  EXPECT_EQ(r.walk.permission, 0u);
}

TEST(Kbuild, TheMixFollowsItsParameters) {
  const auto r = kbuild("linux-2.6.38", 1, 2, "prereq_stats: 10\nheaders: 20\nheader_misses: 0\nunits_per_dir: 2\n");
  EXPECT_EQ(r.walk.rcu_lookups, 2u * (24 + 10 + 20));
  EXPECT_EQ(r.failed, 2u * 2);
  EXPECT_THROW(testing::make(kKbuildKind, "headers: 3\nheader_misses: 4\n"), config::ConfigError);
  EXPECT_THROW(testing::make(kKbuildKind, "headers: 100000\n"), config::ConfigError);
}

}  // namespace
}  // namespace walksim::workload
