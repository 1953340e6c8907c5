// The executor's contract: programs run in global time order, stores do not stall the thread,
// spin-waits park and are woken by the write that changes the line, a lock built from these
// operations gives mutual exclusion, and a wait that nothing can end is reported.
#include "models/exec/executor.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "models/coherence/test_machines.hpp"
#include "models/exec/test_rig.hpp"

namespace walksim::exec {
namespace {

using machine::Machine;
using machine::ProtocolKind;
using sim::from_ns;

using testing::Rig;
using testing::Script;

TEST(Executor, AStoreDoesNotStallTheThreadButAFenceWaitsForIt) {
  Rig r(coherence::testing::chain(2, ProtocolKind::kDirectory));
  LineId l = r.mem.add_line(1);
  int step = 0;
  Script p([&](std::uint64_t, Op& op) {
    if (step == 0) op = Op::store(l, 1);
    if (step == 1) op = Op::fence();
    return step++ < 2;
  });
  r.ex.start(0, p);
  r.ex.run();
  // Store miss to a remote home: L2 4 + 20 + max(dir 7, dram 50) + 20 = 94 ns; then the 2 ns fence.
  EXPECT_EQ(r.ex.stats(0).finished, from_ns(94 + 2));
  EXPECT_EQ(r.ex.word(l), 1u);
}

// A benchmark's pause that must let its last store reach the other cores first starts when that
// store is visible; plain private work overlaps the store's drain.
TEST(Executor, WorkAfterOwnStoresStartsWhenTheBufferedStoreIsVisible) {
  for (const bool after : {false, true}) {
    Rig r(coherence::testing::chain(2, ProtocolKind::kDirectory));
    LineId l = r.mem.add_line(1);
    int step = 0;
    Script p([&](std::uint64_t, Op& op) {
      if (step == 0) op = Op::store(l, 1);
      if (step == 1) op = after ? Op::compute_after_own_stores(from_ns(10)) : Op::compute(from_ns(10));
      return step++ < 2;
    });
    r.ex.start(0, p);
    r.ex.run();
    // The store miss completes at 94 ns (above); the 10 ns of work run inside it, or after it.
    EXPECT_EQ(r.ex.stats(0).finished, from_ns(after ? 104 : 94)) << (after ? "after own stores" : "plain");
  }
}

TEST(Executor, ASpinWaitIsWokenByTheWriteThatSatisfiesIt) {
  Rig r(coherence::testing::chain(2, ProtocolKind::kDirectory));
  LineId flag = r.mem.add_line(0);
  int a = 0, b = 0;
  Script waiter([&](std::uint64_t, Op& op) {
    if (a == 0) op = Op::spin_until(flag, 1);
    return a++ < 1;
  });
  Script setter([&](std::uint64_t, Op& op) {
    if (b == 0) op = Op::compute(from_ns(1000));
    if (b == 1) op = Op::store(flag, 1);
    return b++ < 2;
  });
  r.ex.start(0, waiter);
  r.ex.start(1, setter);
  r.ex.run();
  EXPECT_GT(r.ex.stats(0).finished, from_ns(1000));
  EXPECT_GT(r.ex.stats(0).spin, from_ns(900));
  EXPECT_EQ(r.ex.stats(0).cpu_time(), r.ex.stats(0).finished);  // spinning burns CPU
}

TEST(Executor, AWaitThatNoWriteCanEndIsReported) {
  Rig r(coherence::testing::chain(2, ProtocolKind::kDirectory));
  LineId flag = r.mem.add_line(0);
  int a = 0;
  Script waiter([&](std::uint64_t, Op& op) {
    op = Op::spin_until(flag, 1);
    return a++ < 1;
  });
  r.ex.start(0, waiter);
  EXPECT_THROW(r.ex.run(), std::logic_error);
}

// Ticket lock from xadd + spin-wait + store, protecting a non-atomic counter increment.
class TicketIncrementer : public Program {
 public:
  TicketIncrementer(LineId lock, LineId counter, int iterations) : lock_(lock), counter_(counter), left_(iterations) {}
  bool next(std::uint64_t last, Op& op) override {
    switch (step_++) {
      case 0:
        if (left_-- == 0) return false;
        op = Op::rmw_add(lock_, std::uint64_t{1} << 32);  // take a ticket (tail in the high half)
        return true;
      case 1:
        ticket_ = last >> 32;
        op = Op::spin_until(lock_, ticket_, 0xffffffffu);  // wait until head == ticket
        return true;
      case 2:
        op = Op::load(counter_);
        return true;
      case 3:
        op = Op::store(counter_, last + 1);
        return true;
      default:
        step_ = 0;
        op = Op::store(lock_, ticket_ + 1, 0xffffffffu);  // release: head = ticket + 1
        return true;
    }
  }

 private:
  LineId lock_, counter_;
  int left_;
  int step_ = 0;
  std::uint64_t ticket_ = 0;
};

TEST(Executor, ATicketLockBuiltFromTheseOperationsGivesMutualExclusion) {
  auto spec = coherence::testing::two_socket(ProtocolKind::kMesifInclusive, machine::Inclusion::kInclusive, 4, 2);
  Rig r(spec);
  LineId lock = r.mem.add_line(0), counter = r.mem.add_line(1);
  std::vector<std::unique_ptr<TicketIncrementer>> progs;
  for (CpuId c = 0; c < r.m.cpus(); ++c) {
    progs.push_back(std::make_unique<TicketIncrementer>(lock, counter, 50));
    r.ex.start(c, *progs.back());
  }
  r.ex.run();
  EXPECT_EQ(r.ex.word(counter), 50u * r.m.cpus());
  r.mem.check_all();
}

TEST(Executor, TheSameSeedAndProgramsGiveTheSameTimes) {
  auto run_once = [] {
    Rig r(coherence::testing::two_socket(ProtocolKind::kMoesiBroadcast, machine::Inclusion::kVictim, 4));
    LineId lock = r.mem.add_line(0), counter = r.mem.add_line(1);
    std::vector<std::unique_ptr<TicketIncrementer>> progs;
    for (CpuId c = 0; c < r.m.cpus(); ++c) {
      progs.push_back(std::make_unique<TicketIncrementer>(lock, counter, 20));
      r.ex.start(c, *progs.back());
    }
    r.ex.run();
    std::vector<Picos> t;
    for (CpuId c = 0; c < r.m.cpus(); ++c) t.push_back(r.ex.stats(c).finished);
    return t;
  };
  EXPECT_EQ(run_once(), run_once());
}

}  // namespace
}  // namespace walksim::exec

namespace walksim::exec {
namespace {

TEST(Executor, ASleeperBurnsNoCpuAndPaysTheWakeUpLatency) {
  Rig r(coherence::testing::chain(2, ProtocolKind::kDirectory));
  LineId flag = r.mem.add_line(0);
  int a = 0, b = 0;
  Script sleeper([&](std::uint64_t, Op& op) {
    if (a == 0) op = Op::sleep_until(flag, 1, from_ns(5000));
    return a++ < 1;
  });
  Script setter([&](std::uint64_t, Op& op) {
    if (b == 0) op = Op::compute(from_ns(10000));
    if (b == 1) op = Op::store(flag, 1);
    return b++ < 2;
  });
  r.ex.start(0, sleeper);
  r.ex.start(1, setter);
  r.ex.run();
  EXPECT_GT(r.ex.stats(0).finished, from_ns(15000));  // the write lands after 10 us, then 5 us to wake
  EXPECT_LT(r.ex.stats(0).cpu_time(), from_ns(1000));
}

}  // namespace
}  // namespace walksim::exec
