// Builds the little world a traced call needs, runs it through the same process program the
// experiments use, and records each executed operation with its kernel operation and line label.
#include "models/kernel/trace.hpp"

#include <stdexcept>

#include "models/coherence/memory_system.hpp"
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
    const std::string& name = parts[i];
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
    cur = vfs.add_dentry(cur, name, !(last && leaf == Leaf::kFile), false, 0u);
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
    t.compute = op.ps;
    totals.compute += op.ps;
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

TraceResult trace_syscall(const machine::Machine& m, const KernelSpec& k, const TraceRequest& req) {
  const Syscall s = parse_syscall(req.syscall);
  coherence::MemorySystem mem(m, false);
  Vfs vfs(mem, k);
  const DentryId cwd = vfs.mkpath(req.cwd, true, 0u);
  set_up_tree(vfs, cwd, s, req);
  Process& p = vfs.new_process(0, cwd);
  KernelRuntime rt(vfs, req.options);

  std::vector<Syscall> setup;  // a descriptor call's file is opened first
  if (sys_traits(s.sys).setup == TraceSetup::kOpenFile) setup.push_back(parse_syscall("open " + s.path + " O_RDWR"));

  sim::Simulation sim(1);
  exec::Executor ex(sim, mem);
  Picos start = 0;
  if (!setup.empty()) {
    ListSource src(setup);
    ProcessProgram prog(rt, p, src);
    ex.start(p.cpu, prog);
    ex.run();
    start = ex.stats(p.cpu).finished + sim::from_ns(10000);
  }

  TraceResult res;
  res.kernel = k.name;
  res.machine = m.spec().name;
  res.syscall = to_string(s);
  res.cwd = req.cwd;
  ListSource src({s});
  ProcessProgram prog(rt, p, src);
  prog.set_observer([&](const Expansion& exp, std::size_t i, const exec::Op& op) {
    res.ops.push_back(trace_op(vfs, exp, i, op, res.totals));
  });
  ex.start(p.cpu, prog, start);
  ex.run();
  res.totals.lock_acquire = prog.stats().lock_acquires;
  res.totals.restarts = prog.stats().walk.restarts;
  res.totals.elapsed = ex.stats(p.cpu).finished - start;
  res.failed = src.last_failed;
  return res;
}

}  // namespace walksim::kernel
