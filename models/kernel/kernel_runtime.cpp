// KOp semantics on the executor. Plain accesses map one to one; a counter update done with a
// cmpxchg loop is a load then cmpxchg attempts until one succeeds; locks are stepped through
// their primitive; seqcount reads wait while the count is odd and remember what they saw.
#include "models/kernel/kernel_runtime.hpp"

#include <algorithm>
#include <stdexcept>

#include "models/sync/lockref.hpp"
#include "models/sync/sync_registry.hpp"

namespace walksim::kernel {

using exec::Op;
using sync::SyncAction;

KernelRuntime::KernelRuntime(Vfs& vfs, KernelOptions opts, double cost_scale)
    : vfs_(vfs), expander_(vfs, opts, cost_scale), cost_scale_(cost_scale) {
  auto& mem = vfs.memory();
  const auto& m = mem.machine();
  for (CpuId c = 0; c < m.cpus(); ++c) {
    const auto node = m.node_of(m.core_of(c));
    qnode_lines_.push_back(mem.add_line(node));
    task_lines_.push_back(mem.add_line(node));
    vfs.set_label(qnode_lines_.back(), {"cpu " + std::to_string(c) + " queued-lock node", 0, "qnode", false});
    vfs.set_label(task_lines_.back(), {"cpu " + std::to_string(c) + " task state", 0, "state", false});
  }
}

KernelRuntime::~KernelRuntime() = default;

sync::Scheduler& KernelRuntime::scheduler() {
  if (scheduler_) return *scheduler_;
  auto& mem = vfs_.memory();
  const auto& m = mem.machine();
  std::vector<sync::Scheduler::CpuLines> lines;
  for (CpuId c = 0; c < m.cpus(); ++c) {
    const auto node = m.node_of(m.core_of(c));
    const std::string cpu = "cpu " + std::to_string(c);
    sync::Scheduler::CpuLines l{mem.add_line(node), mem.add_line(node), mem.add_line(node), task_lines_[c]};
    vfs_.set_label(l.rq, {"runqueue of " + cpu, 0, "lock nr_running", false});
    vfs_.set_label(l.curr, {"runqueue of " + cpu, 1, "curr", false});
    vfs_.set_label(l.thread_info, {"thread_info on " + cpu, 0, "flags status", false});
    lines.push_back(l);
  }
  const auto& spec = vfs_.spec();
  const auto& irq = m.spec().interrupts;
  sync::SchedulerCosts costs;
  costs.context_switch = m.cycles(spec.costs.cycles.at("context_switch") * cost_scale_);
  costs.wake_by_ipi = irq.idle_wake == machine::IdleWake::kIpi;
  costs.ipi_send = irq.ipi_send;
  costs.wake_exit = irq.wake_exit;
  costs.ttwu_rq_lock_passes = spec.ttwu_rq_lock_passes;
  // An IPI travels as the interconnect's messages do between the two CPUs' cache domains.
  auto flight = [&m](CpuId from, CpuId to) {
    return m.domain_to_domain(m.domain_of(m.core_of(from)), m.domain_of(m.core_of(to)));
  };
  scheduler_ = std::make_unique<sync::Scheduler>(std::move(lines), costs, flight);
  return *scheduler_;
}

// A futex system call's private work: the entry and exit every system call pays, and the futex
// code's own beyond its modelled accesses (cpu_costs.futex; a kernel without it cannot run a
// pthread mutex).
sync::FutexCosts KernelRuntime::futex_costs() const {
  const auto& spec = vfs_.spec();
  const auto& m = vfs_.machine();
  for (const char* step : {"syscall", "futex"}) {
    if (!spec.costs.cycles.count(step)) {
      throw std::invalid_argument("kernel '" + spec.name + "' has no cpu_costs entry '" + step +
                                  "', which a pthread-mutex's futex calls need (" + spec.file + ")");
    }
  }
  sync::FutexCosts c;
  c.syscall = m.cycles(spec.costs.cycles.at("syscall") * cost_scale_);
  c.futex = m.cycles(spec.costs.cycles.at("futex") * cost_scale_);
  return c;
}

// The lines of a lock of `kind` whose word is on k.line, as the kind declares them: further shared
// lines allocated with the lock (a CLH lock's initial node), then one line per CPU, either the
// lock's own (homed on that CPU's node: a CPU's node stays queued from its acquire to its release,
// so locks that may be held together cannot share them), the CPU's queue node shared by every lock
// of the kind (qspinlock). Sleeping locks sleep through the scheduler (scheduler()).
std::vector<LineId> KernelRuntime::lock_lines(const sync::SyncKind& kind, const KOp& k) {
  auto& mem = vfs_.memory();
  const auto& m = mem.machine();
  std::vector<LineId> lines{k.line};
  const auto& lock_line = mem.line(k.line);
  const std::optional<machine::NodeId> home =
      lock_line.home_assigned ? std::optional<machine::NodeId>(lock_line.home) : std::nullopt;
  // The labels name the lock's owner; only a kind with lines of its own needs them (most locks
  // have none, and a label is built from the object's layout: strings and allocations).
  if (kind.lines.shared <= 1 && kind.lines.per_cpu != sync::PerCpuLines::kOwn) {
    if (kind.lines.per_cpu == sync::PerCpuLines::kCpuQnodes)
      lines.insert(lines.end(), qnode_lines_.begin(), qnode_lines_.end());
    return lines;
  }
  const std::string owner = vfs_.label(k.line).object;
  const std::string name(kind.name);
  for (std::uint32_t i = 1; i < kind.lines.shared; ++i) {
    lines.push_back(mem.add_line(home));
    vfs_.set_label(lines.back(), {name + " " + kind.lines.extra_label + " of " + owner, 0, "qnode", true});
  }
  switch (kind.lines.per_cpu) {
    case sync::PerCpuLines::kNone:
      break;
    case sync::PerCpuLines::kOwn:
      for (CpuId c = 0; c < m.cpus(); ++c) {
        lines.push_back(mem.add_line(m.node_of(m.core_of(c))));
        vfs_.set_label(lines.back(),
                       {"cpu " + std::to_string(c) + " " + name + " node of " + owner, 0, "qnode", false});
      }
      break;
    case sync::PerCpuLines::kCpuQnodes:
      lines.insert(lines.end(), qnode_lines_.begin(), qnode_lines_.end());
      break;
  }
  return lines;
}

sync::SyncPrimitive& KernelRuntime::primitive(const KOp& k) {
  const LineId line = k.line;
  const std::uint32_t word = k.word;
  const KOpKind kind = k.kind;
  if (line >= lock_head_.size()) lock_head_.resize(std::max<std::size_t>(line + 1, lock_head_.size() * 2), kNoEntry);
  for (std::uint32_t e = lock_head_[line]; e != kNoEntry; e = locks_[e].next) {
    if (locks_[e].word == word) return *locks_[e].prim;
  }
  const auto& spec = vfs_.spec();
  sync::SyncConfig cfg;
  cfg.cpus = vfs_.machine().cpus();
  cfg.word = word;
  std::string_view name;
  if (k.lock != kVariantSpinlock && (kind == KOpKind::kSpinLock || kind == KOpKind::kSpinUnlock)) {
    name = sync::sync_kinds()[k.lock].name;  // the lock-hold's own kind (lock-loop)
    cfg.cycle = vfs_.machine().cycle();
  } else {
    switch (kind) {
      case KOpKind::kLockrefGet:
      case KOpKind::kLockrefPut:
      case KOpKind::kLockrefPutReturn:
        name = "lockref";
        break;
      case KOpKind::kSpinLock:
      case KOpKind::kSpinUnlock:
        // spin_lock(&dentry->d_lock) where d_lock is the lock inside the lockref
        name = k.field == "d_lockref" ? std::string_view("lockref") : std::string_view(spec.spinlock);
        break;
      case KOpKind::kReadLock:
      case KOpKind::kReadUnlock:
        name = "rwlock";
        break;
      case KOpKind::kMutexLock:
      case KOpKind::kMutexUnlock:
        name = spec.mutex;
        break;
      default:
        throw std::logic_error("not a lock operation");
    }
  }
  const sync::SyncKind& sk = sync::find_sync_kind(name);
  if (sk.role == sync::SyncRole::kReference) {
    throw std::logic_error(std::string(name) +
                           " is a reference kind the kernel model emits itself (sync_registry.hpp)");
  }
  if (sk.role == sync::SyncRole::kSleeping) cfg.scheduler = &scheduler();
  if (sk.name == "pthread-mutex") cfg.futex = futex_costs();
  const std::vector<LineId> lines = lock_lines(sk, k);
  cfg.lines = lines;
  auto made = sync::make_sync(sk, cfg);
  auto& ref = *made;
  locks_.push_back({word, lock_head_[line], std::move(made)});
  lock_head_[line] = static_cast<std::uint32_t>(locks_.size() - 1);
  return ref;
}

void KOpRunner::begin(const Expansion& exp) {
  exp_ = &exp;
  runs_ = compiled(exp);
  index_ = 0;
  current_ = 0;
  phase_ = Phase::kNotStarted;
  prim_ = nullptr;
  held_.clear();
  seq_seen_.clear();
  aborting_ = false;
}

void KOpRunner::compile(Expansion& exp) {
  const std::size_t n = exp.ops.size();
  if (n >= UINT32_MAX) throw std::length_error("a system call's expansion of 2^32 operations or more");
  exp.plain.resize(n);
  exp.run_end.resize(n + 1);
  exp.counts.resize(n + 1);
  ProcessStats counted;
  auto counts = [&counted] {
    return PlainCounts{static_cast<std::uint32_t>(counted.loads), static_cast<std::uint32_t>(counted.stores),
                       static_cast<std::uint32_t>(counted.atomic_rmw)};
  };
  constexpr std::uint32_t kPlain = UINT32_MAX;  // until the backward pass finds the run's end
  for (std::size_t i = 0; i < n; ++i) {
    exp.counts[i] = counts();
    exp.run_end[i] = plain_op(exp.ops[i], exp.plain[i], counted) ? kPlain : static_cast<std::uint32_t>(i);
  }
  exp.counts[n] = counts();
  exp.run_end[n] = static_cast<std::uint32_t>(n);
  for (std::size_t i = n; i-- > 0;) {
    if (exp.run_end[i] == kPlain) exp.run_end[i] = exp.run_end[i + 1];
  }
}

namespace {

void count(const Op& op, ProcessStats& stats) {
  switch (op.kind) {
    case exec::OpKind::kLoad:
    case exec::OpKind::kSpinUntil:
    case exec::OpKind::kSleepUntil:
      ++stats.loads;
      break;
    case exec::OpKind::kStore:
      ++stats.stores;
      break;
    case exec::OpKind::kRmwAdd:
    case exec::OpKind::kRmwXchg:
    case exec::OpKind::kCas:
      ++stats.atomic_rmw;
      break;
    default:
      break;
  }
}

std::uint64_t seq_key(const KOp& k) { return (std::uint64_t{k.line} << 32) | k.word; }

}  // namespace

bool KOpRunner::sync_step(CpuId cpu, std::uint64_t last, Op& out, ProcessStats& stats) {
  if (prim_->step(action_, cpu, call_, last, out)) {
    count(out, stats);
    return true;
  }
  // The action is complete: remember a lock now held, forget one released.
  switch (action_) {
    case SyncAction::kAcquire:
      held_.push_back({prim_, SyncAction::kRelease});
      break;
    case SyncAction::kReadAcquire:
      held_.push_back({prim_, SyncAction::kReadRelease});
      break;
    case SyncAction::kRelease:
    case SyncAction::kReadRelease:
      for (std::size_t i = held_.size(); i-- > 0;) {
        if (held_[i].prim == prim_) {
          held_.erase(held_.begin() + static_cast<std::ptrdiff_t>(i));
          break;
        }
      }
      break;
    default:
      break;
  }
  prim_ = nullptr;
  return false;
}

bool KOpRunner::start_kop(KernelRuntime& rt, CpuId cpu, const KOp& k, Op& out, ProcessStats& stats) {
  auto lock_action = [&](SyncAction a) {
    if (!k.prim) k.prim = &rt.primitive(k);
    prim_ = k.prim;
    action_ = a;
    call_ = sync::SyncCall{};
    if (a == SyncAction::kAcquire || a == SyncAction::kReadAcquire) ++stats.lock_acquires;
    return sync_step(cpu, 0, out, stats);
  };
  // The counts are kept here, by kind, rather than by a second switch on the Op made.
  switch (k.kind) {
    case KOpKind::kLoad:
    case KOpKind::kStore:
    case KOpKind::kAtomic:
    case KOpKind::kXchg:
    case KOpKind::kCasOnce:
    case KOpKind::kPrefetch:
    case KOpKind::kCompute:
    case KOpKind::kFence:
      return plain_op(k, out, stats);
    case KOpKind::kAtomicCas:
    case KOpKind::kSeqWriteBegin:
    case KOpKind::kSeqWriteEnd:
    case KOpKind::kPercpuAdd:
    case KOpKind::kSeqCheck:
    case KOpKind::kLockedCountAdd:
      out = Op::load(k.line).on_word(k.word);
      ++stats.loads;
      return true;
    case KOpKind::kTestAndSet:
      out = Op::xchg(k.line, 1).on_word(k.word);
      ++stats.atomic_rmw;
      return true;
    case KOpKind::kCasLoop:
      out = Op::load(k.line).on_word(k.word);
      ++stats.loads;
      return true;
    case KOpKind::kSeqBegin:
      out = Op::spin_until(k.line, 0, 1).on_word(k.word);  // wait while a writer has it odd
      ++stats.loads;
      return true;
    case KOpKind::kSpinLock:
      return lock_action(SyncAction::kAcquire);
    case KOpKind::kSpinUnlock:
      return lock_action(SyncAction::kRelease);
    case KOpKind::kReadLock:
      return lock_action(SyncAction::kReadAcquire);
    case KOpKind::kReadUnlock:
      return lock_action(SyncAction::kReadRelease);
    case KOpKind::kMutexLock:
      return lock_action(SyncAction::kAcquire);
    case KOpKind::kMutexUnlock:
      return lock_action(SyncAction::kRelease);
    case KOpKind::kLockrefGet:
      return lock_action(SyncAction::kLockrefGet);
    case KOpKind::kLockrefPut:
      return lock_action(SyncAction::kLockrefPut);
    case KOpKind::kLockrefPutReturn:
      return lock_action(SyncAction::kLockrefPutReturn);
  }
  throw std::logic_error("unknown kernel operation kind");
}

bool KOpRunner::lock_step(CpuId cpu, std::uint64_t last, Op& out, ProcessStats& stats) {
  sync::SyncPrimitive* const was = prim_;
  const SyncAction act = action_;
  if (sync_step(cpu, last, out, stats)) return true;
  if (act == SyncAction::kLockrefPut && call_.result == 0 && !aborting_) {
    // lockref_put_or_lock left the lock held at a count of 1: decrement under it, unlock.
    lockref_tail_ = was;
    phase_ = Phase::kLockrefDecrement;
    out = Op::load(exp_->ops[index_].line).on_word(exp_->ops[index_].word);
    count(out, stats);
    return true;
  }
  if (!aborting_) {
    ++index_;
    phase_ = Phase::kNotStarted;
  }
  return false;
}

KOpRunner::Step KOpRunner::continue_kop(const KOp& k, std::uint64_t last, Op& out, ProcessStats& stats) {
  const bool first_result = phase_ == Phase::kFirstOpOut;
  auto issue = [&](Op op, Phase next) {
    out = op;
    phase_ = next;
    count(out, stats);
    return Step::kIssued;
  };
  switch (k.kind) {
    case KOpKind::kAtomicCas:
      if (first_result || last != scratch_) {  // first attempt, or the cmpxchg lost a race: retry
        scratch_ = last;                       // the value to replace: loaded first, then what the failed cmpxchg saw
        return issue(Op::cas(k.line, scratch_, scratch_ + static_cast<std::uint64_t>(k.delta)).on_word(k.word),
                     Phase::kLaterOpOut);
      }
      break;
    case KOpKind::kSeqWriteBegin:
    case KOpKind::kSeqWriteEnd:
    case KOpKind::kPercpuAdd:
      if (first_result) {
        const std::uint64_t delta = k.kind == KOpKind::kPercpuAdd ? static_cast<std::uint64_t>(k.delta) : 1;
        return issue(Op::store(k.line, last + delta).on_word(k.word), Phase::kLaterOpOut);
      }
      break;
    case KOpKind::kLockedCountAdd:
      if (first_result) {
        return issue(
            Op::store(k.line, last + static_cast<std::uint64_t>(k.delta), sync::Lockref::kCountMask).on_word(k.word),
            Phase::kLaterOpOut);
      }
      break;
    case KOpKind::kTestAndSet:
      if (first_result && last == 0) {  // the xchg took the byte: put it back (atomic_bench's TEST_TAS)
        return issue(Op::store(k.line, 0).on_word(k.word), Phase::kLaterOpOut);
      }
      break;
    case KOpKind::kCasLoop:
      if (first_result) {  // the read came back: try to install read + delta
        scratch_ = last;
        return issue(Op::cas(k.line, last, last + static_cast<std::uint64_t>(k.delta)).on_word(k.word),
                     Phase::kLaterOpOut);
      }
      if (last != scratch_) {  // the cmpxchg lost: read again (atomic_bench's TEST_CTR re-reads each time)
        return issue(Op::load(k.line).on_word(k.word), Phase::kFirstOpOut);
      }
      break;
    case KOpKind::kSeqBegin:
      seq_seen_.emplace_back(seq_key(k), last);
      break;
    case KOpKind::kSeqCheck: {
      if (seq_check_fails(k, last)) {
        ++stats.seq_retries;
        aborting_ = true;
        return Step::kAborting;
      }
      break;
    }
    default:
      break;
  }
  return Step::kFinished;
}

bool KOpRunner::own_from(std::size_t i) const {
  for (; i < exp_->ops.size(); ++i) {
    const KOp& k = exp_->ops[i];
    if (own_kind(k.kind)) return true;  // it makes an Op at once
    // A lock KOp: its primitive is looked up on first use (not here), and its action may complete
    // without an Op (rcu_read_lock), when the KOp after it comes next.
    if (k.prim == nullptr || !k.prim->steps_are_own()) return false;
  }
  return false;  // the call's end: the workload is told, the next call expanded
}

bool KOpRunner::seq_check_fails(const KOp& k, std::uint64_t last) const {
  for (std::size_t i = seq_seen_.size(); i-- > 0;) {
    if (seq_seen_[i].first == seq_key(k)) return seq_seen_[i].second != last;
  }
  return false;  // no begin of its own: checked against itself
}

bool KOpRunner::next_is_own_beyond_start(std::uint64_t last) const {
  if (aborting_ || exp_ == nullptr || index_ >= exp_->ops.size()) return false;
  const KOp& k = exp_->ops[index_];
  if (prim_ != nullptr) return prim_->steps_are_own() && own_from(index_ + 1);
  switch (phase_) {
    case Phase::kNotStarted:
      return own_from(index_);
    case Phase::kLockrefDecrement:
      return true;  // the count's store
    case Phase::kLockrefUnlock:
      return lockref_tail_->steps_are_own() && own_from(index_ + 1);
    case Phase::kFirstOpOut:
    case Phase::kLaterOpOut:
      // A failed seqcount check unwinds the walk's locks. Otherwise the KOp issues its next Op, or
      // it is complete and the KOps after it come next.
      if (k.kind == KOpKind::kSeqCheck && seq_check_fails(k, last)) return false;
      return own_from(index_ + 1);
  }
  return false;
}

KOpRunner::Status KOpRunner::next_in_loop(KernelRuntime& rt, CpuId cpu, std::uint64_t last, Op& out,
                                          ProcessStats& stats) {
  while (true) {
    if (prim_) {
      if (lock_step(cpu, last, out, stats)) return Status::kOp;
      continue;
    }
    if (phase_ == Phase::kLockrefDecrement) {
      const KOp& k = exp_->ops[index_];
      phase_ = Phase::kLockrefUnlock;
      out = Op::store(k.line, last - 1, sync::Lockref::kCountMask).on_word(k.word);
      count(out, stats);
      return Status::kOp;
    }
    if (phase_ == Phase::kLockrefUnlock) {
      prim_ = lockref_tail_;
      action_ = SyncAction::kRelease;
      call_ = sync::SyncCall{};
      held_.push_back({prim_, SyncAction::kRelease});
      if (sync_step(cpu, last, out, stats)) return Status::kOp;
      ++index_;
      phase_ = Phase::kNotStarted;
      continue;
    }
    if (aborting_) {
      // -ECHILD: unwind what the failed lookup holds, newest first, then restart in ref-walk.
      if (held_.empty()) return Status::kRestart;
      prim_ = held_.back().prim;
      action_ = held_.back().release;
      call_ = sync::SyncCall{};
      if (sync_step(cpu, last, out, stats)) return Status::kOp;
      continue;
    }
    if (index_ >= exp_->ops.size()) {
      // Every lock a call takes, it releases: a call that ends holding one is a model bug.
      if (!held_.empty()) {
        throw std::logic_error("a system call ended holding " + std::to_string(held_.size()) + " lock(s) (" +
                               std::string(held_.back().prim->kind()) + ")");
      }
      return Status::kDone;
    }
    const KOp& k = exp_->ops[index_];
    if (phase_ == Phase::kNotStarted) {
      current_ = index_;
      if (plain_op(k, out, stats)) {
        // One Op whose result nothing reads: the KOp is complete once the Op is handed out, so
        // move on now rather than through a second pass over it.
        ++index_;
        return Status::kOp;
      }
      phase_ = Phase::kFirstOpOut;
      if (start_kop(rt, cpu, k, out, stats)) return Status::kOp;
      if (prim_) continue;  // a lock action that completed at once: the lock branch moves on
      ++index_;
      phase_ = Phase::kNotStarted;
      continue;
    }
    // Second and later steps of the multi-op KOps; `last` is the previous op's result.
    const Step step = continue_kop(k, last, out, stats);
    if (step == Step::kIssued) return Status::kOp;
    if (step == Step::kAborting) continue;
    ++index_;
    phase_ = Phase::kNotStarted;
  }
}

}  // namespace walksim::kernel
