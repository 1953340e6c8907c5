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

RunResult run_with_seed(const WorkloadKind& kind, std::uint64_t seed) {
  const auto it = kParams.find(std::string(kind.name));
  auto w = testing::make(kind, it == kParams.end() ? "" : it->second);
  testing::RunArgs a;
  a.kernel = "linux-2.6.35";
  a.threads = kind.name == "trace-replay" ? 3 : 4;
  a.seed = seed;
  a.control.ops_per_process = kind.name == "kbuild" ? 20 : 120;  // a compilation unit is thousands of calls
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

TEST(WorkloadContract, EveryWorkloadThatClaimsNeverToSleepNeverSleeps) {
  for (const auto& kind : workload_kinds()) {
    if (kind.may_sleep) continue;
    EXPECT_EQ(run_with_seed(kind, 1).sleep, 0) << kind.name;
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
    auto run = [&](std::uint64_t seed) {
      auto w = testing::make(*v.kind, v.params);
      testing::RunArgs a;
      a.threads = 4;
      a.seed = seed;
      a.control.ops_per_process = 120;
      return testing::run(a, *w);
    };
    auto made = testing::make(*v.kind, v.params);
    if (is_seeded(*v.kind, *made)) {
      const auto a = run(1), b = run(987654321);
      EXPECT_TRUE(a.mem_ops != b.mem_ops || a.ops_per_s != b.ops_per_s);
    } else {
      EXPECT_EQ(run(1).ops_per_s, run(987654321).ops_per_s);
    }
    if (can_sleep(*v.kind, *made)) {
      EXPECT_GT(run(1).sleep, 0);
    } else {
      EXPECT_EQ(run(1).sleep, 0);
    }
  }
}

// Every kind builds and runs its operations; a call that ended holding a lock would have thrown
// (KOpRunner checks at the end of every system call), so each run also ends holding none.
TEST(WorkloadContract, EveryWorkloadBuildsRunsItsOperationsAndReleasesEveryLock) {
  for (const auto& kind : workload_kinds()) {
    RunResult r;
    ASSERT_NO_THROW(r = run_with_seed(kind, 1)) << kind.name;
    EXPECT_GT(r.ops, 0u) << kind.name;
    EXPECT_GE(r.mem_ops, r.ops) << kind.name;  // atomic-stress: one access per operation
  }
}

// One parameter table per workload: what it resolves is what it documents, key for key in order,
// and the resolved values, written back as YAML, read as the same values.
TEST(WorkloadContract, EveryWorkloadsResolvedParametersAreItsDocumentedOnesAndReadBackTheSame) {
  for (const auto& kind : workload_kinds()) {
    SCOPED_TRACE(std::string(kind.name));
    const auto it = kParams.find(std::string(kind.name));
    const auto made = testing::make(kind, it == kParams.end() ? "" : it->second);
    const ResolvedParams resolved = made->params();
    const std::vector<ParamDoc> docs = kind.describe();
    ASSERT_EQ(resolved.size(), docs.size());
    std::string yaml;
    for (std::size_t i = 0; i < docs.size(); ++i) {
      EXPECT_EQ(resolved[i].key, docs[i].key);
      EXPECT_FALSE(docs[i].doc.empty());
      if (!std::holds_alternative<std::monostate>(resolved[i].value)) {
        yaml += std::string(resolved[i].key) + ": \"" + param_text(resolved[i].value) + "\"\n";
      }
    }
    const auto again = testing::make(kind, yaml);
    const ResolvedParams round = again->params();
    ASSERT_EQ(round.size(), resolved.size());
    for (std::size_t i = 0; i < round.size(); ++i) {
      EXPECT_EQ(round[i].value, resolved[i].value) << resolved[i].key << " from " << yaml;
    }
  }
}

TEST(WorkloadContract, AnUnknownParameterIsAnErrorNamingTheNearestKnownOne) {
  try {
    testing::make(kStatLoopKind, "path_component: 2\n");
    FAIL() << "a misspelt key was accepted";
  } catch (const config::ConfigError& e) {
    EXPECT_NE(e.message().find("path_components"), std::string::npos) << e.what();
  }
  try {
    testing::make(kTraceReplayKind, "loops: 2\n");
    FAIL() << "trace-replay ran without its required file";
  } catch (const config::ConfigError& e) {
    EXPECT_NE(e.message().find("needs the parameter 'file'"), std::string::npos) << e.what();
  }
}

// A task waiting for a contended i_mutex sleeps where its variant's mutex sleeps (2.6.20) and spins
// on the running owner where it spins (2.6.30+); asleep it burns no CPU: every process's wall time
// is its CPU time plus its sleep, with every kernel variant and both ways of waking an idle CPU.
TEST(WorkloadContract, ATaskWaitingForAMutexSleepsOrSpinsAsItsVariantDoesAndSleepIsNeverCpuTime) {
  for (const std::string kernel : {"linux-2.6.20", "linux-2.6.35", "linux-2.6.38", "linux-6.x"}) {
    for (const std::string machine : {"barcelona-2s8c", "nehalem-ep-2s8c"}) {
      SCOPED_TRACE(kernel + " on " + machine);
      auto w = testing::make(kCreatUnlinkKind, "");
      testing::RunArgs a;
      a.machine = machine;
      a.kernel = kernel;
      a.threads = 8;
      a.control.ops_per_process = 200;
      const auto r = testing::run(a, *w);  // a lost wake-up would throw: a thread parked for good
      if (kernel == "linux-2.6.20") {
        EXPECT_GT(r.sleep, 0);
      } else {
        EXPECT_EQ(r.sleep, 0);  // every owner runs (one process per CPU): waiters spin on it
        EXPECT_GT(r.spin, 0);
      }
      EXPECT_EQ(r.failed, 0u);
      for (const auto& p : r.processes) EXPECT_EQ(p.cpu_time + p.sleep, p.wall) << "cpu " << p.cpu;
      EXPECT_LT(r.cpu, r.wall * 8);
    }
  }
}

}  // namespace
}  // namespace walksim::workload
