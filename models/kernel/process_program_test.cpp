// A process's reuse of expansions is a host-time saving only: whatever the cache size, a run must
// count and time exactly the same operations, including when other processes change the tree (the
// directories it walks, or others only) and the process's own descriptor table changes between
// calls. Changes elsewhere in the tree must not make it expand its calls again.
#include "models/kernel/process_program.hpp"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "models/coherence/memory_system.hpp"
#include "models/kernel/test_support.hpp"
#include "sim/simulation.hpp"

namespace walksim::kernel {
namespace {

struct Outcome {
  std::uint64_t syscalls, failed, atomics, loads, stores, locks, restarts, ref_lookups, rcu_lookups;
  sim::Picos finished;
  std::vector<std::uint64_t> line_transactions;
  std::uint64_t expansions;  // the reader's: not compared (a host-time saving)
  bool operator==(const Outcome& o) const {
    return std::tie(syscalls, failed, atomics, loads, stores, locks, restarts, ref_lookups, rcu_lookups, finished,
                    line_transactions) == std::tie(o.syscalls, o.failed, o.atomics, o.loads, o.stores, o.locks,
                                                   o.restarts, o.ref_lookups, o.rcu_lookups, o.finished,
                                                   o.line_transactions);
  }
};

// `changer_dir`: the directory the other process renames and creates in ("d": the reader's).
// `one_by_one`: every Op made by next(), none handed out in a run of plain KOps (a traced process,
// one with an observer, is run so).
// `run_ahead`: the executor's window (Executor::set_run_ahead; default: step by step).
Outcome run(const std::string& kernel, std::size_t cache_entries, const std::string& changer_dir = "d",
            bool one_by_one = false, sim::Picos run_ahead = exec::Executor::kRunAheadOff) {
  machine::Machine m(machine::load_machine("nehalem-ep-2s8c", testing::machine_dirs()));
  const KernelSpec k = load_kernel(kernel, testing::kernel_dirs());
  coherence::MemorySystem mem(m, false);
  Vfs vfs(mem, k);
  const DentryId cwd = vfs.mkpath("/w", true, 0u);
  const DentryId d = vfs.add_dentry(cwd, "d", true, true, 0u);
  if (changer_dir != "d") vfs.add_dentry(vfs.add_dentry(cwd, changer_dir, true, true, 0u), "a", false, true, 0u);
  // More distinct cacheable calls than the default cache holds (so that it fills and starts
  // again), calls repeated back to back (so that even a small cache is reused), reads and writes
  // on an open descriptor, and the descriptor table changing now and then.
  const int files = 3 * static_cast<int>(ProcessProgram::kCacheEntries);
  for (int i = 0; i < files; ++i) vfs.add_dentry(d, "f" + std::to_string(i), false, true, 0u);
  std::vector<std::string> reader{"open ./d/f0 O_RDWR"};
  for (int round = 0; round < 6; ++round) {
    for (int i = 0; i < files; ++i) {
      const std::string f = "./d/f" + std::to_string(i);
      reader.push_back("stat " + f);
      if (i % 8 == 0) {
        reader.insert(reader.end(),
                      {"stat " + f, "stat " + f, "read ./d/f0 512", "write ./d/f0 512", "read ./d/f0 512"});
      }
    }
    if (round == 2) reader.insert(reader.end(), {"open ./d/f1 O_RDONLY", "close ./d/f1"});
    // A read with the descriptor closed fails (EBADF) where the same read succeeded before.
    if (round == 3) reader.insert(reader.end(), {"close ./d/f0", "read ./d/f0 512", "open ./d/f0 O_RDWR"});
  }
  reader.push_back("close ./d/f0");
  Process& a = vfs.new_process(0, cwd);
  Process& b = vfs.new_process(4, cwd);
  KernelRuntime rt(vfs, {});
  testing::Repeat reads(reader, 1);
  // Another process changes the tree the reader walks: renames, creates and unlinks.
  // Renames of the reader's directory itself, or of a file inside the other one (renaming the
  // other directory would change the reader's cwd, which its walks read).
  const std::string c = "./" + changer_dir;
  const std::vector<std::string> renames =
      changer_dir == "d" ? std::vector<std::string>{"rename ./d ./e", "rename ./e ./d"}
                         : std::vector<std::string>{"rename " + c + "/a " + c + "/b", "rename " + c + "/b " + c + "/a"};
  std::vector<std::string> changes_calls = renames;
  changes_calls.insert(changes_calls.end(),
                       {"open " + c + "/new O_WRONLY|O_CREAT", "close " + c + "/new", "unlink " + c + "/new"});
  testing::Repeat changes(changes_calls, 40);
  ProcessProgram pa(rt, a, reads, cache_entries), pb(rt, b, changes, cache_entries);
  if (one_by_one) {
    for (ProcessProgram* p : {&pa, &pb}) p->set_observer([](const Expansion&, std::size_t, const exec::Op&) {});
  }
  sim::Simulation sim(1);
  exec::Executor ex(sim, mem);
  ex.set_run_ahead(run_ahead);
  ex.start(a.cpu, pa);
  ex.start(b.cpu, pb);
  ex.run();
  const auto& s = pa.stats();
  Outcome o{s.syscalls,
            s.failed,
            s.atomic_rmw,
            s.loads,
            s.stores,
            s.lock_acquires,
            s.walk.restarts,
            s.walk.ref_lookups,
            s.walk.rcu_lookups,
            ex.stats(a.cpu).finished,
            {},
            pa.expansions()};
  for (LineId l = 0; l < mem.line_count(); ++l) o.line_transactions.push_back(mem.line_stats(l).transactions);
  return o;
}

TEST(ExpansionReuse, ChangesNothingWhateverTheCacheSize) {
  for (const char* kernel : {"linux-2.6.35", "linux-2.6.38"}) {
    SCOPED_TRACE(kernel);
    const Outcome none = run(kernel, 0);
    EXPECT_GT(none.syscalls, 300u);
    EXPECT_GT(none.failed, 0u);  // stats during a rename fail: the tree really changed under the reader
    EXPECT_EQ(run(kernel, 4), none);
    EXPECT_EQ(run(kernel, ProcessProgram::kCacheEntries), none);
    EXPECT_EQ(run(kernel, 100000), none);
  }
}

TEST(ExpansionReuse, ChangesInAnotherDirectoryKeepTheExpansionsAndChangeNothing) {
  for (const char* kernel : {"linux-2.6.35", "linux-2.6.38"}) {
    SCOPED_TRACE(kernel);
    const Outcome none = run(kernel, 0, "other");
    const Outcome cached = run(kernel, 100000, "other");
    EXPECT_EQ(cached, none);
    EXPECT_EQ(none.expansions, none.syscalls + none.restarts);  // no cache: every call expanded
    // A change in "other" renames and creates where the reader never looks, so its stats are
    // expanded about once each (and the calls around its descriptor changes again), where
    // changes in "d" invalidate them again and again.
    const Outcome mixed = run(kernel, 100000, "d");
    EXPECT_LT(cached.expansions * 3, mixed.expansions * 2);  // 157 against 316 (2026-12-05)
    EXPECT_LT(cached.expansions * 2, none.expansions);
  }
}

// Runs of plain KOps handed to the executor at once (Program::take_run) are a host-time saving
// only: the same run as with every Op made one by one, for every kernel and cache size.
TEST(ExpansionRuns, ChangeNothing) {
  for (const char* kernel : {"linux-2.6.35", "linux-2.6.38"}) {
    SCOPED_TRACE(kernel);
    for (std::size_t cache : {std::size_t{0}, ProcessProgram::kCacheEntries}) {
      // Stepped, with the exact run-ahead (which peeks at a run's head), and with a window that is
      // an approximation.
      for (sim::Picos ahead : {exec::Executor::kRunAheadOff, exec::Executor::kRunAheadExact, sim::from_ns(20)}) {
        SCOPED_TRACE(::testing::Message() << "cache " << cache << ", run-ahead " << ahead);
        const Outcome one_by_one = run(kernel, cache, "d", true, ahead);
        EXPECT_GT(one_by_one.restarts + one_by_one.failed, 0u);  // the runs meet restarts and failures
        EXPECT_EQ(run(kernel, cache, "d", false, ahead), one_by_one);
      }
    }
  }
}

// compile(): each KOp's plain Op, where the run of plain KOps from it ends, and the counts.
TEST(ExpansionRuns, CompileMarksTheRunsOfPlainKOps) {
  Expansion e;
  auto kop = [](KOpKind kind, LineId line) {
    KOp k;
    k.kind = kind;
    k.line = line;
    return k;
  };
  e.ops = {kop(KOpKind::kLoad, 1),   kop(KOpKind::kStore, 2), kop(KOpKind::kSpinLock, 3), kop(KOpKind::kCompute, 0),
           kop(KOpKind::kAtomic, 4), kop(KOpKind::kLoad, 5),  kop(KOpKind::kSeqCheck, 6), kop(KOpKind::kSpinUnlock, 3)};
  KOpRunner::compile(e);
  EXPECT_EQ(e.run_end, (std::vector<std::uint32_t>{2, 2, 2, 6, 6, 6, 6, 7, 8}));
  ASSERT_EQ(e.counts.size(), 9u);
  EXPECT_EQ(e.counts[2].loads, 1u);
  EXPECT_EQ(e.counts[2].stores, 1u);
  EXPECT_EQ(e.counts[6].loads, 2u);
  EXPECT_EQ(e.counts[6].rmw, 1u);
  EXPECT_EQ(e.counts[8].loads, 2u);  // lock KOps count their Ops as they run, not here
  EXPECT_EQ(e.plain[1].kind, exec::OpKind::kStore);
  EXPECT_EQ(e.plain[1].line, 2u);
  EXPECT_EQ(e.plain[4].kind, exec::OpKind::kRmwAdd);
  EXPECT_EQ(e.plain[5].line, 5u);
  // Compiled again after fewer KOps: sized to them.
  e.ops.resize(2);
  KOpRunner::compile(e);
  EXPECT_EQ(e.run_end, (std::vector<std::uint32_t>{2, 2, 2}));
}

}  // namespace
}  // namespace walksim::kernel
