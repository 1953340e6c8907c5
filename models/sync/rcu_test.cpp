// RCU: the read side issues nothing; call_rcu costs its private time and counts a deferred free.
#include "models/sync/rcu.hpp"

#include <gtest/gtest.h>

#include "models/sync/sync_test_rig.hpp"

namespace walksim::sync {
namespace {

using sim::from_ns;
using testing::Rig;
using testing::Script;
using testing::Step;

TEST(Rcu, ReadLockAndUnlockIssueNoOperationAtAll) {
  Rcu rcu(from_ns(30));
  SyncCall call;
  exec::Op op;
  EXPECT_FALSE(rcu.step(SyncAction::kReadAcquire, 0, call, 0, op));
  EXPECT_FALSE(rcu.step(SyncAction::kReadRelease, 0, call, 0, op));
  EXPECT_EQ(rcu.stats().loads + rcu.stats().stores + rcu.stats().rmws, 0u);
}

TEST(Rcu, CallRcuCostsItsPrivateTimeTouchesNoSharedLineAndCountsADeferredFree) {
  Rig r(testing::small_machine());
  Rcu rcu(from_ns(30));
  Script p(2, {Step::act(rcu, SyncAction::kReadAcquire), Step::act(rcu, SyncAction::kReadRelease),
               Step::act(rcu, SyncAction::kCallRcu), Step::act(rcu, SyncAction::kCallRcu)});
  r.ex.start(2, p);
  r.ex.run();
  EXPECT_EQ(rcu.stats().deferred_frees, 2u);
  EXPECT_EQ(r.ex.stats(2).finished, from_ns(60));
  EXPECT_EQ(r.ex.stats(2).misses, 0u);
  EXPECT_EQ(r.mem.line_count(), 0u);
}

}  // namespace
}  // namespace walksim::sync
