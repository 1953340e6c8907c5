// git-diff: a cached `git diff` lstat()s every index entry from the repository root (pathwalk.md
// §9). Single-threaded; or with core.preloadindex, threads sharing one fs_struct (CLONE_FS) that
// each take a contiguous DIV_ROUND_UP slice of the sorted index and check the entry's leading
// directories through a per-thread lstat cache first; or several processes, each diffing its own
// copy of the tree ("/repo<i>"). The tree is a synthetic 2.6.35-sized checkout or a scanned
// directory, the same in every run.
//
// The CPUs a run gives build() are the threads (preload) or the processes: with `preload: true`
// the workload uses exactly the CPUs it is given, so the experiment should run it with
// git_preload_threads(entries) threads (20 for the 2.6.35 tree), git's own rule. The main
// thread's work after the preload (the diff of entries already marked up to date, no lstat) is
// not modelled beyond `user_time_per_entry`.
#include "models/workload/git_diff.hpp"

#include <algorithm>
#include <map>
#include <new>
#include <stdexcept>
#include <string>

#include "models/config/limits.hpp"
#include "models/workload/file_tree.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::workload {

std::uint32_t git_preload_threads(std::uint64_t entries) {
  const std::uint64_t t = std::min<std::uint64_t>(entries / 500, 20);
  return t < 2 ? 1 : static_cast<std::uint32_t>(t);
}

