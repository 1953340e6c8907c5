// SSYNC's test-and-test-and-set lock: a read then one cmpxchg uncontended, waiting by reading, the
// bounded exponential back-off after a lost cmpxchg, and mutual exclusion under contention.
#include "models/sync/ttas_lock.hpp"

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

TEST(TtasLock, AnUncontendedAcquireIsOneReadAndOneCmpxchgAndTheReleaseOnePlainStore) {
  Rig r(testing::small_machine());
  TtasLock lock(r.mem.add_line(0), r.m.cpus(), r.m.cycle());
  Script p(0, {Step::act(lock, SyncAction::kAcquire), Step::act(lock, SyncAction::kRelease)});
  r.ex.start(0, p);
  r.ex.run();
  EXPECT_EQ(lock.stats().loads, 1u);
  EXPECT_EQ(lock.stats().rmws, 1u);
  EXPECT_EQ(lock.stats().stores, 1u);
  EXPECT_EQ(lock.stats().contended, 0u);
}

TEST(TtasLock, AWaiterReadsUntilFreeAndALostCmpxchgBacksOffWithinTheLimitThenReadsAgain) {
  const Picos cycle = 1000;
  TtasLock lock(SyncWord{7}, 4, cycle);
  SyncCall call;
  Op op;
  ASSERT_TRUE(lock.step(SyncAction::kAcquire, 2, call, 0, op));
  EXPECT_EQ(op.kind, exec::OpKind::kLoad);
  ASSERT_TRUE(lock.step(SyncAction::kAcquire, 2, call, 1, op));  // held: wait reading
  EXPECT_EQ(op.kind, exec::OpKind::kSpinUntil);
  EXPECT_EQ(op.expect, 0u);
  ASSERT_TRUE(lock.step(SyncAction::kAcquire, 2, call, 0, op));  // it looks free: try
  EXPECT_EQ(op.kind, exec::OpKind::kCas);
  // Lose the race many times: every back-off is below the doubling limit, never above 1000 cycles.
  std::uint32_t limit = 1;
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(lock.step(SyncAction::kAcquire, 2, call, 1, op));  // the cmpxchg saw 1
    if (op.kind == exec::OpKind::kCompute) {
      EXPECT_LT(op.ps, static_cast<Picos>(limit) * cycle);
      ASSERT_TRUE(lock.step(SyncAction::kAcquire, 2, call, 0, op));
    }
    limit = std::min(2 * limit, TtasLock::kMaxDelayCycles);
    EXPECT_EQ(op.kind, exec::OpKind::kLoad);
    ASSERT_TRUE(lock.step(SyncAction::kAcquire, 2, call, 0, op));  // free again
    EXPECT_EQ(op.kind, exec::OpKind::kCas);
  }
  EXPECT_FALSE(lock.step(SyncAction::kAcquire, 2, call, 0, op));  // won
  EXPECT_EQ(call.result, 1u);
  EXPECT_EQ(lock.stats().retries, 20u);
}

TEST(TtasLock, ContendingCpusNeverOverlapInTheCriticalSectionAndAllFinish) {
  Rig r(testing::small_machine());
  TtasLock lock(r.mem.add_line(0), r.m.cpus(), r.m.cycle());
  EXPECT_EQ(testing::count_under_lock(r, lock, 30, from_ns(40)), 30u * r.m.cpus());
  EXPECT_EQ(lock.stats().acquisitions, 30u * r.m.cpus());
  EXPECT_GT(lock.stats().contended, 0u);
  r.mem.check_all();
}

}  // namespace
}  // namespace walksim::sync
