// The MCS lock: its op counts, mutual exclusion under contention, FIFO hand-off in the order the
// waiters swapped themselves in, each waiter spinning on its own node, and the release that finds
// a successor still linking itself in.
#include "models/sync/mcs_lock.hpp"

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

struct McsRig {
  McsRig()
      : r(testing::small_machine()),
        lines(add_sync_lines(r.mem, "mcs", 0)),
        lock(lines[0], std::span<const LineId>(lines).subspan(1)) {}
  LineId node(CpuId c) const { return lines[1 + c]; }
  Rig r;
  std::vector<LineId> lines;
  McsLock lock;
};

TEST(McsLock, AnUncontendedAcquireIsOneSwapAndTheReleaseOneReadAndOneCmpxchg) {
  McsRig q;
  Script p(0, {Step::act(q.lock, SyncAction::kAcquire), Step::act(q.lock, SyncAction::kRelease)});
  q.r.ex.start(0, p);
  q.r.ex.run();
  EXPECT_EQ(q.lock.stats().rmws, 2u);    // the swap, and the cmpxchg that empties the queue
  EXPECT_EQ(q.lock.stats().stores, 1u);  // I->next = NULL
  EXPECT_EQ(q.lock.stats().loads, 1u);   // the release reads its node
  EXPECT_EQ(q.r.ex.word(q.lines[0]), 0u);
}

// libslock's mcs_acquire (src/mcs.c): I->next = NULL, the swap, I->waiting = 1, MEM_BARRIER
// (mfence on x86), pred->next = I, then the spin on its own node. The fence keeps the link from
// being seen before the node is marked waiting.
TEST(McsLock, AContendedAcquireFencesBeforeItLinksItselfToItsPredecessor) {
  McsRig q;
  SyncCall call;
  Op op;
  std::vector<exec::OpKind> kinds;
  std::uint64_t last = 0;
  while (q.lock.step(SyncAction::kAcquire, 3, call, last, op)) {
    kinds.push_back(op.kind);
    last = op.kind == exec::OpKind::kRmwXchg ? 1 : 0;  // the swap finds CPU 0 (word 1) queued
  }
  EXPECT_EQ(kinds, (std::vector<exec::OpKind>{exec::OpKind::kStore, exec::OpKind::kRmwXchg, exec::OpKind::kStore,
                                              exec::OpKind::kFence, exec::OpKind::kStore, exec::OpKind::kSpinUntil}));
}

TEST(McsLock, WaitersAreServedInTheOrderTheySwappedThemselvesIn) {
  McsRig q;
  std::vector<CpuId> order;
  auto acquire_hold_release = [&](CpuId c, Picos delay) {
    return std::vector<Step>{
        Step::raw(Op::compute(delay)),
        Step::act(q.lock, SyncAction::kAcquire, [&order, c](std::uint64_t) { order.push_back(c); }),
        Step::raw(Op::compute(from_ns(1000))), Step::act(q.lock, SyncAction::kRelease)};
  };
  Script holder(0, acquire_hold_release(0, 1));
  Script a(5, acquire_hold_release(5, from_ns(100)));
  Script b(1, acquire_hold_release(1, from_ns(200)));
  Script c(6, acquire_hold_release(6, from_ns(300)));
  q.r.ex.start(0, holder);
  q.r.ex.start(5, a);
  q.r.ex.start(1, b);
  q.r.ex.start(6, c);
  q.r.ex.run();
  EXPECT_EQ(order, (std::vector<CpuId>{0, 5, 1, 6}));
  EXPECT_EQ(q.lock.stats().contended, 3u);
  EXPECT_EQ(q.r.ex.word(q.lines[0]), 0u);  // the last one emptied the queue
}

TEST(McsLock, AWaiterSpinsOnItsOwnNodeWhichOnlyItsPredecessorWrites) {
  McsRig q;
  Script owner(0, {Step::act(q.lock, SyncAction::kAcquire), Step::raw(Op::compute(from_ns(5000))),
                   Step::act(q.lock, SyncAction::kRelease)});
  Script waiter(4, {Step::raw(Op::compute(from_ns(500))), Step::act(q.lock, SyncAction::kAcquire),
                    Step::act(q.lock, SyncAction::kRelease)});
  q.r.ex.start(0, owner);
  q.r.ex.start(4, waiter);
  q.r.ex.run();
  EXPECT_GT(q.r.ex.stats(4).finished, from_ns(5000));
  // The lock word saw the two swaps and the last release's cmpxchg; the waiter's wait was on its
  // node (linked by it, granted by the owner), not on the lock word.
  EXPECT_EQ(q.lock.stats().rmws, 3u);
  EXPECT_GT(q.r.mem.line_stats(q.node(4)).transactions, 0u);
  EXPECT_EQ(q.r.ex.word(q.lines[0]), 0u);
}

TEST(McsLock, ContendingCpusNeverOverlapInTheCriticalSectionAndNoWaiterIsLeftParked) {
  McsRig q;
  const LineId counter = q.r.mem.add_line(1);
  LockLoopParams p;
  p.think = from_ns(30);
  p.hold = from_ns(40);
  p.iterations = 40;
  p.counter = counter;
  testing::run_lock_loops(q.r, q.lock, p);
  EXPECT_EQ(q.r.ex.word(counter), 40u * q.r.m.cpus());
  EXPECT_EQ(q.lock.stats().acquisitions, 40u * q.r.m.cpus());
  EXPECT_GT(q.lock.stats().contended, 0u);
  // At most a swap and a release cmpxchg per acquisition on the lock word, however many wait.
  EXPECT_LE(q.lock.stats().rmws, 2 * q.lock.stats().acquisitions);
  EXPECT_EQ(q.r.ex.word(q.lines[0]), 0u);
  q.r.mem.check_all();
}

}  // namespace
}  // namespace walksim::sync
