// Builds the little world a traced call needs, runs it through the same process program the
// experiments use, and records each executed operation with its kernel operation and line label.
#include "models/kernel/trace.hpp"

#include <algorithm>
#include <stdexcept>

#include "models/coherence/memory_system.hpp"
#include "models/config/strict_yaml.hpp"
#include "models/kernel/process_program.hpp"
#include "sim/simulation.hpp"

namespace walksim::kernel {
namespace {

const char* kop_name(KOpKind k) {
  switch (k) {
    case KOpKind::kLoad:
      return "load";
    case KOpKind::kStore:
      return "store";
    case KOpKind::kAtomic:
      return "atomic";
    case KOpKind::kAtomicCas:
      return "atomic_cmpxchg";
    case KOpKind::kPrefetch:
      return "prefetch";
    case KOpKind::kCompute:
      return "compute";
    case KOpKind::kFence:
      return "fence";
    case KOpKind::kSpinLock:
      return "spin_lock";
    case KOpKind::kSpinUnlock:
      return "spin_unlock";
    case KOpKind::kReadLock:
      return "read_lock";
    case KOpKind::kReadUnlock:
      return "read_unlock";
    case KOpKind::kMutexLock:
      return "mutex_lock";
    case KOpKind::kMutexUnlock:
      return "mutex_unlock";
    case KOpKind::kSeqBegin:
      return "seq_begin";
    case KOpKind::kSeqCheck:
      return "seq_check";
    case KOpKind::kSeqWriteBegin:
      return "seq_write_begin";
    case KOpKind::kSeqWriteEnd:
      return "seq_write_end";
    case KOpKind::kPercpuAdd:
      return "percpu_add";
    case KOpKind::kLockrefGet:
      return "lockref_get";
    case KOpKind::kLockrefPut:
      return "lockref_put";
    case KOpKind::kLockrefPutReturn:
      return "lockref_put_return";
    case KOpKind::kLockedCountAdd:
      return "count_add_locked";
    case KOpKind::kXchg:
      return "xchg";
    case KOpKind::kCasOnce:
      return "cmpxchg_once";
    case KOpKind::kTestAndSet:
      return "test_and_set";
    case KOpKind::kCasLoop:
      return "cmpxchg_loop";
  }
  return "?";
}

const char* op_name(exec::OpKind k) {
  switch (k) {
    case exec::OpKind::kLoad:
      return "load";
    case exec::OpKind::kStore:
      return "store";
    case exec::OpKind::kRmwAdd:
      return "rmw-xadd";
    case exec::OpKind::kRmwXchg:
      return "rmw-xchg";
    case exec::OpKind::kCas:
      return "rmw-cmpxchg";
    case exec::OpKind::kPrefetch:
      return "prefetch";
    case exec::OpKind::kPrefetchW:
      return "prefetchw";
    case exec::OpKind::kCompute:
      return "compute";
    case exec::OpKind::kFence:
      return "fence";
    case exec::OpKind::kSpinUntil:
      return "load-spin";
    case exec::OpKind::kSleepUntil:
      return "load-sleep";
    case exec::OpKind::kIdle:
      return "idle";
  }
  return "?";
}

// Hands out the set-up calls, then the traced one.
class ListSource final : public SyscallSource {
 public:
  explicit ListSource(std::vector<Syscall> calls) : calls_(std::move(calls)) {}
  bool next(Syscall& out) override {
    if (i_ >= calls_.size()) return false;
    out = calls_[i_++];
    return true;
  }
  void completed(const Syscall&, bool failed, sim::Picos) override { last_failed = failed; }
  bool last_failed = false;

 private:
  std::vector<Syscall> calls_;
  std::size_t i_ = 0;
};

// Makes every directory on `path` and, unless `leaf` is kNone, its last component.
enum class Leaf { kNone, kFile, kDir };
void make_path(Vfs& vfs, DentryId cwd, const std::string& path, Leaf leaf) {
  bool abs = false;
  const auto parts = split_path(path, &abs);
  DentryId cur = abs ? vfs.root() : cwd;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string_view name = parts[i];
    if (name == ".") continue;
    if (name == "..") {
      if (vfs.dentry(cur).parent != kNoDentry) cur = vfs.dentry(cur).parent;
      continue;
    }
    const bool last = i + 1 == parts.size();
    if (last && leaf == Leaf::kNone) return;
    if (auto c = vfs.child(cur, name)) {
      cur = *c;
      continue;
    }
    cur = vfs.add_dentry(cur, std::string(name), !(last && leaf == Leaf::kFile), false, 0u);
  }
}

}  // namespace

