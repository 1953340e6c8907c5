// The window in which every process of a run was measuring — from the latest end of a warm-up to
// the earliest last measured operation — and the operations completed inside it, counted while
// the run goes so that memory does not grow with the length of the run (a vector of every
// completion time grew by 8 bytes per operation: 512 GB for 10^9 operations on 64 processes).
//
// Exact, not estimated: completions are reported in non-decreasing simulated time (the executor
// runs threads in global time order), so an operation can be counted as soon as it is known to be
// after the window's start and no later than the earliest possible end, which is the oldest
// latest-completion among the processes. Only the operations beyond that point wait in a buffer:
// those completed while the slowest process completes one operation.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "sim/time.hpp"

namespace walksim::workload {

class CommonWindow {
 public:
  explicit CommonWindow(std::size_t processes);

  // Process `p` completed a measured operation at `t`; its measured window started at `first`
  // (the same value on every call). Throws std::logic_error if `t` is earlier than a completion
  // already reported (the engine broke its time order).
  void op(std::size_t p, sim::Picos t, sim::Picos first);
  // Process `p` will complete nothing more.
  void finished(std::size_t p);

  struct Result {
    bool common = false;  // there is a window in which every measuring process was measuring
    sim::Picos lo = 0, hi = 0;
    std::uint64_t in = 0;  // measured operations completed in (lo, hi]
  };
  // Once every process finished.
  Result result() const;

  // Completion times held back, for the test that memory stays bounded.
  std::size_t buffered() const { return pending_.size(); }

 private:
  struct Proc {
    bool has_ops = false;
    bool finished = false;
    sim::Picos latest = 0;  // its latest measured completion: its last once it finished
  };
  void settle();

  std::vector<Proc> procs_;
  std::size_t undecided_;           // processes with neither a measured op nor a finish: lo is not known
  sim::Picos lo_ = 0;               // the latest window start so far (the start, once undecided_ is 0)
  sim::Picos now_ = 0;              // the latest completion reported
  std::deque<sim::Picos> pending_;  // completions not yet counted, in time order
  std::size_t settle_at_ = 1024;    // buffer size at which to try counting
  std::uint64_t in_ = 0;
};

}  // namespace walksim::workload
