// Every kernel variant loads; every mistake in a kernel file is one ConfigError naming its place.
#include "models/kernel/kernel_loader.hpp"

#include <gtest/gtest.h>

#include "models/config/config_error.hpp"
#include "models/kernel/test_support.hpp"

namespace walksim::kernel {
namespace {

std::string testdata(const std::string& f) { return std::string(WALKSIM_SOURCE_DIR) + "/models/kernel/testdata/" + f; }

config::ConfigError error_of(const std::string& path) {
  try {
    load_kernel(path, testing::kernel_dirs());
  } catch (const config::ConfigError& e) {
    return e;
  }
  ADD_FAILURE() << path << " loaded without error";
  return config::ConfigError({}, "", "");
}

TEST(KernelLoader, EveryRequiredVariantLoads) {
  const auto names = list_kernels(testing::kernel_dirs());
  for (const char* required : {"linux-2.6.20", "linux-2.6.26-robind", "linux-2.6.35", "linux-2.6.37", "vfs-scale-2010",
                               "linux-2.6.38", "linux-6.x", "linux-6.x-dname-lockref-line"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), required), names.end()) << required;
  }
  for (const auto& n : names) EXPECT_NO_THROW(load_kernel(n, testing::kernel_dirs())) << n;
}

TEST(KernelLoader, ExtendsKeepsTheParentsLayoutsAndOverridesTheChosenOnes) {
  const auto k35 = load_kernel("linux-2.6.35", testing::kernel_dirs());
  const auto k38 = load_kernel("linux-2.6.38", testing::kernel_dirs());
  EXPECT_EQ(k35.layouts.at("dentry").line_of.at("d_lock"), 0u);
  EXPECT_EQ(k38.layouts.at("dentry").line_of.at("d_lock"), 1u);
  EXPECT_EQ(k38.layouts.at("vfsmount").lines, k35.layouts.at("vfsmount").lines);
  EXPECT_EQ(k38.walk, WalkKind::kRcuWalk);
}

TEST(KernelLoader, AnUnknownKernelNameSuggestsTheClosestOne) {
  try {
    load_kernel("linux-2.6.36", testing::kernel_dirs());
    FAIL();
  } catch (const config::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown kernel 'linux-2.6.36'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("did you mean"), std::string::npos) << e.what();
  }
}

TEST(KernelLoader, AnUnknownFieldInALayoutIsNamedWithItsLine) {
  const auto e = error_of(testdata("bad-unknown-field.yaml"));
  EXPECT_EQ(e.mark().line, 6);
  EXPECT_NE(e.message().find("unknown field 'd_cuont' for dentry (did you mean 'd_count'?)"), std::string::npos)
      << e.what();
}

TEST(KernelLoader, AFieldPlacedOnTwoLinesIsAnError) {
  const auto e = error_of(testdata("bad-two-lines.yaml"));
  EXPECT_EQ(e.mark().line, 7);
  EXPECT_NE(e.message().find("field 'd_lock' of dentry is placed on two lines: line 0"), std::string::npos) << e.what();
}

TEST(KernelLoader, AnUnknownWalkListsTheValidOnes) {
  const auto e = error_of(testdata("bad-walk.yaml"));
  EXPECT_EQ(e.key_path(), "walk");
  EXPECT_NE(e.message().find("rcu-walk"), std::string::npos) << e.what();
}

TEST(KernelLoader, ACostWithoutSourceOrCalibrationIsAnError) {
  const auto e = error_of(testdata("bad-cost-source.yaml"));
  EXPECT_EQ(e.key_path(), "cpu_costs.syscall");
  EXPECT_NE(e.message().find("'cycles' without 'source' or 'calibrated'"), std::string::npos) << e.what();
}

TEST(KernelLoader, AMisspeltKeySuggestsTheRightOne) {
  const auto e = error_of(testdata("bad-unknown-key.yaml"));
  EXPECT_NE(e.message().find("did you mean 'dcache_lock'"), std::string::npos) << e.what();
}

TEST(KernelLoader, ALayoutMissingAFieldTheVariantUsesIsCaughtAtLoad) {
  const auto e = error_of(testdata("bad-missing-field.yaml"));
  EXPECT_EQ(e.key_path(), "layouts");
  EXPECT_NE(e.message().find("'d_lock'"), std::string::npos) << e.what();
}

// A variant's spinlock_t is any kind of the sync registry that spins; the same registry is the
// only vocabulary (the valid kinds are listed from it).
TEST(KernelLoader, TheSpinlockIsASpinningKindOfTheSyncRegistry) {
  const auto e = error_of(testdata("bad-spinlock.yaml"));
  EXPECT_EQ(e.key_path(), "locking.spinlock");
  EXPECT_NE(e.message().find("unknown value 'rwlock'"), std::string::npos) << e.what();
  for (const char* kind : {"'ticket'", "'decb'", "'tas'", "'queued'", "'mcs'", "'clh'"}) {
    EXPECT_NE(e.message().find(kind), std::string::npos) << kind << ": " << e.what();
  }
  EXPECT_EQ(load_kernel("linux-2.6.20", testing::kernel_dirs()).spinlock, "decb");
  EXPECT_EQ(load_kernel("linux-6.x", testing::kernel_dirs()).spinlock, "queued");
}