namespace {

// The tree the call needs beforehand (its path as a file, a directory or only its parents), the
// request's other files and symlinks, and ACLs on every directory if asked.
void set_up_tree(Vfs& vfs, DentryId cwd, const Syscall& s, const TraceRequest& req) {
  // What the call needs to exist beforehand.
  switch (sys_traits(s.sys).setup) {
    case TraceSetup::kNothing:
      make_path(vfs, cwd, s.path, Leaf::kNone);
      break;
    case TraceSetup::kDirectory:
      make_path(vfs, cwd, s.path, Leaf::kDir);
      break;
    case TraceSetup::kFileAndParent:
      make_path(vfs, cwd, s.path, Leaf::kFile);
      make_path(vfs, cwd, s.path2, Leaf::kNone);
      break;
    case TraceSetup::kFile:
    case TraceSetup::kOpenFile:
      make_path(vfs, cwd, s.path, Leaf::kFile);
      break;
  }
  for (const auto& f : req.files) make_path(vfs, cwd, f, Leaf::kFile);
  for (const auto& [link, target] : req.symlinks) {
    make_path(vfs, cwd, link, Leaf::kFile);
    bool abs = false;
    const auto parts = split_path(link, &abs);
    DentryId d = abs ? vfs.root() : cwd;
    for (const auto& part : parts) {
      if (part != ".") d = *vfs.child(d, part);
    }
    vfs.dentry(d).symlink = true;
    vfs.dentry(d).link_target = target;
  }
  if (req.acl_on_dirs) {
    for (DentryId d = 0; d < vfs.dentry_count(); ++d) {
      if (vfs.dentry(d).dir) vfs.dentry(d).has_acl = true;
    }
  }
  if (req.disk) {
    if (s.sys != Sys::kStat && s.sys != Sys::kLstat) {
      throw TraceRequestError("a disk filesystem's tree (--disk) is modelled for stat and lstat only, not '" +
                              to_string(s) + "': an open file's reference on its dentry is not counted there");
    }
    for (DentryId d = 0; d < vfs.dentry_count(); ++d) vfs.dentry(d).fs = Filesystem::kDisk;
  }
}

// One executed operation, named by object, line and field, and counted in `totals`.
TraceOp trace_op(const Vfs& vfs, const Expansion& exp, std::size_t i, const exec::Op& op, TraceTotals& totals) {
  TraceOp t;
  const KOp& kop = exp.ops[i < exp.ops.size() ? i : exp.ops.size() - 1];
  t.kop = kop_name(kop.kind);
  t.op = op_name(op.kind);
  if (op.kind == exec::OpKind::kCompute) {
    t.object = "(private work)";
    t.field = std::string(kop.field);
    // A sleeping lock's only private work is the scheduler's (sync/scheduler.cpp): the locker's
    // context switches out and back in, the waker's IPI.
    if (kop.kind == KOpKind::kMutexLock) t.field = "context switch";
    if (kop.kind == KOpKind::kMutexUnlock) t.field = "IPI send";
    t.compute = op.ps;
    totals.compute += op.ps;
  } else if (op.kind == exec::OpKind::kIdle) {
    t.object = "(off the CPU)";
    t.field = "wake-up on its way";
    t.compute = op.ps;
  } else {
    const LineLabel& l = vfs.label(op.line);
    t.object = l.object.empty() ? "line " + std::to_string(op.line) : l.object;
    t.line = l.index;
    t.line_fields = l.fields;
    t.shared = l.shared;
    t.field = kop.line == op.line ? std::string(kop.field) : "";
  }
  switch (op.kind) {
    case exec::OpKind::kRmwAdd:
    case exec::OpKind::kRmwXchg:
    case exec::OpKind::kCas:
      ++totals.atomic_rmw;
      if (t.shared) ++totals.shared_rmw;
      break;
    case exec::OpKind::kLoad:
    case exec::OpKind::kSpinUntil:
    case exec::OpKind::kSleepUntil:
      ++totals.load;
      break;
    case exec::OpKind::kStore:
      ++totals.store;
      if (t.shared) ++totals.shared_store;
      break;
    case exec::OpKind::kPrefetch:
    case exec::OpKind::kPrefetchW:
      ++totals.prefetch;
      break;
    case exec::OpKind::kFence:
      ++totals.fence;
      break;
    default:
      break;
  }
  return t;
}

}  // namespace

