// The CLH lock: its op counts, FIFO hand-off, node adoption at release, and mutual exclusion with
// every waiter finishing under contention.
#include "models/sync/clh_lock.hpp"

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

struct ClhRig {
  ClhRig()
      : r(testing::small_machine()),
        lines(add_sync_lines(r.mem, "clh", 0)),
        lock(lines[0], lines[1], std::span<const LineId>(lines).subspan(2)) {}
  LineId node(CpuId c) const { return lines[2 + c]; }
  Rig r;
  std::vector<LineId> lines;
  ClhLock lock;
};

TEST(ClhLock, AnUncontendedAcquireIsAStoreASwapAndOneReadAndTheReleaseOneStore) {
  ClhRig q;
  Script p(0, {Step::act(q.lock, SyncAction::kAcquire), Step::act(q.lock, SyncAction::kRelease)});
  q.r.ex.start(0, p);
  q.r.ex.run();
  EXPECT_EQ(q.lock.stats().rmws, 1u);
  EXPECT_EQ(q.lock.stats().stores, 2u);
  EXPECT_EQ(q.lock.stats().loads, 1u);
  EXPECT_EQ(q.lock.stats().contended, 0u);
  EXPECT_EQ(q.lock.node_of(0), q.lines[1]);  // it adopted the lock's initial node
}

TEST(ClhLock, WaitersAreServedInTheOrderTheySwappedThemselvesInAndAdoptTheirPredecessorsNodes) {
  ClhRig q;
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
  q.r.ex.start(0, holder);
  q.r.ex.start(5, a);
  q.r.ex.start(1, b);
  q.r.ex.run();
  EXPECT_EQ(order, (std::vector<CpuId>{0, 5, 1}));
  EXPECT_EQ(q.lock.stats().contended, 2u);
  EXPECT_EQ(q.lock.node_of(5), q.node(0));  // CPU 5 waited on CPU 0's node and took it over
  EXPECT_EQ(q.lock.node_of(1), q.node(5));
}

TEST(ClhLock, ContendingCpusNeverOverlapInTheCriticalSectionAndNoWaiterIsLeftParked) {
  ClhRig q;
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
  EXPECT_EQ(q.lock.stats().rmws, q.lock.stats().acquisitions);  // one swap per acquisition, whoever waits
  q.r.mem.check_all();
}

}  // namespace
}  // namespace walksim::sync
