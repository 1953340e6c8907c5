// lock-loop: every thread repeatedly thinks (user time), then acquires one shared spinlock, works
// in the critical section and releases it. The lock is the kernel variant's spinlock kind (ticket
// on 2.6.x, qspinlock on 6.x), so two kernels compare ticket against queued locks; `walksim model
// ticketlock` gives the Markov model's prediction for the same parameters.
#include "models/config/limits.hpp"
#include "models/workload/workload.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::workload {
namespace {

struct LockLoopParams {
  Picos think = sim::from_ns(2000);
  Picos hold = sim::from_ns(100);
};

class LockSource final : public CountingSource {
 public:
  LockSource(const RunControl& c, const LockLoopParams& p) : CountingSource(c), p_(p) {}

 protected:
  bool produce(Syscall& out) override {
    out = Syscall{};
    out.sys = kernel::Sys::kLockHold;
    out.bytes = static_cast<std::uint64_t>(p_.hold / 1000);
    out.user_before = p_.think;
    out.ends_op = true;
    return true;
  }

 private:
  const LockLoopParams& p_;
};

class LockLoop final : public PerProcessWorkload {
 public:
  explicit LockLoop(LockLoopParams p) : p_(p) {}
  void build(kernel::Vfs& vfs, const std::vector<CpuId>& cpus, const RunControl& control, sim::Rng&) override {
    const kernel::DentryId cwd = vfs.mkpath("/", true, 0u);
    for (CpuId c : cpus) {
      add(vfs.new_process(c, cwd), std::make_unique<LockSource>(control, p_));
    }
  }
  std::string op_unit() const override { return "acquisition"; }

 private:
  LockLoopParams p_;
};

std::unique_ptr<Workload> make(const config::Node* params) {
  LockLoopParams p;
  if (params) {
    if (auto n = params->optional("think_time")) p.think = config::operation_time(*n);
    if (auto n = params->optional("hold_time")) {
      p.hold = config::operation_time(*n);
      if (p.hold % 1000 != 0) n->fail("hold_time must be a whole number of nanoseconds");
    }
  }
  return std::make_unique<LockLoop>(p);
}

}  // namespace

const WorkloadKind kLockLoopKind{"lock-loop", "think, then acquire / hold / release one shared spinlock", make,
                                 /*seeded=*/false, /*may_sleep=*/false};

}  // namespace walksim::workload
