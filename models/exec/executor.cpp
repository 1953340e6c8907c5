// The thread scheduler and the semantics of each operation: loads wait for their data, stores go
// to the store buffer, atomics and fences drain it first, spin-waits park on the line.
#include "models/exec/executor.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace walksim::exec {

using coherence::AccessKind;
using coherence::ServedBy;

Executor::Executor(sim::Simulation& sim, coherence::MemorySystem& mem)
    : sim_(sim), mem_(mem), threads_(mem.machine().cpus()), hosts_(mem.machine().cpus(), 0) {}

void Executor::start(CpuId cpu, Program& program, Picos at) {
  Thread& t = threads_.at(cpu);
  if (t.state == State::kRunnable || t.state == State::kParked) {
    throw std::logic_error("cpu " + std::to_string(cpu) + " already runs a program");
  }
  t = Thread{};
  t.program = &program;
  t.state = State::kRunnable;
  t.clock = at;
  t.stats.started = at;
  hosts_[cpu] = 1;
  set_core_speed(mem_.machine().core_of(cpu));
  sim_.schedule(at, this, cpu);
}

// Static rule: a sibling counts from its start to the end of the run, finished, asleep or spinning
// alike. Threads run ahead on their own clocks, so whether a sibling is still running "now" is not
// known when a thread executes; the workloads pin every process for the whole run.
void Executor::set_core_speed(machine::CoreId core) {
  const auto& m = mem_.machine();
  const CpuId first = m.first_cpu_of(core);
  const std::uint32_t n = m.spec().threads_per_core;
  std::uint32_t hosting = 0;
  for (CpuId c = first; c < first + n; ++c) hosting += hosts_[c];
  // The generation floor times nothing, so it keeps every access at its fixed cost.
  const CoreSpeed speed = hosting > 1 && !mem_.floor_mode() ? CoreSpeed(m.smt_throughput_ppm()) : CoreSpeed();
  for (CpuId c = first; c < first + n; ++c) {
    Thread& t = threads_[c];
    t.speed = speed;
    t.issue = speed(m.cycle());
    if (t.program) t.program->set_core_speed(speed);
  }
}

std::uint32_t Executor::smt_cores() const {
  const auto& m = mem_.machine();
  std::uint32_t shared = 0;
  for (machine::CoreId core = 0; core < m.cores(); ++core) {
    std::uint32_t hosting = 0;
    for (std::uint32_t i = 0; i < m.spec().threads_per_core; ++i) hosting += hosts_[m.first_cpu_of(core) + i];
    shared += hosting > 1;
  }
  return shared;
}

coherence::AccessResult Executor::access(Thread& t, CpuId cpu, LineId line, AccessKind kind, std::uint64_t value) {
  check_issue(cpu, t.clock);
  coherence::AccessResult r = mem_.access(t.clock, cpu, line, kind, value);
  // A hit is the core's own pipeline work; the wait for this core's in-flight prefetch before it
  // (r.start) is not. Anything beyond the private caches waits on the memory system at full speed.
  if (r.served == ServedBy::kPrivate && !t.speed.full()) r.done = r.start + t.speed(r.done - r.start);
  return r;
}

void Executor::run() {
  sim_.run();
  if (parked_ > 0) {
    throw std::logic_error(std::to_string(parked_) +
                           " thread(s) still parked in a spin-wait that no write will end (lost wake-up or deadlock)");
  }
}

void Executor::on_event(std::uint64_t tag) { run_thread(static_cast<CpuId>(tag)); }

void Executor::throw_time_overflow(CpuId cpu) {
  // Not a logic_error: the model is fine, an input is not (the loaders cap each time input, but
  // enough of them in one run can still reach the end of the clock).
  throw std::runtime_error("simulated time overflowed on CPU " + std::to_string(cpu) +
                           ": its clock would pass the end of the simulated clock (9.2e18 ps, about 106 days; "
                           "memory accesses must start in its first half); a time input (a latency, cost, user "
                           "time, scale factor or run length) is too large");
}

std::uint64_t& Executor::word_ref(const Op& op) {
  if (op.line >= watchers_.size()) watchers_.resize(std::max<std::size_t>(op.line + 1, watchers_.size() * 2));
  auto& store = op.word == kLineWord ? words_ : named_words_;
  const std::size_t i = op.word == kLineWord ? op.line : op.word;
  if (i >= store.size()) store.resize(std::max<std::size_t>(i + 1, store.size() * 2), 0);
  return store[i];
}

