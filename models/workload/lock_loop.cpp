// lock-loop: every thread repeatedly thinks (user time), then acquires a lock, works in the critical
// section and releases it. By default the lock is one shared spinlock of the kernel variant's kind
// (ticket on 2.6.x, qspinlock on 6.x), so two kernels compare ticket against queued locks; `walksim
// model ticketlock` gives the Markov model's prediction for the same parameters. With `lock`,
// `protected_lines` and `locks` it is SSYNC's lock stress test (contention.md Figs. 3, 5 and 7):
// a lock of a chosen algorithm, picked at random among `locks`, whose own protected lines the
// critical section reads and writes (or, with `protected_access: write`, only writes); locks and
// data homed on the first participating node.
#include "models/config/limits.hpp"
#include "models/kernel/bench_args.hpp"
#include "models/sync/sync_registry.hpp"
#include "models/workload/ssync_pause.hpp"
#include "models/workload/workload.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::workload {
namespace {

// How many locks one run may make: each is a line, plus its protected lines, plus one node line
// per CPU of the machine for MCS and CLH (512 MCS locks on 48 CPUs are 25,000 lines). SSYNC's
// largest test used 512.
constexpr std::uint32_t kMaxLocks = 4096;
constexpr std::uint32_t kMaxProtectedLines = 64;

struct LockLoopParams {
  std::optional<Picos> think = sim::from_ns(2000);  // nullopt: ssync_pause() of the run
  Picos think_per_other_thread = 0;                 // added to think once per other thread of the run
  Picos hold = sim::from_ns(100);
  kernel::SyncKindIndex lock = kernel::kVariantSpinlock;  // a sync kind of the registry
  std::uint32_t protected_lines = 0;
  std::uint32_t locks = 1;
  std::uint32_t locks_per_line = 1;  // locks whose words share one line
  bool write_only = false;           // protected_access: write
};

// The locks lock-loop can take: any of the sync registry (walksim locks), spinning, then sleeping.
std::vector<std::string> lock_names() {
  std::vector<std::string> kinds = sync::sync_kind_names(sync::SyncRole::kSpinlock);
  for (auto& k : sync::sync_kind_names(sync::SyncRole::kSleeping)) kinds.push_back(std::move(k));
  return kinds;
}

constexpr Param<LockLoopParams> kParams[] = {
    {"think_time", "user time between a release and the next acquisition; auto: as atomic-stress's pause",
     [](const config::Node& n, LockLoopParams& p) { p.think = read_pause(n); },
     [](const LockLoopParams& p) -> ParamValue { return p.think ? time_text(*p.think) : std::string("auto"); }},
    {"think_per_other_thread",
     "more user time after each release, per other thread of the run (libslock's pthread mutex test: 30 cycles)",
     [](const config::Node& n, LockLoopParams& p) { p.think_per_other_thread = config::operation_time(n); },
     [](const LockLoopParams& p) -> ParamValue { return time_text(p.think_per_other_thread); }},
    {"hold_time", "time the lock is held, in whole nanoseconds",
     [](const config::Node& n, LockLoopParams& p) {
       p.hold = config::operation_time(n);
       if (p.hold % 1000 != 0) n.fail("hold_time must be a whole number of nanoseconds");
     },
     [](const LockLoopParams& p) -> ParamValue { return time_text(p.hold); }},
    {"lock", "any lock of the sync registry (walksim locks); left out: the kernel variant's spinlock on its test_lock",
     [](const config::Node& n, LockLoopParams& p) {
       const auto kinds = lock_names();
       p.lock = sync::sync_kind_index(kinds[n.as_choice(kinds)]);
     },
     [](const LockLoopParams& p) -> ParamValue {
       if (p.lock == kernel::kVariantSpinlock) return std::monostate{};
       return std::string(sync::sync_kinds()[p.lock].name);
     }},
    {"protected_lines", "lines each acquisition reads and writes while it holds the lock (0..64)",
     [](const config::Node& n, LockLoopParams& p) {
       p.protected_lines = read_count(n, "protected_lines", 0, kMaxProtectedLines);
     },
     [](const LockLoopParams& p) -> ParamValue { return std::uint64_t{p.protected_lines}; }},
    {"protected_access",
     "read-write: each protected line is read, then written (libslock's stress_test -w 1); write: only written (-w 0)",
     [](const config::Node& n, LockLoopParams& p) {
       p.write_only = n.as_choice({"read-write", "write"}) == 1;
     },
     [](const LockLoopParams& p) -> ParamValue { return std::string(p.write_only ? "write" : "read-write"); }},
    {"locks", "locks to pick from at random per acquisition (1..4096)",
     [](const config::Node& n, LockLoopParams& p) {
       p.locks = read_count(n, "locks", 1, kMaxLocks,
                            "(each lock is a line of its own, plus its protected lines and, for mcs and clh, a node "
                            "line per CPU)");
     },
     [](const LockLoopParams& p) -> ParamValue { return std::uint64_t{p.locks}; }},
    {"locks_per_line",
     "locks whose lock words share one line, lock i with the next ones (1..8; libslock's MCS lock words are "
     "8-byte mallocs, two to a 64-byte line); their protected lines stay their own",
     [](const config::Node& n, LockLoopParams& p) { p.locks_per_line = read_count(n, "locks_per_line", 1, 8); },
     [](const LockLoopParams& p) -> ParamValue { return std::uint64_t{p.locks_per_line}; }},
};

// One lock's lines: its own line (kNoLine: the kernel's test_lock) and its first protected line.
struct LockLines {
  machine::LineId lock = kernel::kNoLine;
  std::uint32_t word = exec::kLineWord;  // the lock's word on its line (its own line: the line's word)
  machine::LineId data = 0;
};

class LockSource final : public CountingSource {
 public:
  LockSource(const RunControl& c, const LockLoopParams& p, Picos think, const std::vector<LockLines>& locks,
             std::uint64_t seed)
      : CountingSource(c), p_(p), think_(think), locks_(locks), rng_(seed) {}

