// libslock's x86-64 ticket lock: one xadd uncontended, a wait proportional to the distance between
// reads of the head (with sched_yield beyond 20), FIFO hand-off and mutual exclusion under contention.
#include "models/sync/ticket_backoff_lock.hpp"

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

TEST(TicketBackoffLock, AnUncontendedAcquireIsOneXaddAndTheReleaseOnePlainStore) {
  Rig r(testing::small_machine());
  TicketBackoffLock lock(r.mem.add_line(0), r.m.cycle());
  Script p(0, {Step::act(lock, SyncAction::kAcquire), Step::act(lock, SyncAction::kRelease),
               Step::act(lock, SyncAction::kAcquire), Step::act(lock, SyncAction::kRelease)});
  r.ex.start(0, p);
  r.ex.run();
  EXPECT_EQ(lock.stats().rmws, 2u);
  EXPECT_EQ(lock.stats().loads, 0u);
  EXPECT_EQ(lock.stats().stores, 2u);
  EXPECT_EQ(lock.stats().contended, 0u);
}

TEST(TicketBackoffLock, AWaiterWaitsInProportionToItsDistanceThenReadsTheHeadAgain) {
  EXPECT_EQ(TicketBackoffLock::wait_cycles(1), 128u * 2);               // the next in line: TICKET_WAIT_NEXT
  EXPECT_EQ(TicketBackoffLock::wait_cycles(2), 2u * 512 * 2);           // distance x TICKET_BASE_WAIT
  EXPECT_EQ(TicketBackoffLock::wait_cycles(20), 20u * 512 * 2);         // no yield at 20
  EXPECT_EQ(TicketBackoffLock::wait_cycles(21), 21u * 512 * 2 + 1000);  // sched_yield beyond 20
  const Picos cycle = 1000;
  TicketBackoffLock lock(SyncWord{3}, cycle);
  SyncCall call;
  Op op;
  ASSERT_TRUE(lock.step(SyncAction::kAcquire, 1, call, 0, op));
  EXPECT_EQ(op.kind, exec::OpKind::kRmwAdd);
  // The xadd returns the old word: tail 5 (this ticket), head 2: three to go.
  ASSERT_TRUE(lock.step(SyncAction::kAcquire, 1, call, (std::uint64_t{5} << 32) | 2, op));
  EXPECT_EQ(op.kind, exec::OpKind::kCompute);
  EXPECT_EQ(op.ps, static_cast<Picos>(TicketBackoffLock::wait_cycles(3)) * cycle);
  ASSERT_TRUE(lock.step(SyncAction::kAcquire, 1, call, 0, op));
  EXPECT_EQ(op.kind, exec::OpKind::kLoad);
  ASSERT_TRUE(lock.step(SyncAction::kAcquire, 1, call, (std::uint64_t{6} << 32) | 4, op));  // next in line
  EXPECT_EQ(op.ps, static_cast<Picos>(TicketBackoffLock::wait_cycles(1)) * cycle);
  ASSERT_TRUE(lock.step(SyncAction::kAcquire, 1, call, 0, op));
  EXPECT_FALSE(lock.step(SyncAction::kAcquire, 1, call, (std::uint64_t{7} << 32) | 5, op));  // its turn
  EXPECT_EQ(call.result, 1u);
  EXPECT_EQ(lock.stats().contended, 1u);
  ASSERT_TRUE(lock.step(SyncAction::kRelease, 1, call = SyncCall{}, 0, op));
  EXPECT_EQ(op.kind, exec::OpKind::kStore);
  EXPECT_EQ(op.value, 6u);  // head = 5 + 1
}

TEST(TicketBackoffLock, ContendingCpusNeverOverlapInTheCriticalSectionAndAllFinish) {
  Rig r(testing::small_machine());
  TicketBackoffLock lock(r.mem.add_line(0), r.m.cycle());
  EXPECT_EQ(testing::count_under_lock(r, lock, 30, from_ns(40)), 30u * r.m.cpus());
  EXPECT_EQ(lock.stats().acquisitions, 30u * r.m.cpus());
  EXPECT_GT(lock.stats().contended, 0u);
  r.mem.check_all();
}

}  // namespace
}  // namespace walksim::sync
