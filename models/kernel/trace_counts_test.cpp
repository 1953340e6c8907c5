// The atomic-operation counts of pathwalk.md, pinned per kernel variant. The counts are what the
// simulator executes (every locked RMW issued), not a tally kept beside it.
#include <gtest/gtest.h>

#include "models/kernel/test_support.hpp"

namespace walksim::kernel {
namespace {

using testing::trace;

TEST(StatCounts, StatOfAFileInTheCwdIs13AtomicsOn2635) {
  EXPECT_EQ(trace("linux-2.6.35", "stat ./file").totals.atomic_rmw, 13u);
}

TEST(StatCounts, StatOfAFileInTheCwdIs4AtomicsOn2638) {
  EXPECT_EQ(trace("linux-2.6.38", "stat ./file").totals.atomic_rmw, 4u);
}

TEST(StatCounts, RefWalkCosts10Plus3kAtomicsForKComponents) {
  const std::vector<std::string> paths{"./f", "./a/f", "./a/b/f", "./a/b/c/f", "a/b/c/d/f"};
  for (std::size_t k = 1; k <= paths.size(); ++k) {
    EXPECT_EQ(trace("linux-2.6.35", "stat " + paths[k - 1]).totals.atomic_rmw, 10 + 3 * k) << paths[k - 1];
  }
}

TEST(StatCounts, RcuWalkCostsTheSameFourAtomicsWhateverThePathLength) {
  for (const char* p : {"./f", "./a/b/f", "a/b/c/d/f"}) {
    EXPECT_EQ(trace("linux-2.6.38", std::string("stat ") + p).totals.atomic_rmw, 4u) << p;
  }
}

TEST(StatCounts, TheStoreFreeTreeTakesAbout13FewerAtomicsThan2635) {
  const auto vanilla = trace("linux-2.6.35", "stat ./file").totals.atomic_rmw;
  const auto store_free = trace("vfs-scale-2010", "stat ./file").totals.atomic_rmw;
  EXPECT_GE(vanilla - store_free, 12u);
  EXPECT_LE(vanilla - store_free, 14u);
}

TEST(StatCounts, FsStructSpinlockSavesOneAtomicIn2637) {
  EXPECT_EQ(trace("linux-2.6.37", "stat ./file").totals.atomic_rmw, 12u);
}

TEST(StatCounts, A2638StatStoresNothingToSharedLines) {
  const auto t = trace("linux-2.6.38", "stat ./file");
  for (const auto& op : t.ops) {
    if (op.object == "dentry 'user'" || op.object == "vfsmount" || op.object == "inode of 'user'") {
      EXPECT_TRUE(op.op == "load" || op.op == "load-spin" || op.op == "prefetch") << op.object << " " << op.op;
    }
  }
}

// 2.6.38's dput tests `d_count == 1` for might_sleep() before it takes d_lock (fs/dcache.c; with
// CONFIG_PREEMPT_VOLUNTARY the test is live), so the put reads the lock's line, then takes the lock:
// the last d_lock of a stat is preceded by a load of d_count, the first (rcu-walk's drop) is not.
TEST(StatCounts, A2638DputReadsTheCountBeforeTakingTheLock) {
  const auto t = trace("linux-2.6.38", "stat ./file");
  std::vector<std::size_t> locks;
  for (std::size_t i = 0; i < t.ops.size(); ++i) {
    if (t.ops[i].object == "dentry 'file'" && t.ops[i].field == "d_lock" && t.ops[i].op.rfind("rmw", 0) == 0) {
      locks.push_back(i);
    }
  }
  ASSERT_EQ(locks.size(), 2u);
  EXPECT_NE(t.ops[locks[0] - 1].field, "d_count");
  EXPECT_EQ(t.ops[locks[1] - 1].field, "d_count");
  EXPECT_EQ(t.ops[locks[1] - 1].op, "load");
}

TEST(StatCounts, A2635StatWritesTheSharedCwdDentryAndMount) {
  const auto t = trace("linux-2.6.35", "stat ./file");
  int cwd_rmw = 0, mnt_rmw = 0;
  for (const auto& op : t.ops) {
    if (op.op.rfind("rmw", 0) != 0) continue;
    cwd_rmw += op.object == "dentry 'user'";
    mnt_rmw += op.object == "vfsmount";
  }
  EXPECT_EQ(cwd_rmw, 4);  // 2 gets, the save put, the parent put after the component
  EXPECT_EQ(mnt_rmw, 4);
}

// pathwalk.md counts 14 and 11 with fd_install as lock-free; in 2.6.x fd_install takes the
// process's files->file_lock, one more RMW on a private line (docs/kernels.md). The shared-line
// RMWs are as listed there: 2.6.35 mnt 1, cwd 2, files_lock 1, dir i_mutex 2; 2.6.38 cwd d_lock 2,
// dir i_mutex 2.
TEST(OpenCounts, OpenForWriteOfAnExistingFileIs15AtomicsOn2635And12On2638) {
  const auto old_open = trace("linux-2.6.35", "open ./f O_WRONLY|O_CREAT").totals;
  const auto new_open = trace("linux-2.6.38", "open ./f O_WRONLY|O_CREAT").totals;
  EXPECT_EQ(old_open.atomic_rmw, 15u);
  EXPECT_EQ(new_open.atomic_rmw, 12u);
  EXPECT_EQ(old_open.shared_rmw, 6u);
  EXPECT_EQ(new_open.shared_rmw, 4u);
}

TEST(CloseCounts, CloseIs7AtomicsInBothEras) {
  EXPECT_EQ(trace("linux-2.6.35", "close ./f").totals.atomic_rmw, 7u);
  EXPECT_EQ(trace("linux-2.6.38", "close ./f").totals.atomic_rmw, 7u);
}

TEST(CloseCounts, A2638CloseTouchesNoSharedLineWithAnAtomic) {
  EXPECT_EQ(trace("linux-2.6.38", "close ./f").totals.shared_rmw, 0u);
}

TEST(UnlinkCounts, UnlinkFiveComponentsDownIsAbout40AtomicsOn2635And22On2638) {
  const std::string call = "unlink ./clients/client1/~dmtmp/PARADOX/FILE";
  const auto old_count = trace("linux-2.6.35", call).totals.atomic_rmw;
  const auto new_count = trace("linux-2.6.38", call).totals.atomic_rmw;
  EXPECT_NEAR(static_cast<double>(old_count), 40.0, 1.0);
  EXPECT_NEAR(static_cast<double>(new_count), 22.0, 1.0);
}

TEST(RenameCounts, RenameInOneDirectoryTakesTheGlobalRenameLockInBothEras) {
  for (const char* k : {"linux-2.6.35", "linux-2.6.38"}) {
    const auto t = trace(k, "rename ./d/a ./d/b");
    bool rename_lock = false;
    for (const auto& op : t.ops) rename_lock |= op.object == "globals" && op.field == "rename_lock_spin";
    EXPECT_TRUE(rename_lock) << k;
    EXPECT_FALSE(t.failed) << k;
  }
}

TEST(OpenbenchCounts, TheRoBindPostingAddsTheMountSpinlockToOpenAndClose) {
  const auto base_open = trace("linux-2.6.20", "open ./f O_WRONLY|O_CREAT").totals.atomic_rmw;
  const auto robind_open = trace("linux-2.6.26-robind", "open ./f O_WRONLY|O_CREAT").totals.atomic_rmw;
  const auto base_close = trace("linux-2.6.20", "close ./f").totals.atomic_rmw;
  const auto robind_close = trace("linux-2.6.26-robind", "close ./f").totals.atomic_rmw;
  EXPECT_EQ(robind_open - base_open, 1u);
  EXPECT_EQ(robind_close - base_close, 1u);
}

TEST(ModernCounts, ALockrefStatIsTwoCmpxchgsOnTheFilesLine) {
  const auto t = trace("linux-6.x", "stat ./file");
  EXPECT_EQ(t.totals.atomic_rmw, 2u);
  for (const auto& op : t.ops) {
    if (op.op.rfind("rmw", 0) == 0) {
      EXPECT_EQ(op.object, "dentry 'file'");
    }
  }
}

// A stat on a disk filesystem's tree (`walksim trace --disk`): the file's dentry is not pinned, so
// the last dput finds its count at 1 and takes dput's slow path (fs/dcache.c of each era).
TraceResult trace_disk(const std::string& kernel, const std::string& call) {
  machine::Machine m(machine::load_machine("barcelona-2s8c", testing::machine_dirs()));
  const KernelSpec k = load_kernel(kernel, testing::kernel_dirs());
  TraceRequest req;
  req.syscall = call;
  req.disk = true;
  return trace_syscall(m, k, req);
}

bool takes(const TraceResult& t, const std::string& object, const std::string& field) {
  for (const auto& op : t.ops) {
    if (op.object == object && op.field == field && op.op.rfind("rmw", 0) == 0) return true;
  }
  return false;
}

TEST(DiskCounts, A2635StatOfAnUnpinnedFileTakesDcacheLockAndDLockInItsLastDput) {
  const auto ramfs = trace("linux-2.6.35", "stat ./file");
  const auto disk = trace_disk("linux-2.6.35", "stat ./file");
  // atomic_add_unless gives up its cmpxchg; dcache_lock, the decrement under it and d_lock.
  EXPECT_EQ(disk.totals.atomic_rmw, ramfs.totals.atomic_rmw + 2);
  EXPECT_TRUE(takes(disk, "globals", "dcache_lock"));
  EXPECT_FALSE(takes(ramfs, "globals", "dcache_lock"));
  // The directories keep a reference per child: only the file's put goes the slow way.
  int slow = 0;
  for (const auto& op : disk.ops) slow += op.field == "dcache_lock" && op.op.rfind("rmw", 0) == 0;
  EXPECT_EQ(slow, 1);
}

TEST(DiskCounts, A2638StatOfAnUnpinnedFileMarksItReferencedUnderDLockWithNoMoreAtomics) {
  const auto ramfs = trace("linux-2.6.38", "stat ./file");
  const auto disk = trace_disk("linux-2.6.38", "stat ./file");
  EXPECT_EQ(disk.totals.atomic_rmw, ramfs.totals.atomic_rmw);
  EXPECT_EQ(disk.totals.store, ramfs.totals.store + 1);  // d_flags |= DCACHE_REFERENCED
  EXPECT_GT(disk.totals.load, ramfs.totals.load);
}

// The loads of the file's dentry after its last kernel operation on `field` (the put).
std::vector<std::string> loads_after(const TraceResult& t, const std::string& field) {
  std::vector<std::string> after;
  for (const auto& op : t.ops) {
    if (op.object != "dentry 'file'") continue;
    if (op.field == field && op.op != "load") {
      after.clear();
    } else if (op.op == "load") {
      after.push_back(op.field);
    }
  }
  return after;
}

TEST(DiskCounts, ALockrefStatOfAnUnpinnedFileTakesNoLockInFastDput) {
  const auto ramfs = trace("linux-6.x", "stat ./file");
  const auto disk = trace_disk("linux-6.x", "stat ./file");
  EXPECT_EQ(disk.totals.atomic_rmw, ramfs.totals.atomic_rmw);
  EXPECT_EQ(disk.totals.lock_acquire, ramfs.totals.lock_acquire);
  EXPECT_EQ(loads_after(disk, "d_lockref"), (std::vector<std::string>{"d_flags", "d_hash"}));
  EXPECT_TRUE(loads_after(ramfs, "d_lockref").empty());
}

// A disk filesystem's getattr is generic_fillattr: ramfs's simple_getattr reads the page count too.
TEST(DiskCounts, ADiskFilesystemsGetattrDoesNotReadThePageCount) {
  auto reads = [](const TraceResult& t, const std::string& field) {
    for (const auto& op : t.ops) {
      if (op.field == field) return true;
    }
    return false;
  };
  for (const char* k : {"linux-2.6.35", "linux-2.6.38", "linux-6.x"}) {
    EXPECT_TRUE(reads(trace(k, "stat ./file"), "i_nrpages")) << k;
    EXPECT_FALSE(reads(trace_disk(k, "stat ./file"), "i_nrpages")) << k;
  }
}

TEST(DiskCounts, ADiskTreeIsRefusedForACallThatOpensAFile) {
  EXPECT_THROW(trace_disk("linux-2.6.35", "open ./f O_RDONLY"), TraceRequestError);
}

// The helpers' out-of-line calls (docs/reference/call-costs.md): ref-walk calls dput for every
// parent it leaves and spin_lock and memcmp in every __d_lookup; rcu-walk calls dput and mntput once,
// at the end, and spin_lock once, to leave rcu mode. A ramfs file: no dput reaches its last path.
std::size_t steps_named(const TraceResult& t, const std::string& step) {
  std::size_t n = 0;
  for (const auto& op : t.ops) n += op.kop == "compute" && op.field == step && op.compute > 0;
  return n;
}

TEST(CallCounts, RefWalkCallsDputPerComponentAndRcuWalkOncePerLookup) {
  const std::vector<std::string> paths{"./f", "./a/f", "./a/b/f", "./a/b/c/f"};
  for (std::size_t k = 1; k <= paths.size(); ++k) {
    const auto ref = trace("linux-2.6.35", "stat " + paths[k - 1]);
    // k parents, then the two path_puts of the start point's second pin (path_walk's `save`) and of
    // the result.
    EXPECT_EQ(steps_named(ref, "dput_call"), k + 2) << paths[k - 1];
    EXPECT_EQ(steps_named(ref, "spin_lock_call"), k) << paths[k - 1];
    EXPECT_EQ(steps_named(ref, "memcmp_call"), k) << paths[k - 1];
    EXPECT_EQ(steps_named(ref, "mntput_call"), 2u) << paths[k - 1];
    const auto rcu = trace("linux-2.6.38", "stat " + paths[k - 1]);
    EXPECT_EQ(steps_named(rcu, "dput_call"), 1u) << paths[k - 1];
    EXPECT_EQ(steps_named(rcu, "spin_lock_call"), 1u) << paths[k - 1];
    EXPECT_EQ(steps_named(rcu, "memcmp_call"), 0u) << paths[k - 1];  // 2.6.38 compares inline
    EXPECT_EQ(steps_named(rcu, "mntput_call"), 1u) << paths[k - 1];
  }
}

TEST(CallCounts, OnADiskFilesystemOnlyTheLeafsDputTakesTheLastPath) {
  for (const char* k : {"linux-2.6.35", "linux-2.6.37", "linux-2.6.38"}) {
    const auto disk = trace_disk(k, "stat ./file");
    EXPECT_EQ(steps_named(disk, "dput_last_call"), 1u) << k;
    EXPECT_EQ(steps_named(trace(k, "stat ./file"), "dput_last_call"), 0u) << k;  // ramfs pins it
  }
}

}  // namespace
}  // namespace walksim::kernel
