// The queued spinlock (qspinlock): its op counts, the pending path of a second contender,
// mutual exclusion, FIFO order among queued waiters, each waiter spinning on its own node, and
// node lines shared by nested locks.
#include "models/sync/queued_spinlock.hpp"

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

struct QueuedRig {
  QueuedRig()
      : r(testing::small_machine()),
        lines(add_sync_lines(r.mem, "queued", 0)),
        lock(lines[0], std::span<const LineId>(lines).subspan(1)) {}
  LineId node(CpuId c) const { return lines[1 + c]; }
  Rig r;
  std::vector<LineId> lines;
  QueuedSpinlock lock;
};

TEST(QueuedSpinlock, AnUncontendedAcquireIsOneCmpxchgAndTheReleaseOnePlainStore) {
  QueuedRig q;
  Script p(0, {Step::act(q.lock, SyncAction::kAcquire), Step::act(q.lock, SyncAction::kRelease)});
  q.r.ex.start(0, p);
  q.r.ex.run();
  EXPECT_EQ(q.lock.stats().rmws, 1u);
  EXPECT_EQ(q.lock.stats().stores, 1u);
  EXPECT_EQ(q.lock.stats().loads, 0u);
  EXPECT_EQ(q.r.ex.word(q.lines[0]), 0u);
}

TEST(QueuedSpinlock, ASecondContenderSetsPendingAndSpinsOnTheLockWordWithoutQueueing) {
  QueuedRig q;
  Script owner(0, {Step::act(q.lock, SyncAction::kAcquire), Step::raw(Op::compute(from_ns(5000))),
                   Step::act(q.lock, SyncAction::kRelease)});
  std::uint64_t waited = 9;
  Script second(4, {Step::raw(Op::compute(from_ns(500))),
                    Step::act(q.lock, SyncAction::kAcquire, [&](std::uint64_t w) { waited = w; }),
                    Step::act(q.lock, SyncAction::kRelease)});
  q.r.ex.start(0, owner);
  q.r.ex.start(4, second);
  q.r.ex.run();
  EXPECT_EQ(waited, 1u);
  EXPECT_GT(q.r.ex.stats(4).finished, from_ns(5000));
  EXPECT_EQ(q.r.mem.line_stats(q.node(4)).transactions, 0u);  // its node was never touched
  EXPECT_EQ(q.lock.stats().rmws, 1u + 2u);                    // owner's cmpxchg; fast + pending cmpxchg
  EXPECT_EQ(q.r.ex.word(q.lines[0]), 0u);
}

TEST(QueuedSpinlock, ContendingCpusNeverOverlapInTheCriticalSection) {
  QueuedRig q;
  EXPECT_EQ(testing::count_under_lock(q.r, q.lock, 40, from_ns(20)), 40u * q.r.m.cpus());
  EXPECT_GT(q.lock.stats().contended, 0u);
  EXPECT_EQ(q.r.ex.word(q.lines[0]), 0u);
  q.r.mem.check_all();
}

TEST(QueuedSpinlock, QueuedWaitersSpinOnTheirOwnNodesAndAreServedInArrivalOrder) {
  QueuedRig q;
  std::vector<CpuId> order;
  auto acquire_hold_release = [&](CpuId c, Picos delay) {
    return std::vector<Step>{
        Step::raw(Op::compute(delay)),
        Step::act(q.lock, SyncAction::kAcquire, [&order, c](std::uint64_t) { order.push_back(c); }),
        Step::raw(Op::compute(from_ns(10000))), Step::act(q.lock, SyncAction::kRelease)};
  };
  // 6 takes the pending bit; 2 and 3 queue behind it, 3 behind 2.
  Script holder(0, acquire_hold_release(0, 1));
  Script a(6, acquire_hold_release(6, from_ns(100)));
  Script b(2, acquire_hold_release(2, from_ns(200)));
  Script c(3, acquire_hold_release(3, from_ns(300)));
  q.r.ex.start(0, holder);
  q.r.ex.start(6, a);
  q.r.ex.start(2, b);
  q.r.ex.start(3, c);
  q.r.sim.run(from_ns(5000));  // everyone waits; the holder is still inside
  // The second in the queue spins on its own node, which only its predecessor will write.
  const auto& node3 = q.r.mem.line(q.node(3));
  EXPECT_TRUE(node3.holders.contains(3));
  EXPECT_EQ(node3.holders.size(), 1u);
  const std::uint64_t lock_traffic = q.r.mem.line_stats(q.lines[0]).transactions;
  q.r.sim.run(from_ns(9000));
  EXPECT_EQ(q.r.mem.line_stats(q.lines[0]).transactions, lock_traffic) << "parked waiters make no traffic";
  q.r.ex.run();
  EXPECT_EQ(order, (std::vector<CpuId>{0, 6, 2, 3}));
  EXPECT_EQ(q.r.ex.word(q.lines[0]), 0u);
}

TEST(QueuedSpinlock, NestedLocksCanShareTheCpusNodeLines) {
  // Two locks, one set of node lines: a CPU holding A may queue for B, because a node is only in
  // use while its CPU waits.
  Rig r(testing::small_machine());
  const auto a_lines = add_sync_lines(r.mem, "queued", 0);
  const std::span<const LineId> nodes = std::span<const LineId>(a_lines).subspan(1);
  QueuedSpinlock a(a_lines[0], nodes);
  QueuedSpinlock b(r.mem.add_line(0), nodes);
  const LineId counter = r.mem.add_line(1);
  std::vector<std::unique_ptr<Script>> progs;
  for (CpuId c = 0; c < r.m.cpus(); ++c) {
    std::vector<Step> steps;
    for (int i = 0; i < 10; ++i) {
      steps.push_back(Step::raw(Op::compute(from_ns(30 * (c + 1)))));
      steps.push_back(Step::act(a, SyncAction::kAcquire));
      steps.push_back(Step::act(b, SyncAction::kAcquire));
      steps.push_back(Step::raw(Op::load(counter)));
      steps.push_back(Step::raw(Op::compute(from_ns(20))));
      steps.push_back(Step::act(b, SyncAction::kRelease));
      steps.push_back(Step::act(a, SyncAction::kRelease));
    }
    progs.push_back(std::make_unique<Script>(c, std::move(steps)));
    r.ex.start(c, *progs.back());
  }
  // B is also taken alone by CPUs that do not hold A, so that B has a queue of its own.
  r.ex.run();
  EXPECT_EQ(a.stats().acquisitions, 10u * r.m.cpus());
  EXPECT_EQ(b.stats().acquisitions, 10u * r.m.cpus());
  EXPECT_GT(a.stats().contended, 0u);
  EXPECT_EQ(r.ex.word(a_lines[0]), 0u);
}

}  // namespace
}  // namespace walksim::sync
