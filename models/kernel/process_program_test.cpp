// A process's reuse of expansions is a host-time saving only: whatever the cache size, a run must
// count and time exactly the same operations, including when other processes change the tree and
// the process's own descriptor table changes between calls.
#include "models/kernel/process_program.hpp"

#include <gtest/gtest.h>

#include <string>
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
  bool operator==(const Outcome&) const = default;
};

Outcome run(const std::string& kernel, std::size_t cache_entries) {
  machine::Machine m(machine::load_machine("nehalem-ep-2s8c", testing::machine_dirs()));
  const KernelSpec k = load_kernel(kernel, testing::kernel_dirs());
  coherence::MemorySystem mem(m, false);
  Vfs vfs(mem, k);
  const DentryId cwd = vfs.mkpath("/w", true, 0u);
  const DentryId d = vfs.add_dentry(cwd, "d", true, true, 0u);
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
  testing::Repeat changes(
      {"rename ./d ./e", "rename ./e ./d", "open ./d/new O_WRONLY|O_CREAT", "close ./d/new", "unlink ./d/new"}, 40);
  ProcessProgram pa(rt, a, reads, cache_entries), pb(rt, b, changes, cache_entries);
  sim::Simulation sim(1);
  exec::Executor ex(sim, mem);
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
            {}};
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

}  // namespace
}  // namespace walksim::kernel
