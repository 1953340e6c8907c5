// SSYNC's test-and-set lock: one xchg uncontended, a waiter that keeps issuing xchg (with a pause)
// rather than reading, and mutual exclusion with every waiter finishing under contention.
#include "models/sync/tas_xchg_lock.hpp"

#include <gtest/gtest.h>

#include "models/sync/lock_loop.hpp"
#include "models/sync/sync_test_rig.hpp"

namespace walksim::sync {
namespace {

using exec::Op;
using sim::from_ns;
using testing::Rig;
using testing::Script;
using testing::Step;

TEST(TasXchgLock, AnUncontendedAcquireIsOneXchgAndTheReleaseOnePlainStore) {
  Rig r(testing::small_machine());
  TasXchgLock lock(r.mem.add_line(0), from_ns(5));
  Script p(0, {Step::act(lock, SyncAction::kAcquire), Step::act(lock, SyncAction::kRelease)});
  r.ex.start(0, p);
  r.ex.run();
  EXPECT_EQ(lock.stats().rmws, 1u);
  EXPECT_EQ(lock.stats().loads, 0u);
  EXPECT_EQ(lock.stats().stores, 1u);
  EXPECT_EQ(lock.stats().contended, 0u);
}

TEST(TasXchgLock, AWaiterPausesAndIssuesAnotherXchgInsteadOfReadingTheLine) {
  TasXchgLock lock(SyncWord{7}, from_ns(5));
  SyncCall call;
  Op op;
  ASSERT_TRUE(lock.step(SyncAction::kAcquire, 1, call, 0, op));
  EXPECT_EQ(op.kind, exec::OpKind::kRmwXchg);
  ASSERT_TRUE(lock.step(SyncAction::kAcquire, 1, call, 1, op));  // the xchg saw 1: held
  EXPECT_EQ(op.kind, exec::OpKind::kCompute);
  EXPECT_EQ(op.ps, from_ns(5));
  ASSERT_TRUE(lock.step(SyncAction::kAcquire, 1, call, 0, op));
  EXPECT_EQ(op.kind, exec::OpKind::kRmwXchg);
  EXPECT_FALSE(lock.step(SyncAction::kAcquire, 1, call, 0, op));  // this one saw 0: ours
  EXPECT_EQ(call.result, 1u);
  EXPECT_EQ(lock.stats().retries, 1u);
}

TEST(TasXchgLock, ContendingCpusNeverOverlapAndEveryFailedAttemptIsALockedRmw) {
  Rig r(testing::small_machine());
  TasXchgLock lock(r.mem.add_line(0), from_ns(4));
  // A waiter left parked would be an error: every loop finished.
  EXPECT_EQ(testing::count_under_lock(r, lock, 30, from_ns(40)), 30u * r.m.cpus());
  EXPECT_EQ(lock.stats().acquisitions, 30u * r.m.cpus());
  EXPECT_GT(lock.stats().retries, 0u);
  EXPECT_EQ(lock.stats().rmws, lock.stats().acquisitions + lock.stats().retries);
  EXPECT_EQ(lock.stats().loads, 0u);
  r.mem.check_all();
}

}  // namespace
}  // namespace walksim::sync