namespace {

// The call's tree, then its process on CPU 0.
Process& make_process(Vfs& vfs, DentryId cwd, const Syscall& s, const TraceRequest& req) {
  set_up_tree(vfs, cwd, s, req);
  return vfs.new_process(0, cwd);
}

// The machine, tree, process and runtime of one traced call, with the call's set-up (opening the
// file a descriptor call works on) already run. Built the same way twice for a contended trace,
// so that objects made before the call have the same line ids in both.
class TraceWorld {
 public:
  TraceWorld(const machine::Machine& m, const KernelSpec& k, const TraceRequest& req, const Syscall& s)
      : mem_(m, false),
        vfs_(mem_, k),
        cwd_(vfs_.mkpath(req.cwd, true, 0u)),
        p_(make_process(vfs_, cwd_, s, req)),
        rt_(vfs_, req.options),
        sim_(1),
        ex_(sim_, mem_) {
    if (sys_traits(s.sys).setup != TraceSetup::kOpenFile) return;
    ListSource src({parse_syscall("open " + s.path + " O_RDWR")});
    ProcessProgram prog(rt_, p_, src);
    ex_.start(p_.cpu, prog);
    ex_.run();
    start_ = ex_.stats(p_.cpu).finished + sim::from_ns(10000);
  }

  Vfs& vfs() { return vfs_; }
  Process& process() { return p_; }
  KernelRuntime& runtime() { return rt_; }
  exec::Executor& executor() { return ex_; }
  Picos start() const { return start_; }  // when the traced call may start

 private:
  coherence::MemorySystem mem_;
  Vfs vfs_;
  DentryId cwd_;
  Process& p_;
  KernelRuntime rt_;
  sim::Simulation sim_;
  exec::Executor ex_;
  Picos start_ = 0;
};

// The lock KOp of the call named `field` (the first the call takes by that name), found in the
// call's expansion in a scratch world; an unknown name lists the locks the call does take.
KOp find_lock_kop(const machine::Machine& m, const KernelSpec& k, const TraceRequest& req, const Syscall& s,
                  std::string& object) {
  TraceWorld scratch(m, k, req, s);
  Expansion exp;
  WalkStats stats;
  scratch.runtime().expander().expand(s, scratch.process(), false, exp, stats);
  std::vector<std::string> taken;
  for (const KOp& op : exp.ops) {
    const bool lock = op.kind == KOpKind::kSpinLock || op.kind == KOpKind::kMutexLock;
    if (op.kind == KOpKind::kReadLock && op.field == req.contend) {
      throw TraceRequestError("'" + req.contend +
                              "' is taken for reading by this call: another reader would not "
                              "delay it; pick a spinlock or a mutex the call takes");
    }
    if (!lock) continue;
    if (op.field == req.contend) {
      object = scratch.vfs().label(op.line).object;
      return op;
    }
    if (std::find(taken.begin(), taken.end(), op.field) == taken.end()) taken.emplace_back(op.field);
  }
  std::string list;
  for (const auto& t : taken) list += (list.empty() ? "" : ", ") + t;
  throw TraceRequestError("'" + to_string(s) + "' takes no lock named '" + req.contend + "'" +
                          config::did_you_mean(req.contend, taken) +
                          "; it takes: " + (list.empty() ? "no spinlock or mutex" : list));
}

// The other CPU of a contended trace: takes the lock, holds it, releases it.
class LockHolder final : public exec::Program {
 public:
  using Observer = ProcessProgram::Observer;
  LockHolder(KernelRuntime& rt, CpuId cpu, const KOp& lock, Picos hold, Observer observer)
      : rt_(rt), cpu_(cpu), observer_(std::move(observer)) {
    exp_.ops.push_back(lock);
    KOp work;
    work.kind = KOpKind::kCompute;
    work.ps = hold;
    work.field = "holds the lock";
    exp_.ops.push_back(work);
    KOp unlock = lock;
    unlock.kind = lock.kind == KOpKind::kMutexLock ? KOpKind::kMutexUnlock : KOpKind::kSpinUnlock;
    exp_.ops.push_back(unlock);
    runner_.begin(exp_);
  }
  bool next(std::uint64_t last, exec::Op& out) override {
    if (runner_.next(rt_, cpu_, last, out, stats_) != KOpRunner::Status::kOp) return false;
    observer_(exp_, runner_.current(), out);
    return true;
  }

