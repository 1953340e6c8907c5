// The sleeping mutex: one RMW fast paths, a contended waiter that sleeps through the scheduler
// (schedule() out and in as CPU work, no CPU while asleep, the wake-up's flight), the waker's
// try_to_wake_up, mutual exclusion without lost wake-ups, and CPU time against a spinlock.
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

constexpr Picos kSwitch = testing::kTestSwitch, kIpiSend = testing::kTestIpiSend, kWakeExit = testing::kTestWakeExit;

SchedulerCosts costs(std::uint32_t passes = 2) { return testing::test_scheduler_costs(passes); }

struct MutexRig {
  explicit MutexRig(std::uint32_t passes = 2, bool spin_on_owner = false)
      : r(testing::small_machine()),
        sched(testing::make_scheduler(r, costs(passes))),
        lines(add_sync_lines(r.mem, "mutex", 0)),
        mutex(lines[0], *sched, spin_on_owner) {}
  Rig r;
  std::unique_ptr<Scheduler> sched;
  std::vector<LineId> lines;
  SleepingMutex mutex;
};

std::uint64_t owner_and_waiter(MutexRig& m, Picos hold) { return testing::owner_and_waiter(m.r, m.mutex, hold); }

TEST(SleepingMutex, UncontendedLockAndUnlockAreOneRmwEach) {
  MutexRig m;
  Script p(0, {Step::act(m.mutex, SyncAction::kAcquire), Step::act(m.mutex, SyncAction::kRelease)});
  m.r.ex.start(0, p);
  m.r.ex.run();
  EXPECT_EQ(m.mutex.stats().rmws, 2u);
  EXPECT_EQ(m.mutex.stats().stores + m.mutex.stats().loads, 0u);
  EXPECT_EQ(m.r.ex.word(m.lines[0]), SleepingMutex::kUnlocked);
}

// The waiter sleeps through the owner's hold: two context switches of CPU (out and back in), no CPU
// while asleep, then the wake-up's flight (the IPI's trip between the two CPUs and its entry),
// which counts as sleep too; the owner's unlock pays try_to_wake_up, the IPI's send included.
TEST(SleepingMutex, AContendedWaiterSleepsThroughTheSchedulerAndTheWakerPaysTheWakeUp) {
  MutexRig m;
  constexpr Picos kHold = from_ns(50000);
  const std::uint64_t waited = owner_and_waiter(m, kHold);
  const Picos released = m.r.ex.stats(0).finished;
  const auto& w = m.r.ex.stats(5);
  const auto& o = m.r.ex.stats(0);
  EXPECT_EQ(waited, 1u);
  EXPECT_EQ(m.mutex.stats().sleeps, 1u);
  EXPECT_EQ(m.sched->wakeups(), 1u);
  // Woken only after the unlock began, then the flight and the switch back in before it retries.
  EXPECT_GT(w.finished, kHold + kWakeExit + kSwitch);
  EXPECT_LT(w.finished, released + kWakeExit + kSwitch + from_ns(3000));
  EXPECT_GT(w.sleep, kHold - kSwitch - from_ns(3000));  // asleep from the switch out to the wake-up's arrival
  // CPU: the two switches and the mutex's and scheduler's few accesses; never the sleep.
  EXPECT_GT(w.cpu_time(), 2 * kSwitch);
  EXPECT_LT(w.cpu_time(), 2 * kSwitch + from_ns(3000));
  EXPECT_EQ(w.cpu_time() + w.sleep, w.finished - w.started);
  // The owner paid the wake-up: its CPU time beyond the hold includes the IPI's send.
  EXPECT_GT(o.cpu_time(), kHold + kIpiSend);
  EXPECT_EQ(m.mutex.waiters(), 0u);
  EXPECT_EQ(m.r.ex.word(m.lines[0]), SleepingMutex::kUnlocked);
}

// 2.6.35's try_to_wake_up takes the sleeper's runqueue lock twice, 2.6.20's once: one RMW more.
TEST(SleepingMutex, TheWakeUpTakesTheRunqueueLockOnceOrTwiceAsTheVariantDoes) {
  auto rmws = [](std::uint32_t passes) {
    MutexRig m(passes);
    owner_and_waiter(m, from_ns(20000));
    return m.r.ex.stats(0).atomics;
  };
  EXPECT_EQ(rmws(2), rmws(1) + 1);
}

// 2.6.30+: while the owner's task is on its CPU the waiter spins (CPU time, no sleep, no wake-up)
// and takes the mutex with a cmpxchg once it is released; the owner records itself with a store
// on the mutex line when it takes it and another when it releases it.
TEST(SleepingMutex, WithSpinOnOwnerAWaiterSpinsWhileTheOwnerRuns) {
  MutexRig m(2, /*spin_on_owner=*/true);
  constexpr Picos kHold = from_ns(20000);
  const std::uint64_t waited = owner_and_waiter(m, kHold);
  const auto& w = m.r.ex.stats(5);
  EXPECT_EQ(waited, 1u);
  EXPECT_EQ(m.mutex.stats().sleeps, 0u);
  EXPECT_EQ(m.sched->wakeups(), 0u);
  EXPECT_EQ(w.sleep, 0);
  EXPECT_GT(w.spin, kHold - from_ns(3000));
  EXPECT_GT(w.finished, kHold);
  // Set and clear the owner, twice; and the owner's unlock slow path (the waiter's failed `lock decl`
  // left the count contended): count = 1 and wait_lock's release.
  EXPECT_EQ(m.mutex.stats().stores, 6u);
  EXPECT_EQ(m.r.ex.word(m.lines[0]), SleepingMutex::kUnlocked);
  EXPECT_EQ(m.mutex.kind(), "mutex-spin");
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

// A randomized stress of lock and unlock on every CPU: random (exponential) think times, holds
// from 0 to 3 us, with the mutex of either era, one or two runqueue lock passes, and both ways of
// waking an idle CPU. Mutual exclusion holds (the non-atomic counter under the lock is exact), no
// wake-up is lost (run() throws if a sleeper is never woken), and the mutex ends free and unqueued.
TEST(SleepingMutex, ARandomizedStressLosesNoWakeUpWithEitherMutexAndEitherWayOfWaking) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    for (const bool spin : {false, true}) {
      for (const bool ipi : {false, true}) {
        SCOPED_TRACE("seed " + std::to_string(seed) + (spin ? " spin" : " sleep") + (ipi ? " ipi" : " mwait"));
        Rig r(testing::small_machine());
        SchedulerCosts c = costs(seed % 2 ? 1 : 2);
        c.wake_by_ipi = ipi;
        auto sched = testing::make_scheduler(r, c);
        const auto lines = add_sync_lines(r.mem, "mutex", 0);
        SleepingMutex mutex(lines[0], *sched, spin);
        const LineId counter = r.mem.add_line(1);
        LockLoopParams p;
        p.think = from_ns(static_cast<double>(200 * seed));
        p.hold = from_ns(static_cast<double>((seed * 517) % 3000));
        p.iterations = 12;
        p.counter = counter;
        p.seed = seed;
        testing::run_lock_loops(r, mutex, p);
        EXPECT_EQ(r.ex.word(counter), 12u * r.m.cpus());
        EXPECT_EQ(mutex.waiters(), 0u);
        EXPECT_EQ(r.ex.word(lines[0]), SleepingMutex::kUnlocked);
        r.mem.check_all();
      }
    }
  }
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
