// The syscall loop of one process.
#include "models/kernel/process_program.hpp"

namespace walksim::kernel {

namespace {
// Calls whose expansion changes neither the tree nor the descriptor table.
bool cacheable(Sys s) {
  switch (s) {
    case Sys::kStat:
    case Sys::kLstat:
    case Sys::kFstat:
    case Sys::kStatfs:
    case Sys::kRead:
    case Sys::kPread:
    case Sys::kWrite:
    case Sys::kPwrite:
    case Sys::kFsync:
    case Sys::kFcntlLock:
    case Sys::kUtime:
    case Sys::kLockHold:
      return true;
    default:
      return false;
  }
}

void add(WalkStats& to, const WalkStats& d) {
  to.rcu_lookups += d.rcu_lookups;
  to.restarts += d.restarts;
  to.nodentry += d.nodentry;
  to.permission += d.permission;
  to.link += d.link;
  to.reval += d.reval;
  to.ref_lookups += d.ref_lookups;
}
}  // namespace

const Expansion& ProcessProgram::expand(bool force_ref) {
  Vfs& vfs = rt_.vfs();
  if (!cacheable(current_.sys)) {
    rt_.expander().expand(current_, p_, force_ref, exp_, stats_.walk);
    return exp_;
  }
  std::string key = to_string(current_);
  key += force_ref ? "|ref" : "|rcu";
  auto it = cache_.find(key);
  if (it != cache_.end() && it->second.generation == vfs.generation() &&
      it->second.fd_generation == p_.fd_generation) {
    add(stats_.walk, it->second.delta);
    return it->second.exp;
  }
  Cached c;
  c.generation = vfs.generation();
  c.fd_generation = p_.fd_generation;
  rt_.expander().expand(current_, p_, force_ref, c.exp, c.delta);
  add(stats_.walk, c.delta);
  if (c.generation != vfs.generation() || c.fd_generation != p_.fd_generation) {  // it changed state: do not keep it
    exp_ = std::move(c.exp);
    return exp_;
  }
  auto& slot = cache_[key];
  slot = std::move(c);
  return slot.exp;
}

bool ProcessProgram::next(std::uint64_t last_result, exec::Op& out) {
  while (true) {
    if (active_) {
      switch (runner_.next(rt_, p_.cpu, last_result, out, stats_)) {
        case KOpRunner::Status::kOp:
          if (observer_) observer_(*active_exp_, runner_.current(), out);
          return true;
        case KOpRunner::Status::kRestart:
          // The whole lookup again, in ref-walk (path-lookup.txt's "restart").
          ++stats_.walk.restarts;
          active_exp_ = &expand(true);
          runner_.begin(*active_exp_);
          continue;
        case KOpRunner::Status::kDone:
          active_ = false;
          ++stats_.syscalls;
          if (active_exp_->failed) ++stats_.failed;
          source_.completed(current_, active_exp_->failed, now());
          break;
      }
    }
    if (!source_.next(current_)) return false;
    active_exp_ = &expand(false);
    runner_.begin(*active_exp_);
    active_ = true;
    if (current_.user_before > 0) {
      // User-space work before the call: CPU time, but not system time.
      stats_.user_time += current_.user_before;
      out = exec::Op::compute(current_.user_before);
      return true;
    }
  }
}

}  // namespace walksim::kernel
