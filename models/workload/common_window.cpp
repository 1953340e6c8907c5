// Counting the common window as the run goes.
#include "models/workload/common_window.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace walksim::workload {

CommonWindow::CommonWindow(std::size_t processes) : procs_(processes), undecided_(processes) {}

void CommonWindow::op(std::size_t p, sim::Picos t, sim::Picos first) {
  if (t < now_) {
    throw std::logic_error("a measured operation completed at " + std::to_string(t) + " ps was reported after one at " +
                           std::to_string(now_) + " ps");
  }
  now_ = t;
  Proc& pr = procs_.at(p);
  if (!pr.has_ops) {
    pr.has_ops = true;
    if (!pr.finished) --undecided_;
    lo_ = std::max(lo_, first);
  }
  pr.latest = t;
  pending_.push_back(t);
  if (pending_.size() >= settle_at_) settle();
}

void CommonWindow::finished(std::size_t p) {
  Proc& pr = procs_.at(p);
  if (pr.finished) return;
  pr.finished = true;
  if (!pr.has_ops) --undecided_;
}

// Counts what is certain: a completion after the window's start and no later than every measuring
// process's latest completion (each one's last is at least that, so the window ends no earlier).
void CommonWindow::settle() {
  if (undecided_ == 0) {
    sim::Picos end = sim::kNever;
    for (const Proc& pr : procs_) {
      if (pr.has_ops) end = std::min(end, pr.latest);
    }
    while (!pending_.empty() && pending_.front() <= end) {
      in_ += pending_.front() > lo_;
      pending_.pop_front();
    }
  } else {
    // The start is not known yet, but it is no earlier than lo_: what lies before never counts.
    while (!pending_.empty() && pending_.front() <= lo_) pending_.pop_front();
  }
  // A process that lags keeps the buffer from draining: try again only when it has doubled, so
  // that the cost of settling stays constant per operation.
  settle_at_ = std::max<std::size_t>(1024, 2 * pending_.size());
}

CommonWindow::Result CommonWindow::result() const {
  Result r;
  sim::Picos hi = sim::kNever;
  bool any = false;
  for (const Proc& pr : procs_) {
    if (!pr.has_ops) continue;
    any = true;
    hi = std::min(hi, pr.latest);
  }
  if (!any || hi <= lo_) return r;
  r.common = true;
  r.lo = lo_;
  r.hi = hi;
  r.in = in_;
  for (sim::Picos t : pending_) r.in += t > lo_ && t <= hi;
  return r;
}

}  // namespace walksim::workload
