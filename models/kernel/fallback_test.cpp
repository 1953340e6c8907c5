// rcu-walk's drops to ref-walk (pathwalk.md §8), each counted by reason, and the restart when a
// concurrent rename changes a d_seq under a walk.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "models/coherence/memory_system.hpp"
#include "models/kernel/process_program.hpp"
#include "models/kernel/test_support.hpp"
#include "sim/simulation.hpp"

namespace walksim::kernel {
namespace {

using testing::trace;

TEST(Fallback, AnAclCheckByANonOwnerDropsRcuWalkToRefWalk) {
  machine::Machine m(machine::load_machine("nehalem-ep-2s8c", testing::machine_dirs()));
  const KernelSpec k = load_kernel("linux-2.6.38", testing::kernel_dirs());
  TraceRequest req;
  req.syscall = "stat ./d/f";
  req.acl_on_dirs = true;
  req.options.posix_acl = true;
  req.options.caller_is_owner = false;
  const auto with_acl = trace_syscall(m, k, req);
  req.options.caller_is_owner = true;
  const auto as_owner = trace_syscall(m, k, req);
  EXPECT_EQ(as_owner.totals.atomic_rmw, 4u);
  // Drop at the cwd (d_lock), then ref-walk: ACL get/put (i_lock + 2 atomics) per directory, the
  // child's d_lock and the parent's dput per component.
  EXPECT_GT(with_acl.totals.atomic_rmw, as_owner.totals.atomic_rmw + 6);
  bool took_i_lock = false;
  for (const auto& op : with_acl.ops) took_i_lock |= op.field == "i_lock" && op.op.rfind("rmw", 0) == 0;
  EXPECT_TRUE(took_i_lock);
}

TEST(Fallback, AFollowedSymlinkDropsRcuWalkAndTheWalkEndsAtTheTarget) {
  machine::Machine m(machine::load_machine("barcelona-2s8c", testing::machine_dirs()));
  const KernelSpec k = load_kernel("linux-2.6.38", testing::kernel_dirs());
  TraceRequest req;
  req.syscall = "stat ./link/f";
  req.files = {"./real/f"};
  req.symlinks = {{"./link", "real"}};
  const auto through = trace_syscall(m, k, req);
  EXPECT_FALSE(through.failed);
  EXPECT_GT(through.totals.atomic_rmw, 4u);  // ref-walk after the drop at the link
  bool read_target = false;
  for (const auto& op : through.ops) read_target |= op.object == "dentry 'f'" && op.op.rfind("rmw", 0) == 0;
  EXPECT_TRUE(read_target);
}

TEST(Fallback, AMissingNameDropsToRefWalkAndFailsWithoutLeavingADentry) {
  machine::Machine m(machine::load_machine("barcelona-2s8c", testing::machine_dirs()));
  const KernelSpec k = load_kernel("linux-2.6.38", testing::kernel_dirs());
  coherence::MemorySystem mem(m, true);
  Vfs vfs(mem, k);
  const DentryId cwd = vfs.mkpath("/w", true, 0u);
  Process& p = vfs.new_process(0, cwd);
  KernelRuntime rt(vfs, {});
  Expansion exp;
  WalkStats stats;
  rt.expander().expand(parse_syscall("stat ./nothing"), p, false, exp, stats);
  EXPECT_TRUE(exp.failed);
  EXPECT_EQ(stats.nodentry, 1u);
  EXPECT_FALSE(vfs.child(cwd, "nothing").has_value());
}

// One run: `walkers` CPUs of the first socket stat ./d/f while `renamer_cpu` renames d back and
// forth, with `fillers` stats of an unrelated file between renames. Both loops are deterministic
// and meet on shared lines, so they can lock into a phase in which no rename lands inside a walk's
// window (since the helpers' call costs, 2026-12-04, a renamer on the other socket of
// nehalem-ep-2s8c does so at every period tried here), and any change of a cost moves that phase:
// the tests below sum over renamers on both sockets, walker counts and renamer periods instead of
// trusting one.
std::uint64_t restarts_under_renames(const std::string& kernel, int walkers, int fillers, int renamer_cpu) {
  machine::Machine m(machine::load_machine("nehalem-ep-2s8c", testing::machine_dirs()));
  const KernelSpec k = load_kernel(kernel, testing::kernel_dirs());
  coherence::MemorySystem mem(m, true);
  Vfs vfs(mem, k);
  const DentryId cwd = vfs.mkpath("/w", true, 0u);
  const DentryId d = vfs.add_dentry(cwd, "d", true, true, 0u);
  vfs.add_dentry(d, "f", false, true, 0u);
  vfs.add_dentry(cwd, "z", false, true, 0u);
  KernelRuntime rt(vfs, {});
  std::vector<std::string> renames(static_cast<std::size_t>(fillers), "stat ./z");
  renames.insert(renames.end(), {"rename ./d ./e", "rename ./e ./d"});
  testing::Repeat rename_src(renames, 100);
  std::vector<std::unique_ptr<testing::Repeat>> stat_sources;
  std::vector<std::unique_ptr<ProcessProgram>> stat_programs;
  for (int w = 0; w < walkers; ++w) {
    stat_sources.push_back(std::make_unique<testing::Repeat>(std::vector<std::string>{"stat ./d/f"}, 400));
    stat_programs.push_back(std::make_unique<ProcessProgram>(rt, vfs.new_process(w, cwd), *stat_sources.back()));
  }
  Process& b = vfs.new_process(renamer_cpu, cwd);
  ProcessProgram pb(rt, b, rename_src);
  sim::Simulation sim(1);
  exec::Executor ex(sim, mem);
  for (int w = 0; w < walkers; ++w) ex.start(w, *stat_programs[static_cast<std::size_t>(w)]);
  ex.start(b.cpu, pb);
  ex.run();
  mem.check_all();
  EXPECT_EQ(pb.stats().failed, 0u);
  std::uint64_t restarts = 0;
  for (const auto& p : stat_programs) restarts += p->stats().walk.restarts;
  return restarts;
}

std::uint64_t restarts_over_phases(const std::string& kernel) {
  std::uint64_t restarts = 0;
  for (int renamer_cpu : {4, 8}) {
    for (int walkers = 1; walkers <= 2; ++walkers) {
      for (int fillers = 0; fillers < 4; ++fillers) {
        restarts += restarts_under_renames(kernel, walkers, fillers, renamer_cpu);
      }
    }
  }
  return restarts;
}

TEST(Fallback, ARenameOfADirectoryOnThePathRestartsConcurrentRcuWalks) {
  EXPECT_GT(restarts_over_phases("linux-2.6.38"), 0u);
}

TEST(Fallback, RefWalkNeverRestarts) { EXPECT_EQ(restarts_over_phases("linux-2.6.35"), 0u); }

TEST(Fallback, ADentryWithRevalidateDropsRcuWalk) {
  machine::Machine m(machine::load_machine("barcelona-2s8c", testing::machine_dirs()));
  const KernelSpec k = load_kernel("linux-2.6.38", testing::kernel_dirs());
  coherence::MemorySystem mem(m, true);
  Vfs vfs(mem, k);
  const DentryId cwd = vfs.mkpath("/w", true, 0u);
  const DentryId d = vfs.add_dentry(cwd, "nfs", true, true, 0u);
  vfs.add_dentry(d, "f", false, true, 0u);
  vfs.dentry(d).revalidate = true;
  Process& p = vfs.new_process(0, cwd);
  KernelRuntime rt(vfs, {});
  Expansion exp;
  WalkStats stats;
  rt.expander().expand(parse_syscall("stat ./nfs/f"), p, false, exp, stats);
  EXPECT_FALSE(exp.failed);
  EXPECT_EQ(stats.reval, 1u);
}

}  // namespace
}  // namespace walksim::kernel
