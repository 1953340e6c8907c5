// The syscall loop of one process.
#include "models/kernel/process_program.hpp"

#include <string_view>

namespace walksim::kernel {

// The cache key: every field of the call that its expansion depends on (as to_string shows it),
// built into a reused buffer so that a lookup allocates nothing.
void ProcessProgram::make_key(bool force_ref) {
  key_.clear();
  key_ += static_cast<char>(current_.sys);
  key_ += force_ref ? 'r' : 'c';
  key_.append(reinterpret_cast<const char*>(&current_.bytes), sizeof current_.bytes);
  key_ += current_.path;
  key_ += '\0';
  key_ += current_.path2;
  if (current_.sys == Sys::kLockHold || current_.sys == Sys::kAtomicOp) {
    const BenchArgs& b = current_.bench;
    key_ += '\0';
    key_ += static_cast<char>(b.lock);
    key_ += static_cast<char>(b.atomic);
    key_ += static_cast<char>(b.value);
    key_ += b.data_write_only ? 'w' : 'r';
    for (std::uint32_t v : {b.line, b.data, b.data_lines}) key_.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
}

const Expansion& ProcessProgram::expand(bool force_ref) {
  Vfs& vfs = rt_.vfs();
  if (!sys_traits(current_.sys).cacheable || cache_entries_ == 0) {
    ++expansions_;
    rt_.expander().expand(current_, p_, force_ref, exp_, stats_.walk);
    return exp_;
  }
  make_key(force_ref);
  const std::size_t hash = std::hash<std::string_view>{}(key_);
  Cached* found = nullptr;
  for (Cached& c : cache_) {
    if (c.hash == hash && c.key == key_) {
      found = &c;
      break;
    }
  }
  if (found && found->valid && vfs.reads_unchanged(found->reads)) {
    stats_.walk += found->delta;
    // Compiled for runs on its second reuse: an expansion run once or twice is run one Op at a
    // time, since compiling it would cost more than its runs save and its compiled form would be
    // more host memory to miss in (dbench's calls, which change the tree, are mostly expanded
    // afresh, and half of those reused at all were compiled on the first reuse: 9,763 compiles in
    // 20,000 reuses on dbench-64, 17 MB of compiled operations written).
    if (++found->reuses == kCompileAtReuse) KOpRunner::compile(found->exp);
    return found->exp;
  }
  // Expand into the call's slot, or a new one, or the oldest (reusing its storage). A call that
  // changed the tree or the descriptor table while expanding is not kept valid: it stays stale.
  if (!found) {
    if (cache_.size() < cache_entries_) {
      found = &cache_.emplace_back();
    } else {
      found = &cache_[next_victim_];
      next_victim_ = (next_victim_ + 1) % cache_entries_;
    }
    found->key.assign(key_);
    found->hash = hash;
  }
  Cached& slot = *found;
  const std::uint64_t generation = vfs.generation();
  const std::uint64_t fd_generation = p_.fd_generation;
  slot.valid = false;  // until the expansion is complete
  slot.reuses = 0;
  slot.delta = WalkStats{};
  slot.reads.clear();
  {
    // Stops recording however the expansion ends (a bad call throws).
    struct Recording {
      Vfs& vfs;
      ~Recording() { vfs.record_reads(nullptr); }
    } recording{vfs};
    vfs.record_reads(&slot.reads);
    ++expansions_;
    rt_.expander().expand(current_, p_, force_ref, slot.exp, slot.delta);
  }
  stats_.walk += slot.delta;
  slot.valid = generation == vfs.generation() && fd_generation == p_.fd_generation;
  return slot.exp;
}

bool ProcessProgram::next(std::uint64_t last_result, exec::Op& out) {
  while (true) {
    if (user_phase_) {
      if (user_next_ < current_.user_access_count) {
        const auto& a = current_.user_accesses[user_next_++];
        out = a.write ? exec::Op::store(a.line, 1) : exec::Op::load(a.line);
        return true;
      }
      // The program's own memory: the time from its first access to now is user time.
      stats_.user_time += now() - user_start_;
      user_phase_ = false;
      if (emit_user_work(out)) return true;
    }
    if (active_) {
      switch (runner_.next(rt_, cpu_, last_result, out, stats_)) {
        case KOpRunner::Status::kOp:
          if (observer_) {
            observer_(*active_exp_, runner_.current(), out);  // a trace sees every Op made one by one
          } else {
            const exec::Program::Run run = runner_.take_plain_run(stats_);
            if (run.begin != run.end) hand_out_run(run.begin, run.end);
          }
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
    if (current_.user_access_count > 0) {
      user_phase_ = true;
      user_next_ = 0;
      user_start_ = now();
      continue;
    }
    if (emit_user_work(out)) return true;
  }
}

bool ProcessProgram::emit_user_work(exec::Op& out) {
  if (current_.user_before <= 0) return false;
  // User-space work before the call: CPU time, but not system time; counted as the executor
  // charges it (slower on a core shared with a running SMT sibling).
  stats_.user_time += core_speed()(current_.user_before);
  out = current_.user_after_own_stores ? exec::Op::compute_after_own_stores(current_.user_before)
                                       : exec::Op::compute(current_.user_before);
  return true;
}

}  // namespace walksim::kernel
