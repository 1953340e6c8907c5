// The syscall loop of one process.
#include "models/kernel/process_program.hpp"

namespace walksim::kernel {

bool ProcessProgram::next(std::uint64_t last_result, exec::Op& out) {
  while (true) {
    if (active_) {
      switch (runner_.next(rt_, p_.cpu, last_result, out, stats_)) {
        case KOpRunner::Status::kOp:
          if (observer_) observer_(exp_, runner_.current(), out);
          return true;
        case KOpRunner::Status::kRestart:
          // The whole lookup again, in ref-walk (path-lookup.txt's "restart").
          ++stats_.walk.restarts;
          rt_.expander().expand(current_, p_, true, exp_, stats_.walk);
          runner_.begin(exp_);
          continue;
        case KOpRunner::Status::kDone:
          active_ = false;
          ++stats_.syscalls;
          if (exp_.failed) ++stats_.failed;
          source_.completed(current_, exp_.failed, now());
          break;
      }
    }
    if (!source_.next(current_)) return false;
    rt_.expander().expand(current_, p_, false, exp_, stats_.walk);
    runner_.begin(exp_);
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
