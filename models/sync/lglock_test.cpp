// lglock/brlock: a local (read) lock touches only its own CPU's line; a global (write) lock takes
// every CPU's lock in order and excludes local lockers.
#include "models/sync/lglock.hpp"

#include <gtest/gtest.h>

#include "models/sync/lock_loop.hpp"
#include "models/sync/sync_registry.hpp"
#include "models/sync/sync_test_rig.hpp"

namespace walksim::sync {
namespace {

using exec::Op;
using sim::from_ns;
using testing::Rig;
using testing::Script;
using testing::Step;

TEST(LgLock, AReaderTakesOnlyItsOwnCpusLockLine) {
  Rig r(testing::small_machine());
  const auto lines = add_sync_lines(r.mem, "brlock");
  LgLock lock(lines);
  LockLoopParams p;
  p.think = sim::from_ns(30);
  p.hold = sim::from_ns(30);
  p.iterations = 20;
  p.acquire = SyncAction::kReadAcquire;
  p.release = SyncAction::kReadRelease;
  testing::run_lock_loops(r, lock, p);
  EXPECT_EQ(lock.stats().contended, 0u);
  EXPECT_EQ(lock.stats().rmws, 20u * r.m.cpus());  // one xadd per read lock, a store per unlock
  for (CpuId c = 0; c < r.m.cpus(); ++c) {
    const auto& line = r.mem.line(lines[c]);
    EXPECT_EQ(line.holders.size(), 1u) << "cpu " << c;
    EXPECT_TRUE(line.holders.contains(r.m.core_of(c)));
    EXPECT_EQ(r.mem.line_stats(lines[c]).transfers, 0u);
  }
}

TEST(LgLock, AGlobalLockTakesEveryCpusLockInOrderAndReleasesThemAll) {
  Rig r(testing::small_machine());
  const auto lines = add_sync_lines(r.mem, "lglock");
  LgLock lock(lines);
  Script w(3, {Step::act(lock, SyncAction::kGlobalLock), Step::act(lock, SyncAction::kGlobalUnlock)});
  r.ex.start(3, w);
  r.ex.run();
  EXPECT_EQ(lock.stats().rmws, r.m.cpus());
  EXPECT_EQ(lock.stats().stores, r.m.cpus());
  for (CpuId c = 0; c < r.m.cpus(); ++c) {
    EXPECT_TRUE(lock.cpu_lock(c).is_unlocked(r.ex.word(lines[c])));
    EXPECT_EQ(lock.cpu_lock(c).head(r.ex.word(lines[c])), 1u);
  }
}

TEST(LgLock, AGlobalLockWaitsForALocalHolderAndBlocksLaterLocalLockers) {
  Rig r(testing::small_machine());
  const auto lines = add_sync_lines(r.mem, "lglock");
  LgLock lock(lines);
  std::uint64_t writer_waited = 9, reader_waited = 9;
  Script local(5, {Step::act(lock, SyncAction::kLocalLock), Step::raw(Op::compute(from_ns(5000))),
                   Step::act(lock, SyncAction::kLocalUnlock)});
  Script global(0, {Step::raw(Op::compute(from_ns(1000))),
                    Step::act(lock, SyncAction::kGlobalLock, [&](std::uint64_t x) { writer_waited = x; }),
                    Step::raw(Op::compute(from_ns(5000))), Step::act(lock, SyncAction::kGlobalUnlock)});
  Script late(2, {Step::raw(Op::compute(from_ns(7000))),
                  Step::act(lock, SyncAction::kLocalLock, [&](std::uint64_t x) { reader_waited = x; }),
                  Step::act(lock, SyncAction::kLocalUnlock)});
  r.ex.start(5, local);
  r.ex.start(0, global);
  r.ex.start(2, late);
  r.ex.run();
  EXPECT_EQ(writer_waited, 1u);
  EXPECT_EQ(reader_waited, 1u);
  EXPECT_GT(r.ex.stats(2).finished, from_ns(10000));  // after the writer's 5 us, which began after 5 us
}

TEST(LgLock, LockingAnotherCpusLockTakesThatCpusLine) {
  Rig r(testing::small_machine());
  const auto lines = add_sync_lines(r.mem, "lglock");
  LgLock lock(lines);
  Script p(0, {Step::act(lock, SyncAction::kLocalLockCpu, {}, 6), Step::act(lock, SyncAction::kLocalUnlockCpu, {}, 6)});
  r.ex.start(0, p);
  r.ex.run();
  EXPECT_TRUE(r.mem.line(lines[6]).holders.contains(0));
  EXPECT_EQ(r.mem.line_stats(lines[0]).transactions, 0u);
  EXPECT_EQ(lock.cpu_lock(6).head(r.ex.word(lines[6])), 1u);
}

TEST(LgLock, GlobalLockersExcludeEachOther) {
  Rig r(testing::small_machine());
  const auto lines = add_sync_lines(r.mem, "lglock");
  LgLock lock(lines);
  const LineId counter = r.mem.add_line(0);
  LockLoopParams p;
  p.think = from_ns(200);
  p.hold = from_ns(20);
  p.iterations = 10;
  p.counter = counter;
  testing::run_lock_loops(r, lock, p);
  EXPECT_EQ(r.ex.word(counter), 10u * r.m.cpus());
  EXPECT_GT(lock.stats().contended, 0u);
}

}  // namespace
}  // namespace walksim::sync
