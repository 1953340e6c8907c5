// The synthetic 2.6.35 tree has exactly the counted files and directories and their mean path
// depth, the git index order, the two big top-level directories; the scan reads a real directory
// and names one it cannot read.
#include "models/workload/file_tree.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

namespace walksim::workload {
namespace {

TEST(FileTree, TheSyntheticKernelTreeHasTheCountedFilesDirectoriesAndDepth) {
  const FileTree t = synthetic_kernel_tree({});
  EXPECT_EQ(t.files.size(), 33305u);
  EXPECT_EQ(t.dirs.size(), 2027u);
  EXPECT_NEAR(t.mean_components(), 4.14, 0.0414);
  EXPECT_TRUE(std::is_sorted(t.files.begin(), t.files.end()));
  EXPECT_EQ(std::set<std::string>(t.files.begin(), t.files.end()).size(), t.files.size());
  std::size_t arch = 0, drivers = 0;
  for (const auto& f : t.files) {
    arch += f.rfind("arch/", 0) == 0;
    drivers += f.rfind("drivers/", 0) == 0;
  }
  EXPECT_EQ(arch, 13322u);
  EXPECT_EQ(drivers, 10809u);
}

TEST(FileTree, EveryFileLivesInADeclaredDirectoryAndNoDirectoryIsEmpty) {
  const FileTree t = synthetic_kernel_tree({3000, 200, 3.8});
  std::set<std::string> dirs(t.dirs.begin(), t.dirs.end()), used;
  for (const auto& d : t.dirs) {
    const auto slash = d.rfind('/');
    if (slash != std::string::npos) {
      EXPECT_TRUE(dirs.count(d.substr(0, slash))) << d;
      used.insert(d.substr(0, slash));
    }
  }
  for (const auto& f : t.files) {
    const auto slash = f.rfind('/');
    if (slash == std::string::npos) continue;
    EXPECT_TRUE(dirs.count(f.substr(0, slash))) << f;
    used.insert(f.substr(0, slash));
  }
  EXPECT_EQ(used, dirs);  // git tracks no empty directory
  EXPECT_NEAR(t.mean_components(), 3.8, 0.038);
}

TEST(FileTree, OtherShapesAreMetOrRefused) {
  for (double mean : {3.0, 5.0}) {
    const FileTree t = synthetic_kernel_tree({20000, 1000, mean});
    EXPECT_EQ(t.files.size(), 20000u);
    EXPECT_EQ(t.dirs.size(), 1000u);
    EXPECT_NEAR(t.mean_components(), mean, mean / 100);
  }
  EXPECT_THROW(synthetic_kernel_tree({33305, 2027, 1.1}), std::invalid_argument);
  EXPECT_THROW(synthetic_kernel_tree({100, 2027, 4.14}), std::invalid_argument);
  EXPECT_THROW(synthetic_kernel_tree({1000, 5, 4.14}), std::invalid_argument);
}

TEST(FileTree, TheSyntheticTreeIsTheSameEveryTime) {
  EXPECT_EQ(synthetic_kernel_tree({2000, 100, 4}).files, synthetic_kernel_tree({2000, 100, 4}).files);
}

TEST(FileTree, AScanFindsFilesAndSymlinksAndSkipsGit) {
  namespace fs = std::filesystem;
  const fs::path root =
      fs::temp_directory_path() / ("walksim_scan_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  fs::remove_all(root);
  fs::create_directories(root / "a/b");
  fs::create_directories(root / ".git/objects");
  std::ofstream(root / "a/b/x.c") << "x";
  std::ofstream(root / "top") << "t";
  std::ofstream(root / ".git/objects/o") << "o";
  fs::create_symlink("b/x.c", root / "a/link");
  const FileTree t = scan_tree(root.string());
  EXPECT_EQ(t.files, (std::vector<std::string>{"a/b/x.c", "a/link", "top"}));
  EXPECT_EQ(t.dirs, (std::vector<std::string>{"a", "a/b"}));
  ASSERT_EQ(t.symlinks.size(), 1u);
  EXPECT_EQ(t.symlinks[0].second, "b/x.c");
  fs::remove_all(root);
  try {
    scan_tree((root / "missing").string());
    FAIL() << "a missing directory was scanned";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("missing"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace walksim::workload