void Executor::run_thread(CpuId cpu) {
  Thread& t = threads_[cpu];
  while (true) {
    // Run ahead only while no other event could come first; ties go to the running thread.
    if (t.clock > sim_.next_event_time()) {
      sim_.schedule(t.clock, this, cpu);
      return;
    }
    Op op;
    if (t.has_pending) {
      op = t.pending;
      t.has_pending = false;
    } else if (t.program->set_now(t.clock), !t.program->next(t.last_result, op)) {
      t.state = State::kDone;
      t.clock = std::max(t.clock, t.store_drain);
      t.stats.finished = t.clock;
      return;
    }
    if (!execute(cpu, t, op)) return;
  }
}

bool Executor::execute(CpuId cpu, Thread& t, const Op& op) {
  ++t.stats.ops;
  auto account = [&](const coherence::AccessResult& r) {
    if (r.served != ServedBy::kPrivate) {
      ++t.stats.misses;
      t.stats.memory_stall += r.done - t.clock;
    }
  };
  const auto& m = mem_.machine();
  switch (op.kind) {
    case OpKind::kLoad: {
      ++t.stats.loads;
      auto r = access(t, cpu, op.line, AccessKind::kLoad);
      account(r);
      t.clock = r.done;
      t.last_result = word_ref(op);
      return true;
    }
    case OpKind::kStore: {
      ++t.stats.stores;
      std::uint64_t& w = word_ref(op);
      w = (w & ~op.mask) | (op.value & op.mask);
      auto r = access(t, cpu, op.line, AccessKind::kStore, w);
      t.store_drain = std::max(t.store_drain, r.done);
      t.clock = advance(cpu, t.clock, t.issue);
      wake_watchers(op.line, r.done);
      return true;
    }
    case OpKind::kRmwAdd:
    case OpKind::kRmwXchg:
    case OpKind::kCas: {
      ++t.stats.atomics;
      t.clock = std::max(t.clock, t.store_drain);  // a locked instruction drains the store buffer
      std::uint64_t& w = word_ref(op);
      const std::uint64_t old = w;
      if (op.kind == OpKind::kRmwAdd) w = old + op.value;
      if (op.kind == OpKind::kRmwXchg) w = (old & ~op.mask) | (op.value & op.mask);  // xchg of a sub-field
      if (op.kind == OpKind::kCas && old == op.expect) w = op.value;
      auto r = access(t, cpu, op.line, AccessKind::kRmw, w);
      account(r);
      t.clock = r.done;
      t.last_result = old;
      wake_watchers(op.line, r.done);
      return true;
    }
    case OpKind::kPrefetch:
    case OpKind::kPrefetchW: {
      const bool excl = op.kind == OpKind::kPrefetchW;
      auto r = access(t, cpu, op.line, excl ? AccessKind::kPrefetchExclusive : AccessKind::kPrefetch);
      t.clock = advance(cpu, t.clock, t.issue);
      if (excl) wake_watchers(op.line, r.done);
      return true;
    }
    case OpKind::kCompute: {
      const Picos ps = t.speed(op.ps);
      t.clock = advance(cpu, t.clock, ps);
      t.stats.compute += ps;
      return true;
    }
    case OpKind::kFence:
      t.clock = advance(cpu, std::max(t.clock, t.store_drain), m.spec().costs.fence);
      return true;
    case OpKind::kSpinUntil:
    case OpKind::kSleepUntil: {
      ++t.stats.loads;
      auto r = access(t, cpu, op.line, AccessKind::kLoad);
      account(r);
      t.clock = r.done;
      const std::uint64_t w = word_ref(op);
      if ((w & op.mask) == op.expect) {
        t.last_result = w;
        return true;
      }
      // Park: the next write to the line wakes this thread, which then re-reads it.
      watchers_[op.line].push_back(cpu);
      t.state = State::kParked;
      t.parked_at = t.clock;
      t.sleeping = op.kind == OpKind::kSleepUntil;
      t.pending = op;
      t.has_pending = true;
      ++parked_;
      return false;
    }
  }
  return true;
}

void Executor::wake_watchers(LineId line, Picos at) {
  auto& list = watchers_[line];
  if (list.empty()) return;
  for (CpuId cpu : list) {
    Thread& t = threads_[cpu];
    if (t.sleeping) {
      if (t.pending.ps < 0) {
        throw NoWakeupLatency("the thread on CPU " + std::to_string(cpu) + " slept in a sleeping lock's wait");
      }
      // A sleeper is made runnable by the writer and pays the scheduler's wake-up latency.
      const Picos woken = advance(cpu, std::max(at, t.clock), t.pending.ps);
      t.stats.sleep += woken - t.parked_at;
      t.clock = woken;
    } else {
      t.stats.spin += std::max<Picos>(0, at - t.parked_at);
      t.clock = std::max(at, t.clock);
    }
    t.state = State::kRunnable;
    --parked_;
    sim_.schedule(t.clock, this, cpu);
  }
  list.clear();
}

}  // namespace walksim::exec
