// seqlock: write_seqlock is a spinlock RMW and a store, write_sequnlock two stores; writers
// exclude each other; readers still only load, and retry when a writer interleaves.
#include "models/sync/seqlock.hpp"

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

TEST(Seqlock, AWriteSectionIsOneRmwAndThreeStores) {
  Rig r(testing::small_machine());
  Seqlock lock(r.mem.add_line(0));
  Script w(0, {Step::act(lock, SyncAction::kWriteBegin), Step::act(lock, SyncAction::kWriteEnd)});
  r.ex.start(0, w);
  r.ex.run();
  EXPECT_EQ(lock.stats().rmws, 1u);
  EXPECT_EQ(lock.stats().stores, 3u);  // seq++, seq++, spin_unlock
  EXPECT_EQ(lock.stats().acquisitions, 1u);
  const std::uint64_t word = r.ex.word(0);
  EXPECT_EQ(word & Seqcount::kSeqMask, 2u);
  EXPECT_TRUE(lock.lock().is_unlocked(word));
}

TEST(Seqlock, WritersExcludeEachOtherAndLeaveAnEvenSequence) {
  Rig r(testing::small_machine());
  Seqlock lock(r.mem.add_line(0));
  const LineId counter = r.mem.add_line(1);
  LockLoopParams p;
  p.think = from_ns(60);
  p.hold = from_ns(20);
  p.iterations = 25;
  p.counter = counter;
  p.acquire = SyncAction::kWriteBegin;
  p.release = SyncAction::kWriteEnd;
  testing::run_lock_loops(r, lock, p);
  const std::uint64_t total = 25u * r.m.cpus();
  EXPECT_EQ(r.ex.word(counter), total);
  EXPECT_EQ(r.ex.word(0) & Seqcount::kSeqMask, 2 * total);
  EXPECT_GT(lock.stats().contended, 0u);
  r.mem.check_all();
}

TEST(Seqlock, AReaderRetriesWhenAWriterInterleavesAndStoresNothing) {
  Rig r(testing::small_machine());
  Seqlock lock(r.mem.add_line(0));
  std::uint64_t begin = 99, retry = 9;
  Script reader(6, {Step::act(lock, SyncAction::kSeqReadBegin, [&](std::uint64_t s) { begin = s; }),
                    Step::raw(Op::compute(from_ns(3000))),
                    Step::act(
                        lock, SyncAction::kSeqReadRetry, [&](std::uint64_t x) { retry = x; }, 0)});
  Script writer(1, {Step::raw(Op::compute(from_ns(500))), Step::act(lock, SyncAction::kWriteBegin),
                    Step::act(lock, SyncAction::kWriteEnd)});
  r.ex.start(6, reader);
  r.ex.start(1, writer);
  r.ex.run();
  EXPECT_EQ(begin, 0u);
  EXPECT_EQ(retry, 1u);
  EXPECT_EQ(lock.stats().stores, 3u);  // all the writer's
}

}  // namespace
}  // namespace walksim::sync
