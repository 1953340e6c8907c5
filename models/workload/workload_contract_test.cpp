// One contract for every registered workload: its `seeded` claim is true. A workload that says its
// results cannot depend on the seed gives identical results for two seeds (so one run per point is
// exact and repeats are skipped); one that says they can gives different results.
#include <gtest/gtest.h>

#include <map>

#include "models/workload/test_support.hpp"

namespace walksim::workload {
namespace {

// Small but valid parameters per workload (they differ from the defaults only to keep tests fast).
const std::map<std::string, std::string> kParams{
    {"git-diff", "files: 3000\ndirs: 200\n"},
    {"openbench", "loops: 200\n"},
    {"kbuild", "units_per_dir: 2\nprereq_stats: 10\nheaders: 10\nheader_misses: 1\n"},
    {"dbench", "loadfile_ops: 2000\n"},
    {"trace-replay", "file: " + std::string(WALKSIM_SOURCE_DIR) + "/models/workload/testdata/small.trace\n"},
};

RunResult run_with_seed(const WorkloadKind& kind, std::uint64_t seed, Picos wakeup = 5'000'000) {
  const auto it = kParams.find(std::string(kind.name));
  auto w = testing::make(kind, it == kParams.end() ? "" : it->second);
  testing::RunArgs a;
  a.kernel = "linux-2.6.35";
  a.threads = kind.name == "trace-replay" ? 3 : 4;
  a.seed = seed;
  a.control.ops_per_process = kind.name == "kbuild" ? 20 : 120;  // a compilation unit is thousands of calls
  a.mutex_wakeup = wakeup;
  return testing::run(a, *w);
}

TEST(WorkloadContract, EveryWorkloadThatClaimsNotToUseTheSeedGivesTheSameResultForAnotherSeed) {
  for (const auto& kind : workload_kinds()) {
    if (kind.seeded) continue;
    const auto a = run_with_seed(kind, 1), b = run_with_seed(kind, 987654321);
    EXPECT_EQ(a.ops, b.ops) << kind.name;
    EXPECT_EQ(a.mem_ops, b.mem_ops) << kind.name;
    EXPECT_EQ(a.ops_per_s, b.ops_per_s) << kind.name;
    EXPECT_EQ(a.ns_per_op, b.ns_per_op) << kind.name;
  }
}

TEST(WorkloadContract, EveryWorkloadThatClaimsToUseTheSeedGivesADifferentRunForAnotherSeed) {
  int seeded = 0;
  for (const auto& kind : workload_kinds()) {
    if (!kind.seeded) continue;
    ++seeded;
    const auto a = run_with_seed(kind, 1), b = run_with_seed(kind, 987654321);
    EXPECT_TRUE(a.mem_ops != b.mem_ops || a.ops_per_s != b.ops_per_s) << kind.name;
  }
  EXPECT_GE(seeded, 2);  // dbench and kbuild draw random names and op mixes
}

TEST(WorkloadContract, EveryWorkloadThatClaimsNeverToSleepRunsWithoutAWakeUpLatency) {
  for (const auto& kind : workload_kinds()) {
    if (kind.may_sleep) continue;
    EXPECT_NO_THROW(run_with_seed(kind, 1, -1)) << kind.name;
  }
}

// Parameters that change a claim (lock-loop: several locks draw random numbers, a mutex sleeps):
// the made workload says so, and the claim holds for it as for a kind.
TEST(WorkloadContract, AWorkloadWhoseParametersChangeItsClaimsKeepsTheClaimsItMakes) {
  struct Variant {
    const WorkloadKind* kind;
    std::string params;
  };
  const std::vector<Variant> variants{{&kLockLoopKind, "locks: 8\nthink_time: 0ns\n"},
                                      {&kLockLoopKind, "lock: mutex\nthink_time: 0ns\nhold_time: 500ns\n"}};
  for (const auto& v : variants) {
    SCOPED_TRACE(v.params);
    auto run = [&](std::uint64_t seed, Picos wakeup) {
      auto w = testing::make(*v.kind, v.params);
      testing::RunArgs a;
      a.threads = 4;
      a.seed = seed;
      a.control.ops_per_process = 120;
      a.mutex_wakeup = wakeup;
      return testing::run(a, *w);
    };
    auto made = testing::make(*v.kind, v.params);
    if (is_seeded(*v.kind, *made)) {
      const auto a = run(1, 5'000'000), b = run(987654321, 5'000'000);
      EXPECT_TRUE(a.mem_ops != b.mem_ops || a.ops_per_s != b.ops_per_s);
    } else {
      EXPECT_EQ(run(1, 5'000'000).ops_per_s, run(987654321, 5'000'000).ops_per_s);
    }
    if (can_sleep(*v.kind, *made)) {
      EXPECT_THROW(run(1, -1), exec::NoWakeupLatency);
    } else {
      EXPECT_NO_THROW(run(1, -1));
    }
  }
}

TEST(WorkloadContract, AWorkloadThatSleepsWithoutAWakeUpLatencyStopsWithAClearError) {
  auto w = testing::make(kCreatUnlinkKind, "");
  testing::RunArgs a;
  a.kernel = "linux-2.6.35";
  a.threads = 8;
  a.control.ops_per_process = 200;
  a.mutex_wakeup = -1;
  EXPECT_THROW(testing::run(a, *w), exec::NoWakeupLatency);
}

}  // namespace
}  // namespace walksim::workload