// What if 2.6.35's d_lock were an MCS lock: the acquisition swaps into the tail after
// initialising the CPU's own queue node of that lock, where the ticket lock does one xadd.
TEST(KernelLoader, AWhatIfSpinlockKindChangesWhatEveryLockOperationExecutes) {
  machine::Machine m(machine::load_machine("barcelona-2s8c", testing::machine_dirs()));
  KernelSpec k = load_kernel("linux-2.6.35", testing::kernel_dirs());
  TraceRequest req;
  req.syscall = "stat ./file";
  auto d_lock_ops = [&](const KernelSpec& spec) {
    std::vector<std::string> ops;
    for (const auto& op : trace_syscall(m, spec, req).ops) {
      if (op.kop == "spin_lock" && op.object.find("dentry 'file'") != std::string::npos)
        ops.push_back(op.op + " " + op.object);
    }
    return ops;
  };
  EXPECT_EQ(d_lock_ops(k), std::vector<std::string>{"rmw-xadd dentry 'file'"});
  k.spinlock = "mcs";
  EXPECT_EQ(d_lock_ops(k),
            (std::vector<std::string>{"store cpu 0 mcs node of dentry 'file'", "rmw-xchg dentry 'file'"}));
}

// 2.6.20's link_path_walk pins the start point of open's walk and drops it at the end: a dget and
// a mntget, a dput and a mntput (one RMW each, all on the shared cwd dentry and the mount) that
// 2.6.35's do_filp_open does not do (docs/reference/openbench-2.6.20.md §2 steps 4 and 6).
TEST(KernelLoader, TheOpenWalksPinOfItsStartPointIsTheVariantsMechanism) {
  machine::Machine m(machine::load_machine("barcelona-2s8c", testing::machine_dirs()));
  KernelSpec k = load_kernel("linux-2.6.20", testing::kernel_dirs());
  EXPECT_TRUE(k.open_pins_start_point);
  EXPECT_FALSE(load_kernel("linux-2.6.35", testing::kernel_dirs()).open_pins_start_point);
  TraceRequest req;
  req.syscall = "open ./f0 O_WRONLY|O_CREAT";
  req.cwd = "/mnt/ram";
  const auto pinned = trace_syscall(m, k, req).totals;
  k.open_pins_start_point = false;
  const auto unpinned = trace_syscall(m, k, req).totals;
  EXPECT_EQ(pinned.atomic_rmw, unpinned.atomic_rmw + 4);
  EXPECT_EQ(pinned.shared_rmw, unpinned.shared_rmw + 4);
}

// A disk filesystem's inode container (`filesystems:`) is the kernel's own inode layout moved by
// `vfs_inode_at`, with the filesystem's fields at their offsets; a kernel whose struct inode is not
// the one the offsets were computed for (2.6.20, 6.x) has none, and says why.
TEST(KernelLoader, AFilesystemsInodeContainerIsTheKernelsInodeMovedByItsOffset) {
  for (const char* name : {"linux-2.6.35", "linux-2.6.37", "linux-2.6.38", "vfs-scale-2010"}) {
    const auto k = load_kernel(name, testing::kernel_dirs());
    for (const char* fs : {"ext3", "ext4"}) {
      const auto& c = k.filesystems.at(fs);
      ASSERT_TRUE(c.unavailable.empty()) << name << " " << fs << ": " << c.unavailable;
      const ObjectLayout& l = k.layouts.at(c.layout);
      EXPECT_EQ(l.derived_from, "inode");
      EXPECT_EQ(l.offsets.at("i_mode"), c.vfs_inode_at + k.layouts.at("inode").offsets.at("i_mode")) << name << fs;
      EXPECT_GE(l.size, c.vfs_inode_at + k.layouts.at("inode").size) << name << fs;
    }
    EXPECT_GT(k.layouts.at("ext4_inode_info").offsets.at("i_reserved_data_blocks"),
              k.filesystems.at("ext4").vfs_inode_at + k.layouts.at("inode").size)
        << "beyond the VFS inode";
  }
  EXPECT_EQ(load_kernel("linux-2.6.35", testing::kernel_dirs()).filesystems.at("ext4").getattr,
            KernelSpec::FsInodeCache::Getattr::kExt4Locked);
  EXPECT_EQ(load_kernel("linux-2.6.37", testing::kernel_dirs()).filesystems.at("ext4").getattr,
            KernelSpec::FsInodeCache::Getattr::kExt4);
  const auto k20 = load_kernel("linux-2.6.20", testing::kernel_dirs());
  EXPECT_NE(k20.filesystems.at("ext4").unavailable.find("536 bytes"), std::string::npos);
  EXPECT_FALSE(k20.layouts.count("ext4_inode_info"));
  EXPECT_FALSE(load_kernel("linux-6.x", testing::kernel_dirs()).filesystems.at("ext3").unavailable.empty());
}

TEST(KernelLoader, AnInodeContainerThatCannotHoldTheVfsInodeIsNamedWithItsKey) {
  const auto e = error_of(testdata("bad-filesystem.yaml"));
  EXPECT_EQ(e.key_path(), "filesystems.ext4.size");
  EXPECT_NE(std::string(e.what()).find("does not fit in 952 bytes"), std::string::npos) << e.what();
}

}  // namespace
}  // namespace walksim::kernel
