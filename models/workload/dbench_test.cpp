// dbench end to end: clients replay one pass of the loadfile with the bytes counted and no failure
// but the designed ones (stats of names that do not exist, opens of missing files), the rcu-walk
// drops for missing dentries on 2.6.38, the ACL drops for a non-owner, and fewer atomics per
// operation than 2.6.35.
#include "models/workload/dbench.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "models/workload/test_support.hpp"

namespace walksim::workload {
namespace {

using testing::RunArgs;

// The loadfile client `client` of a built dbench workload replays.
const std::vector<dbench::LoadOp>* loadfile_of(const Workload& w, std::size_t client) {
  return dynamic_cast<const dbench::Dbench&>(w).loadfile(client);
}

struct DbenchRun {
  std::unique_ptr<Workload> w;
  RunResult r;
};

// `passes` passes of a small loadfile on `clients` clients.
DbenchRun dbench(const std::string& kernel, std::uint32_t clients, const std::string& params = "",
                 kernel::KernelOptions opts = {}, double passes = 1) {
  DbenchRun d;
  d.w = testing::make(kDbenchKind, "loadfile_ops: 2000\n" + params);
  RunArgs a;
  a.kernel = kernel;
  a.threads = clients;
  a.options = opts;
  // One pass is about 2000 operations; the exact length is known only after build, so run by
  // operations of a first build (the loadfile depends only on the seed).
  {
    auto probe = testing::make(kDbenchKind, "loadfile_ops: 2000\n" + params);
    RunArgs once = a;
    once.threads = 1;
    once.control.ops_per_process = 1;
    testing::run(once, *probe);
    a.control.ops_per_process =
        static_cast<std::uint64_t>(static_cast<double>(loadfile_of(*probe, 0)->size()) * passes);
  }
  d.r = testing::run(a, *d.w);
  return d;
}

TEST(Dbench, ClientsReplayAPassCountingBytesAndFailOnlyWhereDesigned) {
  const auto d = dbench("linux-2.6.35", 4);
  const auto* lf = loadfile_of(*d.w, 0);
  ASSERT_NE(lf, nullptr);
  std::uint64_t designed = 0, calls = 0, bytes = 0;
  for (const auto& op : *lf) {
    std::vector<kernel::Syscall> c;
    designed += dbench::to_syscalls(op, "./clients/client1/", c);
    calls += c.size();
    bytes += op.bytes;
  }
  EXPECT_EQ(d.r.ops, 4 * lf->size());
  EXPECT_EQ(d.r.calls, 4 * calls);
  EXPECT_EQ(d.r.failed, 4 * designed);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(d.w->source(i).measured().bytes, bytes);
  EXPECT_TRUE(d.r.reports_bytes);
  EXPECT_GT(d.r.bytes_per_s, 0);
  EXPECT_EQ(d.r.walk.rcu_lookups, 0u);  // ref-walk only
}

TEST(Dbench, RcuWalkDropsForMissingDentriesButNeverForPermissionWithoutAcls) {
  const auto d = dbench("linux-2.6.38", 2);
  const auto& w = d.r.walk;
  EXPECT_GT(w.rcu_lookups, 0u);
  const double nodentry = static_cast<double>(w.nodentry) / static_cast<double>(w.rcu_lookups);
  EXPECT_GT(nodentry, 0.05);
  EXPECT_LT(nodentry, 0.5);
  EXPECT_EQ(w.permission, 0u);
  EXPECT_EQ(w.link, 0u);
}

TEST(Dbench, AclsOnTheTreeDropEveryNonOwnerLookupToRefWalk) {
  kernel::KernelOptions non_owner;
  non_owner.posix_acl = true;
  non_owner.caller_is_owner = false;
  const auto acl = dbench("linux-2.6.38", 1, "acl: true", non_owner, 0.5);
  const auto root = dbench("linux-2.6.38", 1, "acl: true", {}, 0.5);
  EXPECT_GT(acl.r.walk.permission, acl.r.walk.rcu_lookups / 2);
  EXPECT_EQ(root.r.walk.permission, 0u);
  EXPECT_GT(acl.r.atomic_rmw_per_op, root.r.atomic_rmw_per_op);
}

TEST(Dbench, RcuWalkTakesFewerAtomicsPerOperationThanRefWalk) {
  const auto old_k = dbench("linux-2.6.35", 1, "", {}, 0.5);
  const auto new_k = dbench("linux-2.6.38", 1, "", {}, 0.5);
  EXPECT_LT(new_k.r.atomic_rmw_per_op, old_k.r.atomic_rmw_per_op);
}

TEST(Dbench, RejectsBadParameters) {
  EXPECT_THROW(testing::make(kDbenchKind, "io_size: 0B"), config::ConfigError);
  EXPECT_THROW(testing::make(kDbenchKind, "loadfile_ops: 10"), config::ConfigError);
  EXPECT_THROW(testing::make(kDbenchKind, "loadfile_ops: 10000000"), config::ConfigError);  // 3 GB of loadfile
}

TEST(Dbench, DistinctLoadfilesForEveryClientAreCheckedAgainstTheThreadCountBeforeARun) {
  const auto w = testing::make(kDbenchKind, "loadfile_ops: 1000000\ndistinct_loadfiles: true\n");
  EXPECT_EQ(w->check_run(2, 2, 16), "");
  EXPECT_NE(w->check_run(16, 2, 16).find("keeps one loadfile per client: 16 x 1000000"), std::string::npos);
  EXPECT_EQ(testing::make(kDbenchKind, "loadfile_ops: 1000000\n")->check_run(16, 2, 16), "");
  EXPECT_THROW(testing::make(kDbenchKind, "statfs: maybe"), config::ConfigError);
  EXPECT_THROW(testing::make(kDbenchKind, "clients: 4"), config::ConfigError);
}

// dbench (no statfs) on the Altix under vfs-scale over seeds 1..`seeds`: the range (max - min over
// the mean) and mean of `metric` (operations or bytes per second).
struct SeedSpread {
  double range = 0, mean = 0;
};
SeedSpread over_seeds(double RunResult::*metric, const std::string& params, std::uint32_t clients, std::uint64_t seeds,
                      std::uint64_t ops, std::uint64_t warmup) {
  std::vector<double> rates;
  for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
    auto w = testing::make(kDbenchKind, "statfs: false\n" + params);
    RunArgs a;
    a.machine = "altix-32n64c";
    a.kernel = "vfs-scale-2010";
    a.threads = clients;
    a.seed = seed;
    a.control.ops_per_process = ops;
    a.control.warmup_ops = warmup;
    rates.push_back(testing::run(a, *w).*metric);
  }
  const auto [lo, hi] = std::minmax_element(rates.begin(), rates.end());
  SeedSpread s;
  for (double x : rates) s.mean += x / static_cast<double>(rates.size());
  s.range = (*hi - *lo) / s.mean;
  return s;
}

// 64 clients of the store-free tree on the Altix, measured over 400 operations each after 100:
// with one loadfile the clients stay in step and rename at the same moments (each rename writes
// the global rename_lock line every walk reads), and whether such moments fall in the window
// decides the rate; with a loadfile each, they are at unrelated points of the mix and five seeds
// agree within 10% (max - min over the mean), as the shipped dbench experiments need (their YAMLs).
TEST(Dbench, ClientsWithLoadfilesOfTheirOwnGiveTheSameRateOverFiveSeeds) {
  const double own = over_seeds(&RunResult::ops_per_s, "distinct_loadfiles: true\n", 64, 5, 500, 100).range;
  const double shared = over_seeds(&RunResult::ops_per_s, "", 64, 5, 500, 100).range;
  EXPECT_LT(own, 0.10);
  // Half as much again as the 10% the YAMLs need, or more (over 30% before every transaction
  // waited for its grant, 24% since, 2026-12-05; 17% with the directories client_plain.txt has,
  // 2026-12-07).
  EXPECT_GT(shared, 0.15) << "clients replaying one loadfile in step no longer spread: the YAMLs' reason is gone";
}

// One client's MB/s over ten seeds. A window of one whole pass holds the pass's mix exactly, so
// the seeds differ only in names and order; a window of 1,200 operations out of a 20,000-operation
// pass holds whichever stretch of the mix it catches (the shipped dbench experiments measure one
// whole pass for this reason: over ten seeds sd 0.3% against 4.0%, 2026-12-07).
TEST(Dbench, OneClientMeasuringOneWholePassGivesTheSameRateForEverySeed) {
  const auto whole = over_seeds(&RunResult::bytes_per_s, "user_time: 4.7us\nloadfile_ops: 1200\n", 1, 10, 2200, 1000);
  const auto stretch =
      over_seeds(&RunResult::bytes_per_s, "user_time: 4.7us\nloadfile_ops: 20000\n", 1, 10, 2200, 1000);
  EXPECT_LT(whole.range, 0.02);
  EXPECT_GT(stretch.range, 2 * whole.range);
  EXPECT_NEAR(whole.mean, stretch.mean, 0.04 * stretch.mean);  // the same mix, measured two ways
}

}  // namespace
}  // namespace walksim::workload
