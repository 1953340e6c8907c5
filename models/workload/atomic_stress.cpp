// atomic-stress: SSYNC's atomic-operation stress test (libslock bmarks/atomic_bench.c, throughput
// mode; contention.md Fig. 4). Every thread repeats one atomic operation on one shared line, homed
// on the first participating node, and pauses after each. One operation is one call of the
// primitive, as SSYNC counts it: a CAS or TAS that fails still counts; the CAS-based FAI counts
// once, when its retry loop succeeds.
#include "models/kernel/bench_args.hpp"
#include "models/workload/ssync_pause.hpp"
#include "models/workload/workload.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::workload {
namespace {

using kernel::AtomicOp;

struct AtomicStressParams {
  AtomicOp op = AtomicOp::kFai;
  std::optional<Picos> pause;  // nullopt: ssync_pause() of the run
};

constexpr std::pair<std::string_view, AtomicOp> kOps[] = {{"fai", AtomicOp::kFai},
                                                          {"cas", AtomicOp::kCas},
                                                          {"swap", AtomicOp::kSwap},
                                                          {"tas", AtomicOp::kTas},
                                                          {"cas-fai", AtomicOp::kCasFai}};

constexpr Param<AtomicStressParams> kParams[] = {
    {"op",
     "the atomic operation: fai (lock xadd), cas (lock cmpxchg, may fail), swap (xchg), tas (xchg, then a store "
     "of 0 when it won), cas-fai (read, then cmpxchg until it succeeds)",
     [](const config::Node& n, AtomicStressParams& p) {
       std::vector<std::pair<std::string, AtomicOp>> table;
       for (const auto& [name, op] : kOps) table.emplace_back(name, op);
       p.op = n.as_enum<AtomicOp>(table);
     },
     [](const AtomicStressParams& p) -> ParamValue {
       for (const auto& [name, op] : kOps) {
         if (op == p.op) return std::string(name);
       }
       return std::monostate{};
     }},
    {"pause",
     "user time after each operation; auto: a bound on the owner's window among the run's cores, about one transfer "
     "(SSYNC's rule)",
     [](const config::Node& n, AtomicStressParams& p) { p.pause = read_pause(n); },
     [](const AtomicStressParams& p) -> ParamValue { return p.pause ? time_text(*p.pause) : std::string("auto"); }},
};

class AtomicSource final : public CountingSource {
 public:
  AtomicSource(const RunControl& c, machine::LineId line, AtomicOp op, Picos pause)
      : CountingSource(c), line_(line), op_(op), pause_(pause) {}

 protected:
  bool produce(Syscall& out) override {
    out = Syscall{};
    out.sys = kernel::Sys::kAtomicOp;
    out.bench.line = line_;
    out.bench.atomic = op_;
    // atomic_bench alternates by the thread's own count: CAS(0 -> 1) then CAS(1 -> 0); SWAP 1 then 0.
    out.bench.value = (issued_++ & 1) ? 0 : 1;
    out.user_before = pause_;  // the pause after the previous operation
    out.ends_op = true;
    return true;
  }

 private:
  machine::LineId line_;
  AtomicOp op_;
  Picos pause_;
  std::uint64_t issued_ = 0;
};

class AtomicStress final : public PerProcessWorkload {
 public:
  explicit AtomicStress(AtomicStressParams p) : p_(p) {}
  void build(kernel::Vfs& vfs, const std::vector<CpuId>& cpus, const RunControl& control, sim::Rng&) override {
    const auto& m = vfs.machine();
    const kernel::DentryId cwd = vfs.mkpath("/", true, 0u);
    const machine::LineId line = vfs.memory().add_line(m.node_of(m.core_of(cpus.front())));
    vfs.set_label(line, {"atomic-stress line", 0, "counter", true});
    const Picos pause = p_.pause ? *p_.pause : ssync_pause(m, cpus);
    for (CpuId c : cpus) add(vfs.new_process(c, cwd), std::make_unique<AtomicSource>(control, line, p_.op, pause));
  }
  std::string op_unit() const override { return "operation"; }
  ResolvedParams params() const override { return resolve_params<AtomicStressParams>(kParams, p_); }

 private:
  AtomicStressParams p_;
};

std::unique_ptr<Workload> make(const config::Node* params) {
  return std::make_unique<AtomicStress>(read_params<AtomicStressParams>(kParams, params, "atomic-stress"));
}
std::vector<ParamDoc> describe() { return describe_params<AtomicStressParams>(kParams); }

}  // namespace

const WorkloadKind kAtomicStressKind{
    "atomic-stress",    "one atomic operation (fai, cas, swap, tas, cas-fai) on one shared line, then a pause", make,
    describe,
    /*seeded=*/false,
    /*may_sleep=*/false};

}  // namespace walksim::workload