namespace git {

constexpr std::uint32_t kMaxFiles = 300'000;  // 9 times the Linux 2.6.35 tree

struct GitDiffParams {
  TreeShape shape;
  std::string scan;          // a directory to scan instead of the synthetic tree
  bool preload = false;      // core.preloadindex: threads sharing one fs_struct
  bool leading_dirs = true;  // lstat leading directories not verified for the previous entry (lstat_cache)
  bool index_memory = true;  // the in-memory index: each entry's cache_entry read before its lstat
  Picos user_per_entry = 0;  // user-space work per index entry (ie_match_stat, the diff itself)
  std::uint32_t runs = 1;    // git diff runs in sequence
  kernel::Filesystem fs = kernel::Filesystem::kDisk;  // what the checkout is on
};

// Each process gets its own copy of the tree, and a copy costs about 3.8 KB of host memory per
// file (measured: 8.0 GB for 64 copies of the 33,305-file tree; its dentry, inode, index, their simulated lines and the
// executor's words). The old range, up to 10,000,000 files, ran out of memory with one thread.
constexpr Param<GitDiffParams> kParams[] = {
    {"files", "files of the synthetic tree (1..300000; each process's copy costs about 3.8 KB of host memory per file)",
     [](const config::Node& n, GitDiffParams& p) {
       p.shape.files = read_count(n, "files", 1, kMaxFiles,
                                  "(each process's copy of the tree costs about 3.8 KB of host memory per file)");
     },
     [](const GitDiffParams& p) -> ParamValue { return std::uint64_t{p.shape.files}; }},
    {"dirs", "directories of the synthetic tree below its root (1..150000)",
     [](const config::Node& n, GitDiffParams& p) {
       p.shape.dirs = read_count(n, "dirs", 1, kMaxFiles / 2, "(a tree needs two files per directory)");
     },
     [](const GitDiffParams& p) -> ParamValue { return std::uint64_t{p.shape.dirs}; }},
    {"mean_components", "mean path components of a file of the synthetic tree (1..12)",
     [](const config::Node& n, GitDiffParams& p) {
       p.shape.mean_components = n.as_double();
       if (!(p.shape.mean_components >= 1 && p.shape.mean_components <= 12)) n.fail("mean_components must be 1..12");
     },
     [](const GitDiffParams& p) -> ParamValue { return p.shape.mean_components; }},
    {"scan", "a directory of this machine whose tree is diffed instead of the synthetic one",
     [](const config::Node& n, GitDiffParams& p) {
       p.scan = n.as_string();
       if (p.scan.empty()) n.fail("scan must name a directory");
     },
     [](const GitDiffParams& p) -> ParamValue {
       return p.scan.empty() ? ParamValue(std::monostate{}) : ParamValue(p.scan);
     }},
    {"preload", "core.preloadindex: threads sharing one fs_struct, each lstat-ing a slice of one tree",
     [](const config::Node& n, GitDiffParams& p) { p.preload = n.as_bool(); },
     [](const GitDiffParams& p) -> ParamValue { return p.preload; }},
    {"leading_dirs",
     "lstat each entry's leading directories not verified for the previous entry (git's lstat_cache: "
     "has_symlink_leading_path in check_removed, and each preload thread's own cache)",
     [](const config::Node& n, GitDiffParams& p) { p.leading_dirs = n.as_bool(); },
     [](const GitDiffParams& p) -> ParamValue { return p.leading_dirs; }},
    {"index_memory",
     "git's in-memory index as user memory: each entry's cache[] pointer and cache_entry (72 bytes + name, packed "
     "in one block) read before its lstat and its ce_flags written after (git v1.7.3)",
     [](const config::Node& n, GitDiffParams& p) { p.index_memory = n.as_bool(); },
     [](const GitDiffParams& p) -> ParamValue { return p.index_memory; }},
    {"user_time_per_entry", "user-space time per index entry (ie_match_stat, the diff itself)",
     [](const config::Node& n, GitDiffParams& p) { p.user_per_entry = config::operation_time(n); },
     [](const GitDiffParams& p) -> ParamValue { return time_text(p.user_per_entry); }},
    {"filesystem",
     "what the checkout lives on: disk (a disk filesystem: no reference of its own on a dentry, so each lstat's "
     "last dput brings the file's count to 0 and takes dput's slow path, in 2.6.20-2.6.37 the global dcache_lock; "
     "getattr is generic_fillattr; the inode is the VFS inode alone), ext3 or ext4 (the same, with the inode in "
     "the filesystem's own container and ext4's getattr: kernels whose YAML gives `filesystems:`, 2.6.35-2.6.38), "
     "or ramfs (every positive dentry pinned, as the other workloads' trees)",
     [](const config::Node& n, GitDiffParams& p) { p.fs = n.as_enum(kernel::filesystem_names()); },
     [](const GitDiffParams& p) -> ParamValue { return kernel::filesystem_name(p.fs); }},
    {"runs", "git diff runs in sequence per process (at least 1)",
     [](const config::Node& n, GitDiffParams& p) {
       p.runs = n.as_uint32();
       if (p.runs == 0) n.fail("runs must be at least 1");
     },
     [](const GitDiffParams& p) -> ParamValue { return std::uint64_t{p.runs}; }},
};

// Where git v1.7.3 keeps its index in memory (docs/reference/git-diff-user-space.md §2): the
// cache_entry structs packed in one block in index order, each (72 + name length + 8) & ~7 bytes
// with the name at byte 72 and ce_flags at byte 40, and the cache[] array of pointers to them.
struct IndexLayout {
  std::vector<std::uint64_t> offset;  // each entry's byte offset in the block; one more: the block's size
  static constexpr std::uint32_t kNameAt = 72, kFlagsAt = 40, kPointer = 8;
  explicit IndexLayout(const FileTree& tree) {
    offset.reserve(tree.files.size() + 1);
    std::uint64_t at = 0;
    for (const auto& f : tree.files) {
      offset.push_back(at);
      at += (kNameAt + f.size() + 8) & ~std::uint64_t{7};
    }
    offset.push_back(at);
  }
};

// One process's index: its lines, made on the process's node.
struct IndexLines {
  machine::LineId block = 0, pointers = 0;
  std::uint32_t line_size = 64;
};

class GitDiffSource final : public CountingSource {
 public:
  GitDiffSource(const RunControl& c, const FileTree& tree, std::size_t begin, std::size_t end, const GitDiffParams& p,
                const IndexLayout* layout, IndexLines lines)
      : CountingSource(c), tree_(tree), begin_(begin), end_(end), p_(p), next_(begin), layout_(layout), lines_(lines) {}

