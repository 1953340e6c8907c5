// The source of the loop workloads (stat-loop, open-close, creat-unlink): one operation is a fixed
// cycle of calls, repeated. The workload's user time comes before the first call of each cycle and
// the operation is counted at the last.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <utility>
#include <vector>

#include "models/workload/workload.hpp"

namespace walksim::workload {

class CyclicSource final : public CountingSource {
 public:
  CyclicSource(const RunControl& c, std::vector<Syscall> cycle, Picos user)
      : CountingSource(c), cycle_(std::move(cycle)) {
    if (cycle_.empty()) throw std::logic_error("a cyclic source needs at least one call");
    cycle_.front().user_before = user;
    cycle_.back().ends_op = true;
  }

 protected:
  bool produce(Syscall& out) override {
    out = cycle_[step_];
    step_ = step_ + 1 == cycle_.size() ? 0 : step_ + 1;
    return true;
  }

 private:
  std::vector<Syscall> cycle_;
  std::size_t step_ = 0;
};

// A call of the loop workloads' cycles.
inline Syscall loop_call(kernel::Sys sys, const std::string& path, bool create = false, bool write = false) {
  Syscall s;
  s.sys = sys;
  s.path = path;
  s.create = create;
  s.write = write;
  return s;
}

}  // namespace walksim::workload
