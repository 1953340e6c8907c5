// Source trees for tree-walking workloads (git diff): a synthetic tree with the shape of a Linux
// 2.6.35 checkout (pathwalk.md §9: 33,305 files, 2,027 directories, mean 4.14 path components),
// or a real directory scanned from disk.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace walksim::workload {

struct FileTree {
  std::vector<std::string> dirs;   // relative paths, each after its parent
  std::vector<std::string> files;  // relative paths, sorted by full path (the git index order)
  std::vector<std::pair<std::string, std::string>> symlinks;  // (entry of `files`, its target)
  // Mean number of path components of the files ("arch/x86/Makefile" has 3).
  double mean_components() const;
};

struct TreeShape {
  std::uint32_t files = 33305;
  std::uint32_t dirs = 2027;  // directories below the root
  double mean_components = 4.14;
};

// A deterministic tree of exactly `files` files and `dirs` directories whose mean path depth is
// `mean_components` (to rounding). The top level has the 2.6.35 directories with their share of
// the files (arch 13,322 and drivers 10,809 as counted; the others assumed, see file_tree.cpp);
// below, directories grow by preferential attachment (a few directories get many subdirectories,
// as drivers/ and arch/ do), and files are spread with a weight that rises or falls with depth,
// solved so the mean comes out right. Throws std::invalid_argument when the shape cannot be met.
FileTree synthetic_kernel_tree(const TreeShape& shape, std::uint64_t seed = 2635);

// The regular files and symlinks below `root` (not following symlinks, skipping `.git`).
// Throws std::runtime_error naming the path when it cannot be read.
FileTree scan_tree(const std::string& root);

}  // namespace walksim::workload