 protected:
  bool produce(Syscall& out) override {
    if (next_ == end_) {
      if (++run_ >= p_.runs || begin_ == end_) return false;
      next_ = begin_;
      cache_.clear();
    }
    const std::string& entry = tree_.files[next_];
    out = Syscall{};
    out.sys = kernel::Sys::kLstat;
    if (layout_ && first_call_) touch_entry(out);
    if (pending_.empty() && !dirs_checked_ && p_.leading_dirs) {
      // lstat_cache: lstat the leading directories below the longest prefix verified for the
      // previous entry, shortest first.
      std::vector<std::string> parts;
      for (std::size_t pos = 0, slash; (slash = entry.find('/', pos)) != std::string::npos; pos = slash + 1) {
        parts.push_back(entry.substr(0, slash));
      }
      std::size_t common = 0;
      while (common < parts.size() && common < cache_.size() && parts[common] == cache_[common]) ++common;
      pending_.assign(parts.begin() + static_cast<std::ptrdiff_t>(common), parts.end());
      std::reverse(pending_.begin(), pending_.end());
      cache_ = std::move(parts);
      dirs_checked_ = true;
    }
    if (!pending_.empty()) {
      out.path = std::move(pending_.back());
      pending_.pop_back();
    } else {
      out.path = entry;
      out.ends_op = true;
      ++next_;
      dirs_checked_ = false;
    }
    if (first_call_) out.user_before = p_.user_per_entry;
    first_call_ = out.ends_op;
    return true;
  }

 private:
  // Before the entry's first lstat: ce_mark_uptodate of the entry before it (ce_flags), then the
  // entry's pointer in cache[] and its cache_entry up to the end of its name (the stat fields that
  // ie_match_stat compares, the name that lstat and lstat_cache read).
  void touch_entry(Syscall& out) const {
    const std::uint32_t line = lines_.line_size;
    if (next_ > begin_) {
      out.add_user_access(
          static_cast<std::uint32_t>(lines_.block + (layout_->offset[next_ - 1] + IndexLayout::kFlagsAt) / line), true);
    }
    out.add_user_access(static_cast<std::uint32_t>(lines_.pointers + next_ * IndexLayout::kPointer / line), false);
    const std::uint64_t from = layout_->offset[next_];
    const std::uint64_t to = from + IndexLayout::kNameAt + tree_.files[next_].size() + 1;
    for (std::uint64_t l = from / line; l <= (to - 1) / line; ++l)
      out.add_user_access(static_cast<std::uint32_t>(lines_.block + l), false);
  }

  const FileTree& tree_;
  std::size_t begin_, end_;
  const GitDiffParams& p_;
  std::size_t next_;
  std::uint32_t run_ = 0;
  std::vector<std::string> cache_;    // the leading directories the thread's lstat cache verified last
  std::vector<std::string> pending_;  // leading directories still to lstat for the current entry (last first)
  bool dirs_checked_ = false;
  bool first_call_ = true;
  const IndexLayout* layout_;  // null: the index is not modelled as memory
  IndexLines lines_;
};

class GitDiff final : public PerProcessWorkload {
 public:
  GitDiff(GitDiffParams p, FileTree tree) : p_(std::move(p)), tree_(std::move(tree)) {}

  void build(kernel::Vfs& vfs, const std::vector<CpuId>& cpus, const RunControl& control, sim::Rng&) override {
    if (p_.index_memory && !index_) index_ = std::make_unique<IndexLayout>(tree_);
    if (p_.preload) {
      // One checkout, read by every thread: directories shared, each file touched by one thread;
      // one index in the process's memory (on the first thread's node).
      const kernel::DentryId root = make_tree(vfs, "/repo0", true, 0u);
      const kernel::ObjId fs = vfs.new_object("fs_struct", "fs_struct (shared by the preload threads)", true, 0u);
      const IndexLines lines = make_index(vfs, 0, vfs.machine().node_of(vfs.machine().core_of(cpus[0])));
      const std::size_t n = tree_.files.size(), t = cpus.size();
      const std::size_t slice = (n + t - 1) / t;  // DIV_ROUND_UP
      for (std::size_t i = 0; i < t; ++i) {
        const std::size_t b = std::min(n, i * slice), e = std::min(n, b + slice);
        add(vfs.new_process(cpus[i], root, fs),
            std::make_unique<GitDiffSource>(control, tree_, b, e, p_, index_.get(), lines));
      }
      return;
    }
    try {
      for (std::size_t i = 0; i < cpus.size(); ++i) {
        const auto node = vfs.machine().node_of(vfs.machine().core_of(cpus[i]));
        const kernel::DentryId root = make_tree(vfs, "/repo" + std::to_string(i), false, node);
        const IndexLines lines = make_index(vfs, i, node);
        add(vfs.new_process(cpus[i], root),
            std::make_unique<GitDiffSource>(control, tree_, 0, tree_.files.size(), p_, index_.get(), lines));
      }
    } catch (const std::bad_alloc&) {
      throw std::runtime_error("out of memory building " + std::to_string(cpus.size()) + " copies of a " +
                               std::to_string(tree_.files.size()) +
                               "-file tree for git-diff (one per process, about 3.8 KB per file and copy); use "
                               "fewer files or threads, or preload: true (one shared tree)");
    }
  }
  std::string op_unit() const override { return "lstat"; }
  std::string check_kernel(const kernel::KernelSpec& k) const override {
    const std::string problem = kernel::inode_container_problem(k, p_.fs);
    if (problem.empty()) return {};
    const std::string fs = kernel::filesystem_name(p_.fs);
    return problem + "; git-diff's filesystem: " + fs + " cannot be modelled on it (filesystem: disk can)";
  }
  bool set_user_time(Picos t) override {
    p_.user_per_entry = t;
    return true;
  }
  ResolvedParams params() const override { return resolve_params<GitDiffParams>(kParams, p_); }