 private:
  KernelRuntime& rt_;
  CpuId cpu_;
  Observer observer_;
  Expansion exp_;
  KOpRunner runner_;
  ProcessStats stats_;
};

// How long before the call starts the holder begins: enough to acquire a free lock on any line of
// the shipped machines (a remote miss is under 1 us), so the call finds it held.
constexpr Picos kHolderLead = sim::from_ns(2000);

}  // namespace

TraceResult trace_syscall(const machine::Machine& m, const KernelSpec& k, const TraceRequest& req) {
  const Syscall s = parse_syscall(req.syscall);
  std::optional<TraceContention> contention;
  std::optional<KOp> lock;
  if (!req.contend.empty()) {
    const std::uint32_t holder = req.holder_cpu.value_or(m.cpus() - 1);
    if (holder == 0 || holder >= m.cpus()) {
      throw TraceRequestError("the holder CPU must be another CPU than the caller's (0): 1.." +
                              std::to_string(m.cpus() - 1) + " on " + m.spec().name + ", not " +
                              std::to_string(holder));
    }
    contention.emplace();
    lock = find_lock_kop(m, k, req, s, contention->object);
    contention->field = std::string(lock->field);
    contention->kop = kop_name(lock->kind);
    contention->holder_cpu = holder;
    contention->held_from = -kHolderLead;
    contention->hold = req.hold;
  }

  TraceWorld w(m, k, req, s);
  Vfs& vfs = w.vfs();
  Process& p = w.process();
  const Picos start = w.start() + (contention ? kHolderLead : 0);

  TraceResult res;
  res.kernel = k.name;
  res.machine = m.spec().name;
  res.syscall = to_string(s);
  res.cwd = req.cwd;
  res.contention = contention;
  ListSource src({s});
  ProcessProgram prog(w.runtime(), p, src);
  prog.set_observer([&](const Expansion& exp, std::size_t i, const exec::Op& op) {
    TraceOp t = trace_op(vfs, exp, i, op, res.totals);
    t.cpu = p.cpu;
    t.at = prog.now() - start;
    res.ops.push_back(std::move(t));
  });
  std::optional<LockHolder> holder;
  TraceTotals holder_totals;  // the holder's operations are shown, not counted in the call's totals
  if (contention) {
    if (vfs.label(lock->line).object != contention->object) {
      throw std::logic_error("trace: the scratch world and the traced one disagree on the lock's line");
    }
    lock->prim = nullptr;  // the scratch world's primitive is gone; this world makes its own
    holder.emplace(w.runtime(), contention->holder_cpu, *lock, req.hold,
                   [&](const Expansion& exp, std::size_t i, const exec::Op& op) {
                     TraceOp t = trace_op(vfs, exp, i, op, holder_totals);
                     t.cpu = contention->holder_cpu;
                     t.at = holder->now() - start;
                     res.ops.push_back(std::move(t));
                   });
    w.executor().start(contention->holder_cpu, *holder, start - kHolderLead);
  }
  w.executor().start(p.cpu, prog, start);
  w.executor().run();
  if (contention) {
    std::stable_sort(res.ops.begin(), res.ops.end(), [](const TraceOp& a, const TraceOp& b) { return a.at < b.at; });
  }
  const auto& st = w.executor().stats(p.cpu);
  res.totals.lock_acquire = prog.stats().lock_acquires;
  res.totals.restarts = prog.stats().walk.restarts;
  res.totals.elapsed = st.finished - start;
  res.totals.asleep = st.sleep;
  res.failed = src.last_failed;
  return res;
}

}  // namespace walksim::kernel
