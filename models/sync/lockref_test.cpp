// lockref: get and put are a load and one cmpxchg while the lock is free; when the lock is held
// they fall back to it; put of the last reference returns holding the lock; concurrent updates
// retry their cmpxchg and lose nothing.
#include "models/sync/lockref.hpp"

#include <gtest/gtest.h>

#include "models/sync/sync_test_rig.hpp"

namespace walksim::sync {
namespace {

using exec::Op;
using sim::from_ns;
using testing::Rig;
using testing::Script;
using testing::Step;

TEST(Lockref, AGetWithTheLockFreeIsALoadAndOneCmpxchgAndNoLock) {
  Rig r(testing::small_machine());
  Lockref ref(r.mem.add_line(0));
  std::uint64_t count = 0;
  Script p(0, {Step::act(ref, SyncAction::kLockrefGet, [&](std::uint64_t c) { count = c; })});
  r.ex.start(0, p);
  r.ex.run();
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(ref.stats().rmws, 1u);
  EXPECT_EQ(ref.stats().loads, 1u);
  EXPECT_EQ(ref.stats().fallbacks, 0u);
  EXPECT_EQ(ref.lock().stats().acquisitions, 0u);
  EXPECT_EQ(r.ex.word(0) & Lockref::kCountMask, 1u);
}

TEST(Lockref, AGetFallsBackToTheSpinlockWhileTheLockIsHeld) {
  Rig r(testing::small_machine());
  Lockref ref(r.mem.add_line(0));
  Script holder(0, {Step::act(ref, SyncAction::kAcquire), Step::raw(Op::compute(from_ns(10000))),
                    Step::act(ref, SyncAction::kRelease)});
  std::uint64_t count = 0;
  Script getter(5, {Step::raw(Op::compute(from_ns(1000))),
                    Step::act(ref, SyncAction::kLockrefGet, [&](std::uint64_t c) { count = c; })});
  r.ex.start(0, holder);
  r.ex.start(5, getter);
  r.ex.run();
  EXPECT_EQ(ref.stats().fallbacks, 1u);
  EXPECT_EQ(count, 1u);
  EXPECT_GT(r.ex.stats(5).finished, from_ns(10000));  // it waited for the holder
  EXPECT_EQ(ref.lock().stats().acquisitions, 2u);     // the holder's and the fallback's
  const std::uint64_t w = r.ex.word(0);
  EXPECT_EQ(w & Lockref::kCountMask, 1u);
  EXPECT_TRUE(ref.lock().is_unlocked(w));
}

TEST(Lockref, PuttingTheLastReferenceReturnsHoldingTheLockWithTheCountUntouched) {
  Rig r(testing::small_machine());
  Lockref ref(r.mem.add_line(0));
  std::uint64_t put_two = 9, put_one = 9;
  Script p(0, {Step::act(ref, SyncAction::kLockrefGet), Step::act(ref, SyncAction::kLockrefGet),
               Step::act(ref, SyncAction::kLockrefPut, [&](std::uint64_t x) { put_two = x; }),
               Step::act(ref, SyncAction::kLockrefPut, [&](std::uint64_t x) { put_one = x; })});
  r.ex.start(0, p);
  r.ex.run();
  EXPECT_EQ(put_two, 1u);  // 2 -> 1 by cmpxchg
  EXPECT_EQ(put_one, 0u);  // count 1: lock taken, count left for the caller
  const std::uint64_t w = r.ex.word(0);
  EXPECT_EQ(w & Lockref::kCountMask, 1u);
  EXPECT_FALSE(ref.lock().is_unlocked(w));
  EXPECT_EQ(ref.stats().rmws, 3u + 1u);  // three cmpxchg, one xadd
}

// fast_dput (6.x dput): even the last reference is dropped by cmpxchg while the lock is free; the
// lock is taken only when another CPU holds it.
TEST(Lockref, PutReturnDropsTheLastReferenceByCmpxchgAndTakesTheLockOnlyWhenHeld) {
  Rig r(testing::small_machine());
  Lockref ref(r.mem.add_line(0));
  std::uint64_t after = 9;
  Script p(0, {Step::act(ref, SyncAction::kLockrefGet),
               Step::act(ref, SyncAction::kLockrefPutReturn, [&](std::uint64_t x) { after = x; })});
  r.ex.start(0, p);
  r.ex.run();
  EXPECT_EQ(after, 0u);
  EXPECT_EQ(ref.stats().fallbacks, 0u);
  EXPECT_EQ(ref.lock().stats().acquisitions, 0u);
  EXPECT_TRUE(ref.lock().is_unlocked(r.ex.word(0)));

  Rig r2(testing::small_machine());
  Lockref ref2(r2.mem.add_line(0));
  Script holder(0, {Step::act(ref2, SyncAction::kLockrefGet), Step::act(ref2, SyncAction::kAcquire),
                    Step::raw(Op::compute(from_ns(10000))), Step::act(ref2, SyncAction::kRelease)});
  Script putter(5, {Step::raw(Op::compute(from_ns(1000))),
                    Step::act(ref2, SyncAction::kLockrefPutReturn, [&](std::uint64_t x) { after = x; })});
  r2.ex.start(0, holder);
  r2.ex.start(5, putter);
  r2.ex.run();
  EXPECT_EQ(after, 0u);
  EXPECT_EQ(ref2.stats().fallbacks, 1u);
  EXPECT_GT(r2.ex.stats(5).finished, from_ns(10000));
  EXPECT_TRUE(ref2.lock().is_unlocked(r2.ex.word(0)));
  EXPECT_EQ(r2.ex.word(0) & Lockref::kCountMask, 0u);
}

TEST(Lockref, ConcurrentGetsRetryTheirCmpxchgAndLoseNoReference) {
  Rig r(testing::small_machine());
  Lockref ref(r.mem.add_line(0));
  std::vector<std::unique_ptr<Script>> progs;
  for (CpuId c = 0; c < r.m.cpus(); ++c) {
    progs.push_back(std::make_unique<Script>(c, std::vector<Step>(20, Step::act(ref, SyncAction::kLockrefGet))));
    r.ex.start(c, *progs.back());
  }
  r.ex.run();
  EXPECT_EQ(r.ex.word(0) & Lockref::kCountMask, 20u * r.m.cpus());
  EXPECT_GT(ref.stats().retries, 0u);
  EXPECT_EQ(ref.stats().fallbacks, 0u);
}

}  // namespace
}  // namespace walksim::sync
