// The pthread mutex on futexes: one RMW each way when nobody waits; a contended locker that makes a
// FUTEX_WAIT system call and sleeps, an unlocker that makes a FUTEX_WAKE; glibc's extra FUTEX_WAKE
// by a woken waiter that finds nobody queued; mutual exclusion without lost wake-ups.
#include "models/sync/futex_mutex.hpp"

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
constexpr Picos kSyscall = from_ns(60), kFutexWork = from_ns(70);

SchedulerCosts sched_costs(bool ipi = true) { return testing::test_scheduler_costs(2, ipi); }

struct FutexRig {
  explicit FutexRig(bool ipi = true, FutexCosts futex = {kSyscall, kFutexWork})
      : r(testing::small_machine()),
        sched(testing::make_scheduler(r, sched_costs(ipi))),
        lines(add_sync_lines(r.mem, "pthread-mutex", 0)),
        mutex(lines[0], lines[1], std::span<const LineId>(lines).subspan(2), *sched, futex) {}
  Rig r;
  std::unique_ptr<Scheduler> sched;
  std::vector<LineId> lines;
  FutexMutex mutex;
};

TEST(FutexMutex, UncontendedLockAndUnlockAreOneRmwEachAndNoSystemCall) {
  FutexRig m;
  Script p(0, {Step::act(m.mutex, SyncAction::kAcquire), Step::act(m.mutex, SyncAction::kRelease)});
  m.r.ex.start(0, p);
  m.r.ex.run();
  EXPECT_EQ(m.mutex.stats().rmws, 2u);  // lock cmpxchg, lock decl
  EXPECT_EQ(m.mutex.futex_calls(), 0u);
  EXPECT_EQ(m.mutex.stats().sleeps, 0u);
  EXPECT_EQ(m.r.ex.word(m.lines[0]), FutexMutex::kUnlocked);
  EXPECT_LT(m.r.ex.stats(0).cpu_time(), kSyscall + kFutexWork);  // no system call (the rest: cold misses)
}

// CPU 0 holds the mutex for 50 us; CPU 5 tries 1 us in. The waiter's xchg makes the word 2 and it
// sleeps in FUTEX_WAIT; the owner's `lock decl` leaves 1, so it stores 0 and makes a FUTEX_WAKE. The
// woken waiter's xchg 2 takes the mutex with the word at 2, so its own unlock makes a FUTEX_WAKE too,
// which finds nobody (glibc cannot tell that no one waits any more): three futex calls in all.
TEST(FutexMutex, AContendedLockerSleepsInFutexWaitAndEveryUnlockOfAContendedWordWakes) {
  FutexRig m;
  constexpr Picos kHold = from_ns(50000);
  const std::uint64_t waited = testing::owner_and_waiter(m.r, m.mutex, kHold);
  const auto& w = m.r.ex.stats(5);
  const auto& o = m.r.ex.stats(0);
  EXPECT_EQ(waited, 1u);
  EXPECT_EQ(m.mutex.stats().sleeps, 1u);
  EXPECT_EQ(m.sched->wakeups(), 1u);
  EXPECT_EQ(m.mutex.futex_calls(), 3u);
  EXPECT_EQ(m.mutex.waiters(), 0u);
  EXPECT_EQ(m.r.ex.word(m.lines[0]), FutexMutex::kUnlocked);
  // The waiter ran only after the owner's hold, the wake-up's flight and its switch back in.
  EXPECT_GT(w.finished, kHold + kWakeExit + kSwitch);
  EXPECT_GT(w.sleep, kHold - kSwitch - from_ns(3000));
  // Its CPU: two system calls (FUTEX_WAIT, then its own unlock's FUTEX_WAKE) and two switches.
  EXPECT_GT(w.cpu_time(), 2 * (kSyscall + kFutexWork) + 2 * kSwitch);
  EXPECT_EQ(w.cpu_time() + w.sleep, w.finished - w.started);
  // The owner paid its FUTEX_WAKE and the wake-up's IPI.
  EXPECT_GT(o.cpu_time(), kHold + kSyscall + kFutexWork + kIpiSend);
}

// A randomized stress of lock and unlock on every CPU: random think times and holds from 0 to 3 us,
// waking idle CPUs by IPI or mwait, with and without the system calls' private work (without it a
// waker's FUTEX_WAKE can follow its store of 0 closely enough to race a waiter's check of the word,
// which only the bucket lock orders). Mutual exclusion holds (the plain counter under the lock is
// exact), no wake-up is lost (run() throws if a sleeper is never woken), the chain ends empty and
// the word 0, and nobody slept without a FUTEX_WAKE to wake it.
TEST(FutexMutex, ARandomizedStressLosesNoWakeUpAndEndsUnlocked) {
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    for (const bool ipi : {false, true}) {
      for (const bool free_calls : {false, true}) {
        SCOPED_TRACE("seed " + std::to_string(seed) + (ipi ? " ipi" : " mwait") + (free_calls ? " free calls" : ""));
        FutexRig m(ipi, free_calls ? FutexCosts{} : FutexCosts{kSyscall, kFutexWork});
        const LineId counter = m.r.mem.add_line(1);
        LockLoopParams p;
        p.think = from_ns(static_cast<double>(150 * seed));
        p.hold = from_ns(static_cast<double>((seed * 517) % 3000));
        p.iterations = 12;
        p.counter = counter;
        p.seed = seed;
        testing::run_lock_loops(m.r, m.mutex, p);
        EXPECT_EQ(m.r.ex.word(counter), 12u * m.r.m.cpus());
        EXPECT_EQ(m.mutex.waiters(), 0u);
        EXPECT_EQ(m.r.ex.word(m.lines[0]), FutexMutex::kUnlocked);
        EXPECT_TRUE(TicketSpinlock(SyncWord(m.lines[1])).is_unlocked(m.r.ex.word(m.lines[1])));  // hb->lock free
        EXPECT_GT(m.mutex.stats().sleeps, 0u);
        EXPECT_LE(m.sched->wakeups(), m.mutex.futex_calls());
        m.r.mem.check_all();
      }
    }
  }
}

TEST(FutexMutex, TheRegistryMakesItWithItsBucketAndAFutexQPerCpu) {
  const SyncKind& k = find_sync_kind("pthread-mutex");
  EXPECT_EQ(k.role, SyncRole::kSleeping);
  EXPECT_EQ(k.lines.count(8), 10u);
  Rig r(testing::small_machine());
  const auto lines = add_sync_lines(r.mem, "pthread-mutex", 0);
  SyncConfig c;
  c.lines = lines;
  c.cpus = r.m.cpus();
  EXPECT_THROW(make_sync(k, c), std::invalid_argument);  // no scheduler to sleep through
  auto sched = testing::make_scheduler(r, sched_costs());
  c.scheduler = sched.get();
  EXPECT_EQ(make_sync(k, c)->kind(), "pthread-mutex");
}

}  // namespace
}  // namespace walksim::sync
