// atomic_t operations: one RMW each for inc/dec/dec_and_test, a load and a cmpxchg loop for
// add_unless, and the two paths of atomic_dec_and_lock with their RMW counts from pathwalk.md §1.
#include "models/sync/atomic_counter.hpp"

#include <gtest/gtest.h>

#include "models/sync/sync_test_rig.hpp"
#include "models/sync/ticket_spinlock.hpp"

namespace walksim::sync {
namespace {

using exec::Op;
using sim::from_ns;
using testing::Rig;
using testing::Script;
using testing::Step;

constexpr std::uint64_t kMinusOne = ~std::uint64_t{0};

// Runs `steps` alone on CPU 0, starting where the last run ended.
void run_alone(Rig& r, std::vector<Step> steps, CpuId cpu = 0) {
  Script s(cpu, std::move(steps));
  Picos at = 0;
  for (CpuId c = 0; c < r.m.cpus(); ++c) at = std::max(at, r.ex.stats(c).finished);
  r.ex.start(cpu, s, at);
  r.ex.run();
}

TEST(AtomicCounter, IncDecAndDecAndTestAreOneRmwEachAndDecAndTestSeesZero) {
  Rig r(testing::small_machine());
  AtomicCounter cnt(r.mem.add_line(0));
  std::vector<std::uint64_t> tests;
  auto record = [&](std::uint64_t x) { tests.push_back(x); };
  run_alone(r, {Step::act(cnt, SyncAction::kInc), Step::act(cnt, SyncAction::kInc),
                Step::act(cnt, SyncAction::kDecAndTest, record), Step::act(cnt, SyncAction::kDecAndTest, record),
                Step::act(cnt, SyncAction::kInc), Step::act(cnt, SyncAction::kDec)});
  EXPECT_EQ(cnt.stats().rmws, 6u);
  EXPECT_EQ(cnt.stats().loads + cnt.stats().stores, 0u);
  EXPECT_EQ(tests, (std::vector<std::uint64_t>{0, 1}));
  EXPECT_EQ(r.ex.word(0), 0u);
}

TEST(AtomicCounter, AddUnlessIsALoadAndOneCmpxchgAndLeavesTheForbiddenValueAlone) {
  Rig r(testing::small_machine());
  AtomicCounter cnt(r.mem.add_line(0));
  std::uint64_t added = 9, refused = 9;
  run_alone(r, {Step::act(cnt, SyncAction::kInc), Step::act(cnt, SyncAction::kInc)});
  const auto before = cnt.stats();
  run_alone(r, {Step::act(
                   cnt, SyncAction::kAddUnless, [&](std::uint64_t x) { added = x; }, kMinusOne, 1)});
  EXPECT_EQ(added, 1u);
  EXPECT_EQ(cnt.stats().rmws - before.rmws, 1u);
  EXPECT_EQ(cnt.stats().loads - before.loads, 1u);
  run_alone(r, {Step::act(
                   cnt, SyncAction::kAddUnless, [&](std::uint64_t x) { refused = x; }, kMinusOne, 1)});
  EXPECT_EQ(refused, 0u);
  EXPECT_EQ(r.ex.word(0), 1u);
  EXPECT_EQ(cnt.stats().rmws - before.rmws, 1u);  // the refusal issued no cmpxchg
}

TEST(AtomicCounter, ConcurrentAddUnlessRetriesItsCmpxchgAndLosesNoUpdate) {
  Rig r(testing::small_machine());
  AtomicCounter cnt(r.mem.add_line(0));
  std::vector<std::unique_ptr<Script>> progs;
  for (CpuId c = 0; c < r.m.cpus(); ++c) {
    std::vector<Step> steps;
    for (int i = 0; i < 20; ++i) steps.push_back(Step::act(cnt, SyncAction::kAddUnless, {}, 1, 1000000));
    progs.push_back(std::make_unique<Script>(c, std::move(steps)));
    r.ex.start(c, *progs.back());
  }
  r.ex.run();
  EXPECT_EQ(r.ex.word(0), 20u * r.m.cpus());
  EXPECT_GT(cnt.stats().retries, 0u);
  EXPECT_EQ(cnt.stats().rmws, 20u * r.m.cpus() + cnt.stats().retries);
}

TEST(AtomicCounter, DecAndLockAboveOneIsOneCmpxchgAndTakesNoLock) {
  Rig r(testing::small_machine());
  TicketSpinlock lock(r.mem.add_line(0));
  AtomicCounter cnt(r.mem.add_line(0), &lock);
  run_alone(r, {Step::act(cnt, SyncAction::kInc), Step::act(cnt, SyncAction::kInc)});
  const auto before = cnt.stats();
  std::uint64_t zero = 9;
  run_alone(r, {Step::act(cnt, SyncAction::kDecAndLock, [&](std::uint64_t x) { zero = x; })});
  EXPECT_EQ(zero, 0u);
  EXPECT_EQ(cnt.stats().rmws - before.rmws, 1u);
  EXPECT_EQ(lock.stats().acquisitions, 0u);
  EXPECT_EQ(r.ex.word(1), 1u);
}

TEST(AtomicCounter, DecAndLockOfTheLastReferenceTakesTheLockAndReturnsHoldingIt) {
  Rig r(testing::small_machine());
  TicketSpinlock lock(r.mem.add_line(0));
  AtomicCounter cnt(r.mem.add_line(0), &lock);
  run_alone(r, {Step::act(cnt, SyncAction::kInc)});
  const auto before = cnt.stats();
  std::uint64_t zero = 9;
  run_alone(r, {Step::act(cnt, SyncAction::kDecAndLock, [&](std::uint64_t x) { zero = x; })});
  EXPECT_EQ(zero, 1u);
  EXPECT_EQ(cnt.stats().rmws - before.rmws, 2u);  // spin_lock xadd + dec_and_test
  EXPECT_EQ(lock.stats().acquisitions, 1u);
  EXPECT_FALSE(lock.is_unlocked(r.ex.word(0)));
  EXPECT_EQ(r.ex.word(1), 0u);
  run_alone(r, {Step::act(lock, SyncAction::kRelease)});
  EXPECT_TRUE(lock.is_unlocked(r.ex.word(0)));
}

TEST(AtomicCounter, DecAndLockThatLosesARaceDropsTheLockAgain) {
  // The count is 1 when dec_and_lock reads it, but another CPU takes a reference before the
  // locked decrement: the count does not reach zero and the lock is released.
  Rig r(testing::small_machine());
  TicketSpinlock lock(r.mem.add_line(0));
  AtomicCounter cnt(r.mem.add_line(0), &lock);
  run_alone(r, {Step::act(cnt, SyncAction::kInc)});
  Picos t0 = r.ex.stats(0).finished;
  // Hold the lock on CPU 4 for a while so that dec_and_lock waits, and increment meanwhile.
  Script holder(4, {Step::act(lock, SyncAction::kAcquire), Step::raw(Op::compute(from_ns(5000))),
                    Step::act(lock, SyncAction::kRelease)});
  std::uint64_t zero = 9;
  Script dec(0, {Step::raw(Op::compute(from_ns(1000))),
                 Step::act(cnt, SyncAction::kDecAndLock, [&](std::uint64_t x) { zero = x; })});
  Script inc(1, {Step::raw(Op::compute(from_ns(3000))), Step::act(cnt, SyncAction::kInc)});
  r.ex.start(4, holder, t0);
  r.ex.start(0, dec, t0);
  r.ex.start(1, inc, t0);
  r.ex.run();
  EXPECT_EQ(zero, 0u);
  EXPECT_EQ(r.ex.word(1), 1u);
  EXPECT_TRUE(lock.is_unlocked(r.ex.word(0)));
}

TEST(AtomicCounter, DecAndLockWithoutALockIsNotSupported) {
  AtomicCounter cnt(0);
  EXPECT_FALSE(cnt.supports(SyncAction::kDecAndLock));
  SyncCall call;
  exec::Op op;
  EXPECT_THROW(cnt.step(SyncAction::kDecAndLock, 0, call, 0, op), std::logic_error);
}

}  // namespace
}  // namespace walksim::sync
