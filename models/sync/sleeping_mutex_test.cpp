// The sleeping mutex: one RMW fast paths, a contended waiter that sleeps (no CPU burned) and
// pays the wake-up latency, mutual exclusion without lost wake-ups, and CPU time against a
// spinlock under the same contention.
#include "models/sync/sleeping_mutex.hpp"

#include <gtest/gtest.h>

#include "models/sync/lock_loop.hpp"
#include "models/sync/sync_registry.hpp"
#include "models/sync/sync_test_rig.hpp"
#include "models/sync/ticket_spinlock.hpp"

namespace walksim::sync {
namespace {

using exec::Op;
using sim::from_ns;
using testing::Rig;
using testing::Script;
using testing::Step;

constexpr Picos kWakeup = from_ns(5000);

struct MutexRig {
  MutexRig()
      : r(testing::small_machine()),
        lines(add_sync_lines(r.mem, "mutex", 0)),
        mutex(lines[0], std::span<const LineId>(lines).subspan(1), kWakeup) {}
  Rig r;
  std::vector<LineId> lines;
  SleepingMutex mutex;
};

TEST(SleepingMutex, UncontendedLockAndUnlockAreOneRmwEach) {
  MutexRig m;
  Script p(0, {Step::act(m.mutex, SyncAction::kAcquire), Step::act(m.mutex, SyncAction::kRelease)});
  m.r.ex.start(0, p);
  m.r.ex.run();
  EXPECT_EQ(m.mutex.stats().rmws, 2u);
  EXPECT_EQ(m.mutex.stats().stores + m.mutex.stats().loads, 0u);
  EXPECT_EQ(m.r.ex.word(m.lines[0]), SleepingMutex::kUnlocked);
}

TEST(SleepingMutex, AContendedWaiterSleepsBurnsNoCpuAndPaysTheWakeUpLatency) {
  MutexRig m;
  constexpr Picos kHold = from_ns(50000);
  Script owner(0, {Step::act(m.mutex, SyncAction::kAcquire), Step::raw(Op::compute(kHold)),
                   Step::act(m.mutex, SyncAction::kRelease)});
  std::uint64_t waited = 9;
  Script waiter(5, {Step::raw(Op::compute(from_ns(1000))),
                    Step::act(m.mutex, SyncAction::kAcquire, [&](std::uint64_t x) { waited = x; }),
                    Step::act(m.mutex, SyncAction::kRelease)});
  m.r.ex.start(0, owner);
  m.r.ex.start(5, waiter);
  m.r.ex.run();
  const auto& w = m.r.ex.stats(5);
  EXPECT_EQ(waited, 1u);
  EXPECT_EQ(m.mutex.stats().sleeps, 1u);
  EXPECT_GT(w.finished, kHold + kWakeup);  // woken after the unlock, then the latency
  EXPECT_LT(w.finished, kHold + kWakeup + from_ns(2000));
  EXPECT_GT(w.sleep, kHold + kWakeup - from_ns(2000));
  EXPECT_LT(w.cpu_time(), from_ns(2000));                // CPU time: the fast path, the queueing, the retry
  EXPECT_LT(w.cpu_time() * 20, w.finished - w.started);  // much less than the wall time
  EXPECT_EQ(m.mutex.waiters(), 0u);
  EXPECT_EQ(m.r.ex.word(m.lines[0]), SleepingMutex::kUnlocked);
}

TEST(SleepingMutex, ContendingCpusNeverOverlapAndNoWakeUpIsLost) {
  MutexRig m;
  const LineId counter = m.r.mem.add_line(1);
  LockLoopParams p;
  p.think = from_ns(500);
  p.hold = from_ns(2000);
  p.iterations = 15;
  p.counter = counter;
  testing::run_lock_loops(m.r, m.mutex, p);  // throws if a sleeper is never woken
  EXPECT_EQ(m.r.ex.word(counter), 15u * m.r.m.cpus());
  EXPECT_GT(m.mutex.stats().sleeps, 0u);
  EXPECT_EQ(m.mutex.waiters(), 0u);
  EXPECT_EQ(m.r.ex.word(m.lines[0]), SleepingMutex::kUnlocked);
  m.r.mem.check_all();
}

TEST(SleepingMutex, UnderTheSameContentionItBurnsFarLessCpuThanASpinlock) {
  auto cpu_share = [](bool use_mutex) {
    MutexRig m;
    TicketSpinlock spin(m.r.mem.add_line(0));
    SyncPrimitive& lock = use_mutex ? static_cast<SyncPrimitive&>(m.mutex) : spin;
    LockLoopParams p;
    p.think = from_ns(1000);
    p.hold = from_ns(20000);
    p.iterations = 5;
    testing::run_lock_loops(m.r, lock, p);
    double cpu = 0, wall = 0;
    for (CpuId c = 0; c < m.r.m.cpus(); ++c) {
      cpu += sim::to_ns(m.r.ex.stats(c).cpu_time());
      wall += sim::to_ns(m.r.ex.stats(c).finished - m.r.ex.stats(c).started);
    }
    return cpu / wall;
  };
  const double spin = cpu_share(false), sleep = cpu_share(true);
  EXPECT_GT(spin, 0.99);  // a spinning waiter is always on the CPU
  EXPECT_LT(sleep, 0.5);  // sleepers mostly are not
}

}  // namespace
}  // namespace walksim::sync