 private:
  // The lines of process `pid`'s index block and cache[] array, homed on its node.
  IndexLines make_index(kernel::Vfs& vfs, std::size_t pid, std::uint32_t node) {
    IndexLines l;
    if (!index_) return l;
    l.line_size = vfs.machine().spec().line_size;
    auto lines = [&](std::uint64_t bytes, const std::string& what) {
      const auto count = static_cast<std::uint32_t>((bytes + l.line_size - 1) / l.line_size);
      const machine::LineId first = vfs.memory().add_line(node);
      for (std::uint32_t k = 1; k < count; ++k) vfs.memory().add_line(node);
      vfs.label_range(first, count, {"git index " + what + " (process " + std::to_string(pid) + ")", 0, "", false});
      return first;
    };
    l.block = lines(index_->offset.back(), "cache_entry block");
    l.pointers = lines(std::uint64_t{tree_.files.size()} * IndexLayout::kPointer, "cache[]");
    return l;
  }

  kernel::DentryId make_tree(kernel::Vfs& vfs, const std::string& at, bool shared, std::uint32_t node) {
    const kernel::DentryId root = vfs.mkpath(at, shared, node);
    std::map<std::string, kernel::DentryId, std::less<>> dirs{{"", root}};
    auto dir_of = [&](const std::string& path) {
      const auto slash = path.rfind('/');
      const std::string parent = slash == std::string::npos ? "" : path.substr(0, slash);
      const auto it = dirs.find(parent);
      if (it == dirs.end()) throw std::logic_error("tree entry '" + path + "' before its directory");
      return std::make_pair(it->second, slash == std::string::npos ? path : path.substr(slash + 1));
    };
    for (const auto& d : tree_.dirs) {
      const auto [parent, name] = dir_of(d);
      dirs.emplace(d, vfs.add_dentry(parent, name, true, shared, node, std::nullopt, p_.fs));
    }
    std::map<std::string, std::string, std::less<>> links(tree_.symlinks.begin(), tree_.symlinks.end());
    for (const auto& f : tree_.files) {
      const auto [parent, name] = dir_of(f);
      const kernel::DentryId d = vfs.add_dentry(parent, name, false, false, node, std::nullopt, p_.fs);
      if (const auto l = links.find(f); l != links.end()) {
        vfs.dentry(d).symlink = true;
        vfs.dentry(d).link_target = l->second;
      }
    }
    return root;
  }

  GitDiffParams p_;
  FileTree tree_;
  std::unique_ptr<IndexLayout> index_;
};

std::unique_ptr<Workload> make(const config::Node* params) {
  const GitDiffParams p = read_params<GitDiffParams>(kParams, params, "git-diff");
  FileTree tree;
  if (!p.scan.empty()) {
    try {
      tree = scan_tree(p.scan);
    } catch (const std::runtime_error& e) {
      params->child("scan").fail(e.what());
    }
  } else {
    try {
      tree = synthetic_kernel_tree(p.shape);
    } catch (const std::invalid_argument& e) {
      if (!params) throw;
      params->fail(std::string("git-diff tree: ") + e.what());
    }
  }
  return std::make_unique<GitDiff>(p, std::move(tree));
}
std::vector<ParamDoc> describe() { return describe_params<GitDiffParams>(kParams); }

}  // namespace git

const WorkloadKind kGitDiffKind{
    "git-diff",       "cached git diff: lstat of every index entry of a 2.6.35-sized tree (or a scanned one)",
    git::make,        git::describe,
    /*seeded=*/false, /*may_sleep=*/false};

}  // namespace walksim::workload
