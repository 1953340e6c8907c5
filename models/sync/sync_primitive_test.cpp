// The shared contract of SyncPrimitive: a SyncCall is back to zero after each action and can be
// reused, ops are counted as they are handed out, and primitives on different words of one line
// keep their values apart while sharing the line's coherence traffic.
#include "models/sync/sync_primitive.hpp"

#include <gtest/gtest.h>

#include "models/sync/atomic_counter.hpp"
#include "models/sync/lock_loop.hpp"
#include "models/sync/seqlock.hpp"
#include "models/sync/sync_test_rig.hpp"
#include "models/sync/ticket_spinlock.hpp"

namespace walksim::sync {
namespace {

using sim::from_ns;
using testing::Rig;
using testing::Script;
using testing::Step;

TEST(SyncPrimitive, ACallIsBackToZeroAfterEachActionAndCanBeReused) {
  Seqlock lock(0);  // nests a ticket lock, so the inner fields are exercised too
  SyncCall call;
  call.result = 77;
  exec::Op op;
  std::uint64_t last = 0;
  int ops = 0;
  while (lock.step(SyncAction::kWriteBegin, 0, call, last, op)) {
    ++ops;
    last = 0;  // the xadd saw an idle lock
  }
  EXPECT_EQ(ops, 2);
  EXPECT_EQ(call.result, 1u);  // the sequence after the first increment
  EXPECT_EQ(call.step, 0u);
  EXPECT_EQ(call.inner_step, 0u);
  EXPECT_EQ(call.scratch, 0u);
  EXPECT_EQ(call.inner_scratch, 0u);
  while (lock.step(SyncAction::kWriteEnd, 0, call, 0, op)) {
  }
  EXPECT_EQ(call.result, 2u);
  EXPECT_EQ(lock.stats().rmws, 1u);
  EXPECT_EQ(lock.stats().stores, 3u);
  EXPECT_EQ(lock.lock().stats().acquisitions, 1u);
}

TEST(SyncPrimitive, ActionsHaveNames) {
  EXPECT_EQ(action_name(SyncAction::kAcquire), "acquire");
  EXPECT_EQ(action_name(SyncAction::kCallRcu), "call_rcu");
  EXPECT_EQ(action_name(SyncAction::kLockrefPut), "lockref_put");
}

TEST(SyncPrimitive, PrimitivesOnTwoWordsOfOneLineKeepTheirValuesApartButShareItsTraffic) {
  // A lock and a counter in one cacheline, like 2.6.35's d_lock and d_count.
  Rig r(testing::small_machine());
  const LineId line = r.mem.add_line(0);
  TicketSpinlock lock(SyncWord{line, 0});
  AtomicCounter count(SyncWord{line, 1});
  const LineId counter = r.mem.add_line(1);
  LockLoopParams p;
  p.think = from_ns(100);
  p.hold = from_ns(20);
  p.iterations = 20;
  p.counter = counter;
  std::vector<std::unique_ptr<LockLoop>> lockers;
  std::vector<std::unique_ptr<Script>> counters;
  for (CpuId c = 0; c < r.m.cpus(); ++c) {
    if (c % 2 == 0) {
      lockers.push_back(std::make_unique<LockLoop>(lock, c, p));
      r.ex.start(c, *lockers.back());
    } else {
      counters.push_back(std::make_unique<Script>(c, std::vector<Step>(20, Step::act(count, SyncAction::kInc))));
      r.ex.start(c, *counters.back());
    }
  }
  r.ex.run();
  EXPECT_EQ(r.ex.word(counter), 20u * r.m.cpus() / 2);
  EXPECT_EQ(r.ex.named_word(1), 20u * r.m.cpus() / 2);
  EXPECT_TRUE(lock.is_unlocked(r.ex.named_word(0)));
  EXPECT_EQ(lock.head(r.ex.named_word(0)), 20u * r.m.cpus() / 2);
  EXPECT_EQ(r.ex.word(line), 0u);  // the line's own word was never used
  EXPECT_GE(r.mem.line_stats(line).transactions, 20u * r.m.cpus() / 2);
}

}  // namespace
}  // namespace walksim::sync
