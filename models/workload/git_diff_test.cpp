// git-diff: one lstat per index entry; preload threads take contiguous DIV_ROUND_UP slices, check
// leading directories through their lstat cache and share one fs_struct; processes diff private
// copies; a scanned directory replaces the synthetic tree.
#include "models/workload/git_diff.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "models/config/test_support.hpp"
#include "models/workload/test_support.hpp"

namespace walksim::workload {
namespace {

using testing::RunArgs;

constexpr const char* kSmall = "files: 3000\ndirs: 200\n";

RunResult diff(const std::string& params, const std::string& kernel, std::uint32_t threads,
               std::unique_ptr<Workload>* owner = nullptr) {
  auto w = testing::make(kGitDiffKind, params);
  RunArgs a;
  a.kernel = kernel;
  a.threads = threads;
  const auto r = testing::run(a, *w);
  if (owner) *owner = std::move(w);
  return r;
}

TEST(GitDiff, ASingleThreadLstatsEveryEntryOnceWithoutLeavingRcuWalk) {
  const auto r = diff(std::string(kSmall) + "leading_dirs: false\n", "linux-2.6.38", 1);
  EXPECT_EQ(r.ops, 3000u);
  EXPECT_EQ(r.calls, 3000u);
  EXPECT_EQ(r.failed, 0u);
  EXPECT_EQ(r.op_unit, "lstat");
  EXPECT_EQ(r.walk.rcu_lookups, 3000u);
  EXPECT_EQ(r.walk.nodentry + r.walk.link + r.walk.permission + r.walk.restarts, 0u);
  EXPECT_NEAR(r.atomic_rmw_per_op, 4.0, 1e-9);  // pathwalk.md §4b: 4 whatever the depth
}

TEST(GitDiff, RefWalkAtomicsGrowWithTheMeanDepth) {
  const auto r =
      diff(std::string(kSmall) + "mean_components: 4.0\nleading_dirs: false\nfilesystem: ramfs\n", "linux-2.6.35", 1);
  // 10 + 3k per lstat (pathwalk.md §4a), k the path's components: 22 at the mean of 4.
  EXPECT_NEAR(r.atomic_rmw_per_op, 22.0, 0.22);
}

// On a disk filesystem nothing pins a file's dentry, so the lstat's last dput finds the count at 1:
// 2.6.35's atomic_dec_and_lock gives up its cmpxchg and takes dcache_lock, decrements under it and
// takes d_lock (one RMW fewer, three more); 2.6.38's dput and 6.x's fast_dput take no more.
TEST(GitDiff, OnADiskFilesystemEachLstatOf2635TakesDcacheLockInItsLastDput) {
  const std::string shape = std::string(kSmall) + "mean_components: 4.0\nleading_dirs: false\n";
  for (const char* k : {"linux-2.6.35", "linux-2.6.37"}) {
    const auto ramfs = diff(shape + "filesystem: ramfs\n", k, 1);
    const auto disk = diff(shape + "filesystem: disk\n", k, 1);
    EXPECT_NEAR(disk.atomic_rmw_per_op - ramfs.atomic_rmw_per_op, 2.0, 1e-9) << k;
  }
  for (const char* k : {"linux-2.6.38", "linux-6.x"}) {
    const auto ramfs = diff(shape + "filesystem: ramfs\n", k, 1);
    const auto disk = diff(shape + "filesystem: disk\n", k, 1);
    EXPECT_NEAR(disk.atomic_rmw_per_op, ramfs.atomic_rmw_per_op, 1e-9) << k;
  }
}

// ext3 and ext4 keep the disk filesystem's dput and put the inode in their own container; ext4's
// getattr adds i_reserved_data_blocks, under i_block_reservation_lock in 2.6.35 only. A kernel
// without the container (its struct inode is not the one the offsets were computed for) says so.
TEST(GitDiff, Ext4sGetattrTakesItsReservationLockIn2635AndNotLater) {
  const std::string shape = std::string(kSmall) + "mean_components: 4.0\nleading_dirs: false\n";
  const auto disk35 = diff(shape + "filesystem: disk\n", "linux-2.6.35", 1);
  EXPECT_NEAR(diff(shape + "filesystem: ext3\n", "linux-2.6.35", 1).atomic_rmw_per_op, disk35.atomic_rmw_per_op, 1e-9);
  EXPECT_NEAR(diff(shape + "filesystem: ext4\n", "linux-2.6.35", 1).atomic_rmw_per_op, disk35.atomic_rmw_per_op + 1,
              1e-9);
  const auto disk37 = diff(shape + "filesystem: disk\n", "linux-2.6.37", 1);
  EXPECT_NEAR(diff(shape + "filesystem: ext4\n", "linux-2.6.37", 1).atomic_rmw_per_op, disk37.atomic_rmw_per_op, 1e-9);
  try {
    diff(shape + "filesystem: ext4\n", "linux-6.x", 1);
    ADD_FAILURE() << "linux-6.x has no ext4 inode container";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("kernel 'linux-6.x' has no ext4 inode container"), std::string::npos)
        << e.what();
  }
}

// dcache_lock is one global line: with several processes each diffing its own tree on a disk
// filesystem, every lstat of 2.6.35 takes it, so the line moves between them at most lstats (2,400
// here); on ramfs no lstat takes it.
TEST(GitDiff, ProcessesOnDiskTreesShareDcacheLockUnder2635) {
  const std::string shape = "files: 600\ndirs: 40\nmean_components: 3.0\nleading_dirs: false\n";
  const auto disk = diff(shape + "filesystem: disk\n", "linux-2.6.35", 4);
  const auto ramfs = diff(shape + "filesystem: ramfs\n", "linux-2.6.35", 4);
  auto transfers_on = [](const RunResult& r, const std::string& field) {
    std::uint64_t n = 0;
    for (const auto& h : r.hot) {
      if (h.fields.find(field) != std::string::npos) n += h.transfers;
    }
    return n;
  };
  EXPECT_GT(transfers_on(disk, "dcache_lock"), 600u);
  EXPECT_EQ(transfers_on(ramfs, "dcache_lock"), 0u);
}

TEST(GitDiff, PreloadThreadsTakeContiguousSlicesAndShareOneFsStruct) {
  std::unique_ptr<Workload> w;
  const auto r = diff("files: 1001\ndirs: 50\npreload: true\n", "linux-2.6.35", 4, &w);
  EXPECT_EQ(r.ops, 1001u);
  EXPECT_EQ(r.failed, 0u);
  const std::uint64_t slice[] = {251, 251, 251, 248};  // DIV_ROUND_UP(1001, 4)
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(w->source(i).measured().total_ops, slice[i]);
  EXPECT_GT(r.calls, r.ops);  // the leading directories' lstats
  auto built = testing::make(kGitDiffKind, "files: 1001\ndirs: 50\npreload: true\n");
  testing::Built b("barcelona-2s8c", "linux-2.6.35");
  b.build(*built, 4);
  const kernel::ObjId fs = built->process(0).fs;
  EXPECT_TRUE(b.vfs.object(fs).shared);
  for (std::size_t i = 1; i < 4; ++i) {
    EXPECT_EQ(built->process(i).fs, fs);
    EXPECT_EQ(built->process(i).cwd, built->process(0).cwd);
  }
}

TEST(GitDiff, WithoutLeadingDirectoryChecksPreloadThreadsOnlyLstatEntries) {
  const auto r = diff("files: 1001\ndirs: 50\npreload: true\nleading_dirs: false\n", "linux-2.6.38", 3);
  EXPECT_EQ(r.calls, 1001u);
}

TEST(GitDiff, GitsPreloadRuleIsOneThreadPer500EntriesUpToTwenty) {
  EXPECT_EQ(git_preload_threads(33305), 20u);
  EXPECT_EQ(git_preload_threads(3000), 6u);
  EXPECT_EQ(git_preload_threads(1000), 2u);
  EXPECT_EQ(git_preload_threads(999), 1u);
  // The default tree is the 2.6.35 checkout's 33,305 entries: 20 preload threads.
  const auto w = testing::make(kGitDiffKind, "");
  const auto params = w->params();
  ASSERT_EQ(params.front().key, "files");
  EXPECT_EQ(git_preload_threads(std::get<std::uint64_t>(params.front().value)), 20u);
}

TEST(GitDiff, ProcessesDiffTheirOwnCopiesAndRunsRepeat) {
  const auto r = diff("files: 1000\ndirs: 50\nruns: 2\n", "linux-2.6.38", 3);
  EXPECT_EQ(r.ops, 3u * 2 * 1000);
  EXPECT_EQ(r.failed, 0u);
  auto w = testing::make(kGitDiffKind, "files: 1000\ndirs: 50\n");
  testing::Built b("barcelona-2s8c", "linux-2.6.38");
  b.build(*w, 3);
  EXPECT_NE(w->process(0).cwd, w->process(1).cwd);
  EXPECT_NE(w->process(0).fs, w->process(1).fs);
  EXPECT_EQ(b.vfs.dentry(w->process(2).cwd).name, "repo2");
  EXPECT_FALSE(b.vfs.object(b.vfs.dentry(*b.vfs.child(w->process(2).cwd, "arch")).obj).shared);
}

TEST(GitDiff, UserTimePerEntryIsUserTime) {
  const auto r = diff("files: 1000\ndirs: 50\nuser_time_per_entry: 100ns\nindex_memory: false\n", "linux-2.6.38", 1);
  EXPECT_EQ(r.user, sim::from_ns(100) * 1000);
}

TEST(GitDiff, TheIndexInMemoryIsUserTimeAndItsLinesAreGits) {
  // Without user work of its own, reading each entry's cache_entry (and cache[]) still takes user
  // time: the first run's misses, then L1-L3 hits. Every entry touches its pointer and 2-3 lines of
  // the block, and writes the previous entry's ce_flags.
  std::unique_ptr<Workload> w;
  const auto r = diff("files: 1000\ndirs: 50\n", "linux-2.6.38", 1, &w);
  EXPECT_GT(r.user, 0);
  const auto off = diff("files: 1000\ndirs: 50\nindex_memory: false\n", "linux-2.6.38", 1);
  EXPECT_EQ(off.user, 0);
  double accesses = 0, off_accesses = 0;
  for (std::size_t k = 0; k < coherence::kSources; ++k) {
    accesses += r.mem_per_op[k];
    off_accesses += off.mem_per_op[k];
  }
  EXPECT_GE(accesses - off_accesses, 3.0);
  EXPECT_LE(accesses - off_accesses, 5.0);
  auto built = testing::make(kGitDiffKind, "files: 1000\ndirs: 50\n");
  testing::Built b("barcelona-2s8c", "linux-2.6.38");
  b.build(*built, 1);
  std::size_t block = 0, pointers = 0;
  for (machine::LineId l = 0; l < b.mem.line_count(); ++l) {
    const auto label = b.vfs.label(l).object;
    block += label == "git index cache_entry block (process 0)";
    pointers += label == "git index cache[] (process 0)";
  }
  EXPECT_EQ(pointers, 125u);  // 1000 pointers of 8 bytes on 64-byte lines
  EXPECT_GT(block, 1000u * 72 / 64);
}

TEST(GitDiff, OneThreadAlsoLstatsEachLeadingDirectoryOncePerRun) {
  // git v1.7.3's check_removed: has_symlink_leading_path lstats the leading directories that the
  // previous entry's did not verify (docs/reference/git-diff-user-space.md §1).
  namespace fs = std::filesystem;
  const config::testing::ScratchDir scratch("git-diff-leading");
  const fs::path root = scratch.path();
  fs::create_directories(root / "a/b");
  for (const char* f : {"a/b/c.c", "a/b/d.c", "a/e.c", "f.c"}) std::ofstream(root / f) << "x";
  const auto r = diff("scan: " + root.string() + "\nruns: 2\n", "linux-2.6.38", 1);
  EXPECT_EQ(r.ops, 8u);
  EXPECT_EQ(r.calls, 8u + 2 * 2);  // 'a' and 'a/b' before a/b/c.c, each run
}

TEST(GitDiff, AScannedDirectoryIsDiffedAndAnUnreadableOneIsNamed) {
  namespace fs = std::filesystem;
  const config::testing::ScratchDir scratch("git-diff-scan");
  const fs::path root = scratch.path();
  fs::create_directories(root / "src/lib");
  fs::create_directories(root / ".git");
  for (const char* f : {"src/a.c", "src/lib/b.c", "README", ".git/index"}) std::ofstream(root / f) << "x";
  fs::create_symlink("src/a.c", root / "link");
  const auto r = diff("scan: " + root.string() + "\n", "linux-2.6.38", 1);
  EXPECT_EQ(r.ops, 4u);  // README, link, src/a.c, src/lib/b.c
  EXPECT_EQ(r.failed, 0u);
  EXPECT_EQ(r.walk.link, 0u);  // lstat does not follow the link
  try {
    testing::make(kGitDiffKind, "scan: /nonexistent/walksim-tree\n");
    FAIL() << "an unreadable directory was accepted";
  } catch (const config::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/walksim-tree"), std::string::npos) << e.what();
  }
  EXPECT_THROW(testing::make(kGitDiffKind, "files: 100\ndirs: 2000\n"), config::ConfigError);
}

}  // namespace
}  // namespace walksim::workload
