// The pre-2.6.25 test-and-set spinlock: mutual exclusion, one RMW uncontended, and the
// unfairness that keeps it from the ticket lock's collapse.
#include "models/sync/tas_spinlock.hpp"

#include <gtest/gtest.h>

#include "models/sync/sync_test_rig.hpp"

namespace walksim::sync {
namespace {

TEST(TasSpinlock, AnUncontendedAcquireIsOneRmwAndReleaseOneStore) {
  TasSpinlock lock(SyncWord{7});
  SyncCall call;
  Op op;
  ASSERT_TRUE(lock.step(SyncAction::kAcquire, 0, call, 0, op));
  EXPECT_EQ(op.kind, exec::OpKind::kRmwAdd);
  EXPECT_FALSE(lock.step(SyncAction::kAcquire, 0, call, 0, op));  // the xadd saw 0: free
  ASSERT_TRUE(lock.step(SyncAction::kRelease, 0, call, 0, op));
  EXPECT_EQ(op.kind, exec::OpKind::kStore);
  EXPECT_EQ(op.value, 0u);
  EXPECT_FALSE(lock.step(SyncAction::kRelease, 0, call, 0, op));
}

TEST(TasSpinlock, ALosingAttemptSpinsUntilTheLockLooksFreeThenTriesAgain) {
  TasSpinlock lock(SyncWord{7});
  SyncCall call;
  Op op;
  lock.step(SyncAction::kAcquire, 1, call, 0, op);
  ASSERT_TRUE(lock.step(SyncAction::kAcquire, 1, call, 1, op));  // the xadd saw 1: taken
  EXPECT_EQ(op.kind, exec::OpKind::kSpinUntil);
  EXPECT_EQ(op.expect, 0u);
  ASSERT_TRUE(lock.step(SyncAction::kAcquire, 1, call, 0, op));  // it looked free: try again
  EXPECT_EQ(op.kind, exec::OpKind::kRmwAdd);
  EXPECT_FALSE(lock.step(SyncAction::kAcquire, 1, call, 0, op));
  EXPECT_EQ(call.result, 1u);  // it had to wait
}

}  // namespace
}  // namespace walksim::sync
