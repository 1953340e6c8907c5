// The 2.6.35 rwlock: one RMW per read lock and per read unlock, readers share, a writer excludes
// readers and waits for them, and a failed attempt costs an undo and a retry.
#include "models/sync/rwlock.hpp"

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

TEST(RwLock, ReadLockAndReadUnlockAreOneRmwEach) {
  Rig r(testing::small_machine());
  RwLock lock(r.mem.add_line(0));
  Script p(0, {Step::act(lock, SyncAction::kReadAcquire), Step::act(lock, SyncAction::kReadRelease)});
  r.ex.start(0, p);
  r.ex.run();
  EXPECT_EQ(lock.stats().rmws, 2u);
  EXPECT_EQ(lock.stats().loads + lock.stats().stores, 0u);
  EXPECT_EQ(r.ex.word(0), 0u);
}

TEST(RwLock, ReadersHoldItTogetherWithoutWaiting) {
  Rig r(testing::small_machine());
  RwLock lock(r.mem.add_line(0));
  std::vector<std::unique_ptr<Script>> readers;
  for (CpuId c = 0; c < 4; ++c) {
    readers.push_back(std::make_unique<Script>(
        c, std::vector<Step>{Step::act(lock, SyncAction::kReadAcquire), Step::raw(Op::compute(from_ns(5000))),
                             Step::act(lock, SyncAction::kReadRelease)}));
    r.ex.start(c, *readers.back());
  }
  r.ex.run();
  EXPECT_EQ(lock.stats().acquisitions, 4u);
  EXPECT_EQ(lock.stats().contended, 0u);
  for (CpuId c = 0; c < 4; ++c) EXPECT_LT(r.ex.stats(c).finished, from_ns(6000));
}

TEST(RwLock, AReaderArrivingDuringAWriteWaitsAndPaysAnUndoAndARetry) {
  Rig r(testing::small_machine());
  RwLock lock(r.mem.add_line(0));
  Script writer(0, {Step::act(lock, SyncAction::kAcquire), Step::raw(Op::compute(from_ns(10000))),
                    Step::act(lock, SyncAction::kRelease)});
  std::uint64_t waited = 0;
  Script reader(5, {Step::raw(Op::compute(from_ns(1000))),
                    Step::act(lock, SyncAction::kReadAcquire, [&](std::uint64_t w) { waited = w; }),
                    Step::act(lock, SyncAction::kReadRelease)});
  r.ex.start(0, writer);
  r.ex.start(5, reader);
  r.ex.run();
  EXPECT_EQ(waited, 1u);
  EXPECT_GT(r.ex.stats(5).finished, r.ex.stats(0).finished - from_ns(100));
  // writer: lock + unlock; reader: subl, undo incl, retry decl, unlock incl.
  EXPECT_EQ(lock.stats().rmws, 2u + 4u);
  EXPECT_EQ(r.ex.word(0), 0u);
}

TEST(RwLock, AWriterWaitsForTheReadersToLeave) {
  Rig r(testing::small_machine());
  RwLock lock(r.mem.add_line(0));
  Script reader(1, {Step::act(lock, SyncAction::kReadAcquire), Step::raw(Op::compute(from_ns(10000))),
                    Step::act(lock, SyncAction::kReadRelease)});
  std::uint64_t waited = 0;
  Script writer(4, {Step::raw(Op::compute(from_ns(1000))),
                    Step::act(lock, SyncAction::kAcquire, [&](std::uint64_t w) { waited = w; }),
                    Step::act(lock, SyncAction::kRelease)});
  r.ex.start(1, reader);
  r.ex.start(4, writer);
  r.ex.run();
  EXPECT_EQ(waited, 1u);
  EXPECT_GT(r.ex.stats(4).finished, from_ns(10000));
}

TEST(RwLock, WritersExcludeEachOtherAndReadersUnderContention) {
  Rig r(testing::small_machine());
  RwLock lock(r.mem.add_line(0));
  const LineId counter = r.mem.add_line(1);
  LockLoopParams w;
  w.think = from_ns(100);
  w.hold = from_ns(30);
  w.iterations = 30;
  w.counter = counter;
  LockLoopParams rd = w;
  rd.counter.reset();
  rd.acquire = SyncAction::kReadAcquire;
  rd.release = SyncAction::kReadRelease;
  std::vector<std::unique_ptr<LockLoop>> loops;
  for (CpuId c = 0; c < r.m.cpus(); ++c) {
    loops.push_back(std::make_unique<LockLoop>(lock, c, c % 2 == 0 ? w : rd));
    r.ex.start(c, *loops.back());
  }
  r.ex.run();
  EXPECT_EQ(r.ex.word(counter), 30u * r.m.cpus() / 2);
  EXPECT_GT(lock.stats().contended, 0u);
  EXPECT_EQ(r.ex.word(0), 0u);
  r.mem.check_all();
}

}  // namespace
}  // namespace walksim::sync
