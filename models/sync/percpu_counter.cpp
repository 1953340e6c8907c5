// this_cpu_add as a load and a store on the CPU's own line; the sum as one load per CPU.
#include "models/sync/percpu_counter.hpp"

#include <stdexcept>
#include <string>

namespace walksim::sync {

PercpuCounter::PercpuCounter(std::span<const LineId> per_cpu) : lines_(per_cpu.begin(), per_cpu.end()) {
  if (lines_.empty()) throw std::invalid_argument("per-cpu counter needs one line per CPU");
}

bool PercpuCounter::do_step(SyncAction action, CpuId cpu, SyncCall& call, std::uint64_t last, Op& out) {
  switch (action) {
    case SyncAction::kPercpuAdd:
      if (cpu >= lines_.size()) throw std::out_of_range("per-cpu counter has no line for cpu " + std::to_string(cpu));
      // `addl %gs:...` is not locked; its read and write both hit the CPU's own line.
      if (call.step == 0) {
        out = Op::load(lines_[cpu]);
        call.step = 1;
        return true;
      }
      if (call.step == 1) {
        out = Op::store(lines_[cpu], last + call.arg);
        call.step = 2;
        return true;
      }
      return false;
    case SyncAction::kRead:
      // step k + 1 has loaded line k; scratch accumulates the sum.
      if (call.step > 0) call.scratch += last;
      if (call.step < lines_.size()) {
        out = Op::load(lines_[call.step]);
        ++call.step;
        return true;
      }
      call.result = call.scratch;
      return false;
    default:
      unsupported(action);
  }
}

}  // namespace walksim::sync
