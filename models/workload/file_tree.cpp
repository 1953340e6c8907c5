// The synthetic kernel tree and the directory scan. The synthetic tree does not depend on a
// run's seed: it stands for one checkout, the same in every run.
#include "models/workload/file_tree.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numeric>
#include <set>
#include <stdexcept>

#include "models/workload/apportion.hpp"
#include "sim/rng.hpp"

namespace walksim::workload {

namespace {

// Top level of 2.6.35 with files per directory. arch and drivers are the counts of pathwalk.md §9;
// the others are assumptions of roughly the right size (not counted from the tree), chosen to sum
// to 33,305 with the nine top-level files (.gitignore .mailmap COPYING CREDITS Kbuild MAINTAINERS
// Makefile README REPORTING-BUGS).
struct TopDir {
  const char* name;
  double files;
};
constexpr TopDir kTop[] = {
    {"arch", 13322}, {"drivers", 10809}, {"include", 2281}, {"fs", 1600},    {"Documentation", 1500},
    {"net", 1300},   {"sound", 1100},    {"kernel", 250},   {"tools", 200},  {"scripts", 200},
    {"lib", 200},    {"firmware", 120},  {"security", 120}, {"crypto", 110}, {"mm", 80},
    {"block", 30},   {"samples", 30},    {"init", 12},      {"ipc", 12},     {"usr", 10},
    {"virt", 10},
};
constexpr const char* kTopFiles[] = {".gitignore",  ".mailmap", "COPYING", "CREDITS",       "Kbuild",
                                     "MAINTAINERS", "Makefile", "README",  "REPORTING-BUGS"};
constexpr double kTopFileCount = 9;
constexpr std::uint32_t kMaxDirDepth = 9;  // arch/arm/mach-x/include/mach/... is about as deep as 2.6.35 goes
constexpr double kSpread = 0.8;            // sigma of the log-normal per-directory file weight

std::string random_word(sim::Rng& rng, std::size_t min_len, std::size_t max_len) {
  static constexpr char kChars[] = "abcdefghijklmnopqrstuvwxyz_0123456789";
  const std::size_t len = min_len + rng.below(max_len - min_len + 1);
  std::string s;
  for (std::size_t i = 0; i < len; ++i) s += kChars[rng.below(i == 0 ? 26 : 37)];
  return s;
}

std::string file_name(sim::Rng& rng) {
  const double u = rng.uniform();
  if (u < 0.55) return random_word(rng, 3, 14) + ".c";
  if (u < 0.85) return random_word(rng, 3, 14) + ".h";
  if (u < 0.88) return random_word(rng, 3, 12) + ".S";
  if (u < 0.92) return random_word(rng, 3, 14) + ".txt";
  std::string s = random_word(rng, 5, 10);  // Makefile, Kconfig, README-like names
  s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}

double normal(sim::Rng& rng) {
  const double u1 = std::max(rng.uniform(), 1e-12), u2 = rng.uniform();
  return std::sqrt(-2 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

struct Dir {
  std::string path;
  std::uint32_t depth = 1;  // components of its path
  std::uint32_t children = 0;
  std::size_t top = 0;  // which top-level subtree
  double weight = 1;    // heavy-tailed share of its subtree's files
  std::uint64_t files = 0;
  std::set<std::string> names;
};

}  // namespace

double FileTree::mean_components() const {
  if (files.empty()) return 0;
  double sum = 0;
  for (const auto& f : files) sum += static_cast<double>(std::count(f.begin(), f.end(), '/') + 1);
  return sum / static_cast<double>(files.size());
}

namespace {

// Each top-level subtree grown to dirs_of[t] directories by preferential attachment (a directory
// is chosen as parent in proportion to its children + 1), then a lognormal weight per directory.
std::vector<Dir> grow_dirs(const std::vector<std::uint64_t>& dirs_of, sim::Rng& rng) {
  std::vector<Dir> dirs;
  for (std::size_t t = 0; t < std::size(kTop); ++t) {
    const std::size_t first = dirs.size();
    Dir root;
    root.path = kTop[t].name;
    root.top = t;
    dirs.push_back(std::move(root));
    std::vector<std::size_t> urn{first};
    for (std::uint64_t k = 1; k < dirs_of[t]; ++k) {
      std::size_t parent = urn[rng.below(urn.size())];
      while (dirs[parent].depth >= kMaxDirDepth) parent = urn[rng.below(urn.size())];
      std::string name;
      do {
        name = random_word(rng, 2, 10);
      } while (!dirs[parent].names.insert(name).second);
      Dir d;
      d.path = dirs[parent].path + "/" + name;
      d.depth = dirs[parent].depth + 1;
      d.top = t;
      ++dirs[parent].children;
      dirs.push_back(std::move(d));
      urn.push_back(dirs.size() - 1);
      urn.push_back(parent);
    }
  }
  for (auto& d : dirs) d.weight = std::exp(kSpread * normal(rng));
  return dirs;
}

// The files of each subtree beyond one per leaf directory (git tracks no empty directory). A small
// subtree whose rounded share of files is below its leaf count borrows from the largest.
std::vector<std::uint64_t> files_beyond_leaves(const std::vector<Dir>& dirs, std::vector<std::uint64_t>& files_of) {
  const std::size_t tops = std::size(kTop);
  std::vector<std::uint64_t> leaves(tops, 0);
  for (const auto& d : dirs) leaves[d.top] += d.children == 0;
  for (std::size_t t = 0; t < tops; ++t) {
    while (files_of[t] < leaves[t]) {
      const auto big =
          static_cast<std::size_t>(std::max_element(files_of.begin(), files_of.end() - 1) - files_of.begin());
      if (files_of[big] <= leaves[big]) throw std::invalid_argument("too few files for the leaf directories");
      --files_of[big];
      ++files_of[t];
    }
  }
  std::vector<std::uint64_t> rest(tops);
  for (std::size_t t = 0; t < tops; ++t) rest[t] = files_of[t] - leaves[t];
  return rest;
}

// The depth bias lambda for which files placed in proportion to weight * exp(lambda * depth) give
// the shape's mean path length (bisection; the mean grows with lambda).
double depth_bias(const std::vector<Dir>& dirs, const std::vector<std::uint64_t>& rest, double top_files,
                  const TreeShape& shape) {
  const std::size_t tops = std::size(kTop);
  auto mean_at = [&](double lambda) {
    std::vector<double> w(tops, 0), wd(tops, 0);
    double sum = top_files;
    for (const auto& d : dirs) {
      const double x = d.weight * std::exp(lambda * d.depth);
      w[d.top] += x;
      wd[d.top] += x * (d.depth + 1);
      if (d.children == 0) sum += d.depth + 1;
    }
    for (std::size_t t = 0; t < tops; ++t) sum += static_cast<double>(rest[t]) * wd[t] / w[t];
    return sum / shape.files;
  };
  double lo = -8, hi = 8;
  if (shape.mean_components < mean_at(lo) || shape.mean_components > mean_at(hi)) {
    throw std::invalid_argument("a mean of " + std::to_string(shape.mean_components) +
                                " path components is out of reach for this tree shape (" + std::to_string(mean_at(lo)) +
                                " to " + std::to_string(mean_at(hi)) + ")");
  }
  for (int i = 0; i < 100; ++i) {
    const double mid = (lo + hi) / 2;
    (mean_at(mid) < shape.mean_components ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

// Each directory's files: one per leaf, plus its subtree's rest apportioned by the biased weight.
void place_files(std::vector<Dir>& dirs, const std::vector<std::uint64_t>& rest, double lambda) {
  for (std::size_t t = 0; t < std::size(kTop); ++t) {
    std::vector<std::size_t> members;
    std::vector<double> weights;
    for (std::size_t i = 0; i < dirs.size(); ++i) {
      if (dirs[i].top != t) continue;
      members.push_back(i);
      weights.push_back(dirs[i].weight * std::exp(lambda * dirs[i].depth));
    }
    const auto extra = apportion(rest[t], weights, 0);
    for (std::size_t k = 0; k < members.size(); ++k) {
      dirs[members[k]].files = extra[k] + (dirs[members[k]].children == 0 ? 1 : 0);
    }
  }
}

}  // namespace

FileTree synthetic_kernel_tree(const TreeShape& shape, std::uint64_t seed) {
  const std::size_t tops = std::size(kTop);
  if (shape.dirs < tops) {
    throw std::invalid_argument("a kernel-shaped tree needs at least " + std::to_string(tops) +
                                " directories (the top level)");
  }
  if (shape.files < 2ull * shape.dirs) {
    throw std::invalid_argument("a kernel-shaped tree needs at least two files per directory (" +
                                std::to_string(shape.files) + " files, " + std::to_string(shape.dirs) + " dirs)");
  }
  sim::Rng rng(seed);
  // Files per top-level entry (the last part: the top-level files), then directories per subtree.
  std::vector<double> share;
  for (const auto& t : kTop) share.push_back(t.files - 1);
  share.push_back(kTopFileCount);
  auto files_of = apportion(shape.files - tops, share, 0);  // plus one file per top-level directory
  for (std::size_t t = 0; t < tops; ++t) ++files_of[t];
  share.pop_back();
  for (auto& x : share) x += 1;
  const auto dirs_of = apportion(shape.dirs, share, 1);

  std::vector<Dir> dirs = grow_dirs(dirs_of, rng);
  const auto rest = files_beyond_leaves(dirs, files_of);
  place_files(dirs, rest, depth_bias(dirs, rest, static_cast<double>(files_of.back()), shape));

  FileTree tree;
  for (std::uint64_t i = 0; i < files_of.back(); ++i) {
    tree.files.push_back(i < std::size(kTopFiles) ? std::string(kTopFiles[i]) : "FILE" + std::to_string(i));
  }
  for (auto& d : dirs) {
    tree.dirs.push_back(d.path);
    for (std::uint64_t i = 0; i < d.files; ++i) {
      std::string name;
      do {
        name = file_name(rng);
      } while (!d.names.insert(name).second);
      tree.files.push_back(d.path + "/" + name);
    }
  }
  std::sort(tree.files.begin(), tree.files.end());
  return tree;
}

FileTree scan_tree(const std::string& root) {
  namespace fs = std::filesystem;
  FileTree tree;
  try {
    const fs::path base(root);
    if (!fs::is_directory(base)) throw std::runtime_error("'" + root + "' is not a readable directory");
    for (auto it = fs::recursive_directory_iterator(base); it != fs::recursive_directory_iterator(); ++it) {
      const fs::path rel = it->path().lexically_relative(base);
      const auto st = it->symlink_status();
      if (fs::is_symlink(st)) {
        tree.files.push_back(rel.generic_string());
        tree.symlinks.emplace_back(rel.generic_string(), fs::read_symlink(it->path()).generic_string());
      } else if (fs::is_directory(st)) {
        if (it->path().filename() == ".git") {
          it.disable_recursion_pending();
          continue;
        }
        tree.dirs.push_back(rel.generic_string());
      } else if (fs::is_regular_file(st)) {
        tree.files.push_back(rel.generic_string());
      }
    }
  } catch (const fs::filesystem_error& e) {
    throw std::runtime_error("cannot scan '" + root + "': " + e.code().message() +
                             (e.path1().empty() ? "" : " ('" + e.path1().string() + "')"));
  }
  if (tree.files.empty()) throw std::runtime_error("no files below '" + root + "'");
  std::sort(tree.dirs.begin(), tree.dirs.end());
  std::sort(tree.files.begin(), tree.files.end());
  std::sort(tree.symlinks.begin(), tree.symlinks.end());
  return tree;
}

}  // namespace walksim::workload
