// The ticket spinlock: the op sequence of x86 spin_lock/spin_unlock, mutual exclusion, FIFO
// order, parking instead of spinning, and a layout that shares its word with another field.
#include "models/sync/ticket_spinlock.hpp"

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

TEST(TicketSpinlock, AnUncontendedAcquireIsOneXaddAndNoLoadAndTheReleaseOnePlainStore) {
  Rig r(testing::small_machine());
  TicketSpinlock lock(r.mem.add_line(0));
  std::uint64_t waited = 9;
  Script p(0, {Step::act(lock, SyncAction::kAcquire, [&](std::uint64_t w) { waited = w; })});
  r.ex.start(0, p);
  r.ex.run();
  EXPECT_EQ(waited, 0u);
  EXPECT_EQ(lock.stats().rmws, 1u);
  EXPECT_EQ(lock.stats().loads, 0u);
  Script q(0, {Step::act(lock, SyncAction::kRelease)});
  r.ex.start(0, q, r.ex.stats(0).finished);
  r.ex.run();
  EXPECT_EQ(lock.stats().rmws, 1u);
  EXPECT_EQ(lock.stats().stores, 1u);
  EXPECT_TRUE(lock.is_unlocked(r.ex.word(lock.line())));
}

TEST(TicketSpinlock, ContendingCpusNeverOverlapInTheCriticalSection) {
  Rig r(testing::small_machine());
  TicketSpinlock lock(r.mem.add_line(0));
  EXPECT_EQ(testing::count_under_lock(r, lock, 40, from_ns(20)), 40u * r.m.cpus());
  EXPECT_EQ(lock.stats().acquisitions, 40u * r.m.cpus());
  EXPECT_GT(lock.stats().contended, 0u);
  EXPECT_EQ(lock.stats().rmws, lock.stats().acquisitions);  // one xadd per acquire, none per release
  r.mem.check_all();
}

TEST(TicketSpinlock, WaitersAreServedInTheOrderTheyTookTickets) {
  Rig r(testing::small_machine());
  TicketSpinlock lock(r.mem.add_line(0));
  std::vector<CpuId> order;
  auto acquire_hold_release = [&](CpuId c, Picos delay) {
    return std::vector<Step>{Step::raw(Op::compute(delay)),
                             Step::act(lock, SyncAction::kAcquire, [&order, c](std::uint64_t) { order.push_back(c); }),
                             Step::raw(Op::compute(from_ns(1000))), Step::act(lock, SyncAction::kRelease)};
  };
  // CPU 5 (other socket) asks first after the holder, then 1, then 2.
  Script holder(0, acquire_hold_release(0, 1));
  Script a(5, acquire_hold_release(5, from_ns(100)));
  Script b(1, acquire_hold_release(1, from_ns(200)));
  Script c(2, acquire_hold_release(2, from_ns(300)));
  r.ex.start(0, holder);
  r.ex.start(5, a);
  r.ex.start(1, b);
  r.ex.start(2, c);
  r.ex.run();
  EXPECT_EQ(order, (std::vector<CpuId>{0, 5, 1, 2}));
  EXPECT_EQ(lock.stats().contended, 3u);
}

TEST(TicketSpinlock, AWaiterParksOnTheLineAndBurnsCpuWhileItWaits) {
  Rig r(testing::small_machine());
  TicketSpinlock lock(r.mem.add_line(0));
  Script holder(0, {Step::act(lock, SyncAction::kAcquire), Step::raw(Op::compute(from_ns(100000))),
                    Step::act(lock, SyncAction::kRelease)});
  Script waiter(1, {Step::raw(Op::compute(from_ns(10))), Step::act(lock, SyncAction::kAcquire),
                    Step::act(lock, SyncAction::kRelease)});
  r.ex.start(0, holder);
  r.ex.start(1, waiter);
  r.ex.run();
  const auto& w = r.ex.stats(1);
  EXPECT_GT(w.finished, from_ns(100000));
  EXPECT_LE(w.loads, 3u);                           // a first read, and a re-read when the release lands
  EXPECT_GT(w.spin, from_ns(99000));                // spinning burns CPU ...
  EXPECT_EQ(w.cpu_time(), w.finished - w.started);  // ... so CPU time is the whole wait
}

TEST(TicketSpinlock, ATailThatWrapsCarriesOutOfTheWordAndLeavesTheOtherFieldAlone) {
  Rig r(testing::small_machine());
  const LineId line = r.mem.add_line(0);
  TicketSpinlock lock(line, TicketLayout{32, 16});
  Script init(0, {Step::raw(Op::store(line, 0xdeadbeef, 0xffffffffu))});
  r.ex.start(0, init);
  r.ex.run();
  LockLoopParams p;
  p.iterations = 70000;  // more than 2^16 tickets
  LockLoop loop(lock, 0, p);
  r.ex.start(0, loop, r.ex.stats(0).finished);
  r.ex.run();
  const std::uint64_t w = r.ex.word(line);
  EXPECT_EQ(w & 0xffffffffu, 0xdeadbeefu);
  EXPECT_TRUE(lock.is_unlocked(w));
  EXPECT_EQ(lock.head(w), 70000u % 65536u);
}

TEST(TicketSpinlock, ALayoutWhoseTailDoesNotEndTheWordIsRefused) {
  EXPECT_THROW(TicketSpinlock(0, TicketLayout{0, 16}), std::invalid_argument);
  EXPECT_THROW(TicketSpinlock(0, TicketLayout{0, 0}), std::invalid_argument);
}

TEST(TicketSpinlock, AnActionItDoesNotSupportIsAnError) {
  TicketSpinlock lock(0);
  SyncCall call;
  exec::Op op;
  EXPECT_THROW(lock.step(SyncAction::kInc, 0, call, 0, op), std::logic_error);
}

}  // namespace
}  // namespace walksim::sync
