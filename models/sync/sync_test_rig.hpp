// Test helpers for the primitives: a machine with its memory and executor, and a Program that runs
// a list of steps (an action on a primitive, a raw op, or a note of the time) once, in order.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "models/coherence/memory_system.hpp"
#include "models/coherence/test_machines.hpp"
#include "models/exec/executor.hpp"
#include "models/sync/lock_loop.hpp"
#include "models/sync/scheduler.hpp"
#include "models/sync/sync_primitive.hpp"

namespace walksim::sync::testing {

struct Rig {
  explicit Rig(machine::MachineSpec spec, bool check = true)
      : m(std::move(spec)), sim(1), mem(m, check), ex(sim, mem) {}
  machine::Machine m;
  sim::Simulation sim;
  coherence::MemorySystem mem;
  exec::Executor ex;
};

// A scheduler on the rig's machine: four new lines per CPU on its node, and an IPI's trip as the
// machine's latency between the two CPUs' cache domains (as the kernel runtime makes it).
inline std::unique_ptr<Scheduler> make_scheduler(Rig& r, SchedulerCosts costs) {
  std::vector<Scheduler::CpuLines> lines;
  for (CpuId c = 0; c < r.m.cpus(); ++c) {
    const auto node = r.m.node_of(r.m.core_of(c));
    lines.push_back({r.mem.add_line(node), r.mem.add_line(node), r.mem.add_line(node), r.mem.add_line(node)});
  }
  const machine::Machine& m = r.m;
  return std::make_unique<Scheduler>(std::move(lines), costs, [&m](CpuId a, CpuId b) {
    return m.domain_to_domain(m.domain_of(m.core_of(a)), m.domain_of(m.core_of(b)));
  });
}

// The scheduler's costs in the sleeping locks' tests: round figures far apart, so that a test can
// tell which of them a time includes.
inline constexpr Picos kTestSwitch = sim::from_ns(1000), kTestIpiSend = sim::from_ns(300),
                       kTestWakeExit = sim::from_ns(700);
inline SchedulerCosts test_scheduler_costs(std::uint32_t ttwu_passes = 2, bool wake_by_ipi = true) {
  SchedulerCosts c;
  c.context_switch = kTestSwitch;
  c.wake_by_ipi = wake_by_ipi;
  c.ipi_send = kTestIpiSend;
  c.wake_exit = kTestWakeExit;
  c.ttwu_rq_lock_passes = ttwu_passes;
  return c;
}

// One LockLoop of `p` on every CPU of the rig's machine, run to the end (the mutual-exclusion
// scenario every lock's test uses).
inline void run_lock_loops(Rig& r, SyncPrimitive& lock, const LockLoopParams& p) {
  std::vector<std::unique_ptr<LockLoop>> loops;
  for (CpuId c = 0; c < r.m.cpus(); ++c) {
    loops.push_back(std::make_unique<LockLoop>(lock, c, p));
    r.ex.start(c, *loops.back());
  }
  r.ex.run();
}

// The mutual-exclusion scenario: every CPU takes `lock` `iterations` times, thinking 50 ns between
// acquisitions and holding it `hold` while it increments a plain (non-atomic) counter on a line
// homed on node 1. Returns the counter: iterations x CPUs unless two holders overlapped.
inline std::uint64_t count_under_lock(Rig& r, SyncPrimitive& lock, std::uint64_t iterations, Picos hold) {
  const LineId counter = r.mem.add_line(1);
  LockLoopParams p;
  p.think = sim::from_ns(50);
  p.hold = hold;
  p.iterations = iterations;
  p.counter = counter;
  run_lock_loops(r, lock, p);
  return r.ex.word(counter);
}

// Two sockets of four cores with a shared inclusive L3: on-chip and cross-socket transfers.
inline machine::MachineSpec small_machine() {
  return coherence::testing::two_socket(machine::ProtocolKind::kMesifInclusive, machine::Inclusion::kInclusive, 4);
}

// One step of a Script: either an action on a primitive (its result is passed to `then`), or a
// raw op.
struct Step {
  SyncPrimitive* prim = nullptr;
  SyncAction action = SyncAction::kAcquire;
  std::uint64_t arg = 0, arg2 = 0;
  std::function<void(std::uint64_t)> then;
  exec::Op op;

  static Step act(SyncPrimitive& p, SyncAction a, std::function<void(std::uint64_t)> then = {}, std::uint64_t arg = 0,
                  std::uint64_t arg2 = 0) {
    Step s;
    s.prim = &p;
    s.action = a;
    s.arg = arg;
    s.arg2 = arg2;
    s.then = std::move(then);
    return s;
  }
  static Step raw(exec::Op op) {
    Step s;
    s.op = op;
    return s;
  }
};

class Script final : public exec::Program {
 public:
  Script(CpuId cpu, std::vector<Step> steps) : cpu_(cpu), steps_(std::move(steps)) {}

  bool next(std::uint64_t last, exec::Op& out) override {
    while (i_ < steps_.size()) {
      Step& s = steps_[i_];
      if (!s.prim) {
        if (!raw_issued_) {
          raw_issued_ = true;
          out = s.op;
          return true;
        }
        raw_issued_ = false;
        ++i_;
        continue;
      }
      if (!started_) {
        call_ = SyncCall{};
        call_.arg = s.arg;
        call_.arg2 = s.arg2;
        started_ = true;
      }
      if (s.prim->step(s.action, cpu_, call_, last, out)) return true;
      started_ = false;
      if (s.then) s.then(call_.result);
      ++i_;
    }
    return false;
  }

 private:
  CpuId cpu_;
  std::vector<Step> steps_;
  std::size_t i_ = 0;
  bool raw_issued_ = false;
  bool started_ = false;
  SyncCall call_;
};

// CPU 0 takes `lock` and holds it for `hold`; CPU 5 tries 1 us after the start; both release.
// Returns the waiter's acquisition result (1: it waited). The two-party scenario of the sleeping
// locks' tests.
inline std::uint64_t owner_and_waiter(Rig& r, SyncPrimitive& lock, Picos hold) {
  Script owner(0, {Step::act(lock, SyncAction::kAcquire), Step::raw(exec::Op::compute(hold)),
                   Step::act(lock, SyncAction::kRelease)});
  std::uint64_t waited = 9;
  Script waiter(5, {Step::raw(exec::Op::compute(sim::from_ns(1000))),
                    Step::act(lock, SyncAction::kAcquire, [&](std::uint64_t x) { waited = x; }),
                    Step::act(lock, SyncAction::kRelease)});
  r.ex.start(0, owner);
  r.ex.start(5, waiter);
  r.ex.run();
  return waited;
}

}  // namespace walksim::sync::testing
