// `walksim trace --contend`: another CPU holds one of the call's locks when the call reaches it.
// The caller's slow path and the holder's release appear in issue order, and they follow the
// variant's lock: 2.6.20's mutex sleeps and is woken through the runqueue, 2.6.35's spins on the
// running owner, a spinlock spins.
#include <gtest/gtest.h>

#include <algorithm>

#include "models/kernel/test_support.hpp"

namespace walksim::kernel {
namespace {

constexpr const char* kOpenbenchCall = "open ./openbench.1 O_WRONLY|O_CREAT";

TraceResult contended(const std::string& kernel, const std::string& call, const std::string& lock,
                      sim::Picos hold = sim::from_ns(20000)) {
  machine::Machine m(machine::load_machine("x86-32way-2007", testing::machine_dirs()));
  TraceRequest req;
  req.syscall = call;
  req.cwd = "/mnt/ram";
  req.contend = lock;
  req.hold = hold;
  return trace_syscall(m, load_kernel(kernel, testing::kernel_dirs()), req);
}

bool has(const TraceResult& t, std::uint32_t cpu, const std::string& op) {
  return std::any_of(t.ops.begin(), t.ops.end(), [&](const TraceOp& o) { return o.cpu == cpu && o.op == op; });
}

// The holder's last operation (its release) and the caller's operations after it.
sim::Picos holder_release(const TraceResult& t) {
  sim::Picos at = 0;
  for (const auto& o : t.ops) {
    if (o.cpu == t.contention->holder_cpu) at = o.at;
  }
  return at;
}

TEST(TraceContention, A2620MutexWaiterSleepsAndIsWokenThroughItsRunqueueAfterTheUnlock) {
  const auto t = contended("linux-2.6.20", kOpenbenchCall, "i_mutex");
  ASSERT_TRUE(t.contention);
  EXPECT_EQ(t.contention->object, "inode of 'ram'");
  EXPECT_EQ(t.contention->kop, "mutex_lock");
  EXPECT_EQ(t.contention->holder_cpu, 31u);
  EXPECT_TRUE(has(t, 0, "load-sleep"));
  EXPECT_TRUE(has(t, 0, "idle"));  // the woken CPU's way back (mwait exit on this machine)
  // The waker's try_to_wake_up writes the sleeper's runqueue.
  EXPECT_TRUE(std::any_of(t.ops.begin(), t.ops.end(), [](const TraceOp& o) {
    return o.cpu == 31 && o.kop == "mutex_unlock" && o.object == "runqueue of cpu 0" && o.op == "store";
  }));
  // The caller sleeps through the hold and runs again only after the waker's unlock.
  const sim::Picos release = holder_release(t);
  const auto idle = std::find_if(t.ops.begin(), t.ops.end(), [](const TraceOp& o) { return o.op == "idle"; });
  ASSERT_NE(idle, t.ops.end());
  EXPECT_GT(idle->at, release - sim::from_ns(1000));  // issued once woken, within the unlock's last steps
  for (auto it = idle + 1; it != t.ops.end(); ++it) {
    if (it->cpu == 0) {
      EXPECT_GT(it->at, release) << it->kop << " " << it->object;
    }
  }
  EXPECT_GT(t.totals.asleep, sim::from_ns(10000));
  EXPECT_GT(t.totals.elapsed, sim::from_ns(18000));  // the hold, less the part before the call reached the lock
  EXPECT_TRUE(std::any_of(t.ops.begin(), t.ops.end(),
                          [](const TraceOp& o) { return o.cpu == 0 && o.field == "context switch"; }));
}

TEST(TraceContention, A2635MutexWaiterSpinsWhileTheOwnerRunsAndNeverSleeps) {
  const auto t = contended("linux-2.6.35", kOpenbenchCall, "i_mutex");
  EXPECT_FALSE(has(t, 0, "load-sleep"));
  EXPECT_FALSE(has(t, 0, "idle"));
  EXPECT_TRUE(has(t, 0, "load-spin"));
  EXPECT_EQ(t.totals.asleep, 0);
  EXPECT_GT(t.totals.elapsed, sim::from_ns(18000));
}

TEST(TraceContention, ASpinlockWaiterSpinsUntilTheHoldersRelease) {
  const auto t = contended("linux-2.6.20", kOpenbenchCall, "files_lock", sim::from_ns(5000));
  EXPECT_EQ(t.contention->kop, "spin_lock");
  EXPECT_EQ(t.contention->object, "globals");
  EXPECT_TRUE(has(t, 0, "load-spin"));
  EXPECT_FALSE(has(t, 0, "load-sleep"));
  const sim::Picos release = holder_release(t);
  const auto last = std::find_if(t.ops.rbegin(), t.ops.rend(), [](const TraceOp& o) {
    return o.cpu == 0 && o.kop == "spin_lock" && o.field == "files_lock";
  });
  ASSERT_NE(last, t.ops.rend());
  EXPECT_GT(last->at, release - sim::from_ns(1));  // the winning RMW comes after the release store
}

TEST(TraceContention, TheCallsOwnCountsOnlyGrowWithTheSlowPath) {
  const auto quiet = testing::trace("linux-2.6.20", kOpenbenchCall, {}, "x86-32way-2007");
  machine::Machine m(machine::load_machine("x86-32way-2007", testing::machine_dirs()));
  TraceRequest req;
  req.syscall = kOpenbenchCall;
  const auto busy = trace_syscall(m, load_kernel("linux-2.6.20", testing::kernel_dirs()), [&] {
    TraceRequest r = req;
    r.contend = "i_mutex";
    return r;
  }());
  EXPECT_FALSE(quiet.contention);
  EXPECT_GT(busy.totals.atomic_rmw, quiet.totals.atomic_rmw);
  EXPECT_EQ(busy.totals.lock_acquire, quiet.totals.lock_acquire);
  EXPECT_EQ(busy.failed, quiet.failed);
}

TEST(TraceContention, ALockTheCallDoesNotTakeIsRefusedWithTheOnesItTakes) {
  try {
    contended("linux-2.6.20", kOpenbenchCall, "i_mutx");
    FAIL() << "no error";
  } catch (const TraceRequestError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("did you mean 'i_mutex'"), std::string::npos) << what;
    EXPECT_NE(what.find("files_lock"), std::string::npos) << what;
  }
  EXPECT_THROW(contended("linux-2.6.35", "stat ./file", "i_mutex"), TraceRequestError);
}

TEST(TraceContention, AReadLockAndTheCallersOwnCpuAreRefused) {
  EXPECT_THROW(contended("linux-2.6.20", kOpenbenchCall, "lock"), TraceRequestError);  // fs_struct's rwlock
  machine::Machine m(machine::load_machine("x86-32way-2007", testing::machine_dirs()));
  TraceRequest req;
  req.syscall = kOpenbenchCall;
  req.contend = "i_mutex";
  for (std::uint32_t cpu : {0u, 32u}) {
    req.holder_cpu = cpu;
    EXPECT_THROW(trace_syscall(m, load_kernel("linux-2.6.20", testing::kernel_dirs()), req), TraceRequestError) << cpu;
  }
}

}  // namespace
}  // namespace walksim::kernel