 protected:
  bool produce(Syscall& out) override {
    out = Syscall{};
    out.sys = kernel::Sys::kLockHold;
    out.bytes = static_cast<std::uint64_t>(p_.hold / 1000);
    out.user_before = think_;
    // SSYNC's pause (think_time auto) is there so that the release is seen before the thread tries
    // again: it runs from the release's visibility, not from its issue into the store buffer.
    out.user_after_own_stores = !p_.think.has_value();
    out.ends_op = true;
    const LockLines& l = locks_.size() > 1 ? locks_[rng_.below(locks_.size())] : locks_.front();
    out.bench.lock = p_.lock;
    out.bench.line = l.lock;
    out.bench.word = l.word;
    out.bench.data = l.data;
    out.bench.data_lines = p_.protected_lines;
    out.bench.data_write_only = p_.write_only;
    return true;
  }

 private:
  const LockLoopParams& p_;
  Picos think_;
  const std::vector<LockLines>& locks_;
  sim::Rng rng_;
};

class LockLoop final : public PerProcessWorkload {
 public:
  explicit LockLoop(LockLoopParams p) : p_(p) {}
  void build(kernel::Vfs& vfs, const std::vector<CpuId>& cpus, const RunControl& control, sim::Rng& rng) override {
    const kernel::DentryId cwd = vfs.mkpath("/", true, 0u);
    make_locks(vfs, cpus);
    think_ = (p_.think ? *p_.think : ssync_pause(vfs.machine(), cpus)) +
             p_.think_per_other_thread * static_cast<Picos>(cpus.size() - 1);
    for (CpuId c : cpus) {
      const std::uint64_t seed = p_.locks > 1 ? rng.next() : 0;  // the lock picked per acquisition
      add(vfs.new_process(c, cwd), std::make_unique<LockSource>(control, p_, think_, locks_, seed));
    }
  }
  std::string op_unit() const override { return "acquisition"; }
  ResolvedParams params() const override { return resolve_params<LockLoopParams>(kParams, p_); }
  std::optional<bool> seeded_by_params() const override {
    return p_.locks > 1 ? std::optional<bool>(true) : std::nullopt;
  }
  std::optional<bool> may_sleep_by_params() const override {
    const bool sleeps =
        p_.lock != kernel::kVariantSpinlock && sync::sync_kinds()[p_.lock].role == sync::SyncRole::kSleeping;
    return sleeps ? std::optional<bool>(true) : std::nullopt;
  }

 private:
  // The default (one lock of the kernel's kind, no protected lines) is the kernel's test_lock
  // and nothing else, as lock-loop always was. Otherwise the locks and their protected lines are
  // new lines on the first participating node, each lock's data on consecutive lines; with
  // locks_per_line k, locks i..i+k-1 keep their words on one line (each its own word).
  void make_locks(kernel::Vfs& vfs, const std::vector<CpuId>& cpus) {
    auto& mem = vfs.memory();
    const auto home = vfs.machine().node_of(vfs.machine().core_of(cpus.front()));
    const bool own_lock = p_.lock != kernel::kVariantSpinlock || p_.locks > 1;
    for (std::uint32_t i = 0; i < p_.locks; ++i) {
      LockLines l;
      const std::string name = "lock-loop lock " + std::to_string(i);
      if (own_lock && i % p_.locks_per_line == 0) {
        l.lock = mem.add_line(home);
        std::string label = name;
        for (std::uint32_t j = i + 1; j < std::min(p_.locks, i + p_.locks_per_line); ++j) {
          label += ", " + std::to_string(j);
        }
        vfs.set_label(l.lock, {label, 0, "lock", true});
      } else if (own_lock) {
        l.lock = locks_.back().lock;
      }
      if (own_lock && p_.locks_per_line > 1) l.word = vfs.new_words(1);
      for (std::uint32_t d = 0; d < p_.protected_lines; ++d) {
        const machine::LineId line = mem.add_line(home);
        if (d == 0) l.data = line;
        if (line != l.data + d) throw std::logic_error("lock-loop: protected lines are not consecutive");
        vfs.set_label(line, {"data of " + name, d, "data", true});
      }
      locks_.push_back(l);
    }
  }

  LockLoopParams p_;
  Picos think_ = 0;
  std::vector<LockLines> locks_;
};

std::unique_ptr<Workload> make(const config::Node* params) {
  return std::make_unique<LockLoop>(read_params<LockLoopParams>(kParams, params, "lock-loop"));
}
std::vector<ParamDoc> describe() { return describe_params<LockLoopParams>(kParams); }

}  // namespace

const WorkloadKind kLockLoopKind{
    "lock-loop",        "think, then acquire / hold / release a lock (of the kernel's kind, or SSYNC's)", make,
    describe,
    /*seeded=*/false,
    /*may_sleep=*/false};

}  // namespace walksim::workload
