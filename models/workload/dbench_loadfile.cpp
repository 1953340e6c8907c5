// The synthetic loadfile: the pass's operations are grouped into units (a handle's life from its
// NTCreateX to its Close with the reads, writes and queries on it; a single path operation; an
// unlink following a create), the units are shuffled, and up to `max_open` handle units are
// interleaved at a time. Follow-ups (rename, unlink, rmdir) start a few units after the handle
// they follow is closed, so temporary files live briefly, as in the netbench trace.
#include "models/workload/dbench_loadfile.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <iterator>
#include <set>
#include <stdexcept>
#include <string_view>

#include "models/workload/dbench_census.hpp"

namespace walksim::workload::dbench {

namespace {

constexpr const char* kExts[] = {"DOC", "XLS", "PPT", "CDR", "DB", "PX", "LWP", "PRN", "BMP", "CFG", "CPT", "TXT"};
constexpr double kStartProbability = 0.3;     // per step, start a new unit rather than advance an open handle
constexpr std::uint64_t kFollowUpDelay = 16;  // follow-ups start within this many units

struct Unit {
  std::vector<LoadOp> ops;
  bool handle = false;          // holds a handle across steps (interleaved with other units)
  std::vector<Unit> follow_up;  // at most one: started a few units after this one ends
};

// An 8.3 name not yet used in `used`.
std::string fresh_name(sim::Rng& rng, std::set<std::string>& used, const char* ext = nullptr) {
  static constexpr char kChars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  for (;;) {
    const std::size_t len = 3 + rng.below(6);
    std::string s;
    for (std::size_t i = 0; i < len; ++i) s += kChars[rng.below(i == 0 ? 26 : 36)];
    s += ".";
    s += ext ? ext : kExts[rng.below(std::size(kExts))];
    if (used.insert(s).second) return s;
  }
}

std::uint64_t scaled(double count, double scale) { return static_cast<std::uint64_t>(std::llround(count * scale)); }

LoadOp op(OpKind k, std::string path, std::uint32_t bytes = 0) {
  LoadOp o;
  o.kind = k;
  o.path = std::move(path);
  o.bytes = bytes;
  return o;
}

}  // namespace

const char* op_name(OpKind k) {
  static constexpr const char* kNames[] = {"NTCreateX (open)",
                                           "NTCreateX (missing)",
                                           "NTCreateX (create)",
                                           "NTCreateX (mkdir)",
                                           "NTCreateX (open-if)",
                                           "Close",
                                           "ReadX",
                                           "WriteX",
                                           "QUERY_PATH_INFORMATION",
                                           "QUERY_FILE_INFORMATION",
                                           "QUERY_FS_INFORMATION",
                                           "FIND_FIRST",
                                           "Unlink",
                                           "Rename",
                                           "Flush",
                                           "Rmdir",
                                           "SET_FILE_INFORMATION",
                                           "LockX",
                                           "UnlockX"};
  return kNames[static_cast<std::size_t>(k)];
}

double Mix::total() const {
  const double closes = open_existing + create + mkdir + open_if;
  return read + write + open_existing + open_missing + create + mkdir + open_if + closes + query_file + query_path +
         find_first + query_fs + flush + rename + create /* unlinks */ + mkdir /* rmdirs */ + set_file_info + 2 * lock;
}

namespace {
// parent_of(path), viewing `path` instead of making a string (the replay builds no string per call).
std::string_view parent_view(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string_view(".") : std::string_view(path).substr(0, slash);
}
}  // namespace

std::string parent_of(const std::string& path) { return std::string(parent_view(path)); }

ClientTree make_client_tree(std::optional<std::uint32_t> files_per_dir, sim::Rng& rng) {
  ClientTree t;
  t.dirs.push_back(kCensus[0].name);  // ~dmtmp: its nine directories (the census: 8.97 entries)
  for (std::size_t d = 1; d < kCensus.size(); ++d) {
    const std::string dir = std::string(kCensus[0].name) + "/" + kCensus[d].name;
    t.dirs.push_back(dir);
    const auto files = files_per_dir ? *files_per_dir : static_cast<std::uint32_t>(std::lround(kCensus[d].avg_entries));
    std::set<std::string> used;
    for (std::uint32_t i = 0; i < files; ++i) t.files.push_back(dir + "/" + fresh_name(rng, used));
  }
  return t;
}

namespace {

// How many operations of each kind one pass has: the mix scaled to `p.ops`.
struct Counts {
  std::uint64_t open = 0, missing = 0, create = 0, mkdir = 0, open_if = 0, read = 0, write = 0, qfile = 0, qpath = 0,
                find = 0, qfs = 0, flush = 0, sfile = 0, lock = 0, rename = 0;
  explicit Counts(const LoadfileParams& p) {
    const Mix& m = p.mix;
    const double s = static_cast<double>(p.ops) / m.total();
    open = scaled(m.open_existing, s);
    missing = scaled(m.open_missing, s);
    create = scaled(m.create, s);
    mkdir = scaled(m.mkdir, s);
    open_if = scaled(m.open_if, s);
    read = scaled(m.read, s);
    write = scaled(m.write, s);
    qfile = scaled(m.query_file, s);
    qpath = scaled(m.query_path, s);
    find = scaled(m.find_first, s);
    qfs = p.statfs ? scaled(m.query_fs, s) : 0;
    flush = scaled(m.flush, s);
    sfile = scaled(m.set_file_info, s);
    lock = scaled(m.lock, s);
    rename = std::min(scaled(m.rename, s), create);
  }
};

std::uint64_t share_of(std::uint64_t n, double part, double whole) {
  return static_cast<std::uint64_t>(std::llround(static_cast<double>(n) * part / whole));
}

// What leads up to one create, and what follows it.
struct CreatePlan {
  std::size_t dir = 0;  // index in ClientTree::dirs
  bool query_first = false, open_first = false, renamed = false;
};

// Builds one pass, step by step; the steps draw from `rng` in the order make_loadfile calls them.
// Which directory each operation names follows the census of client_plain.txt (dbench_census.hpp):
// the counts of each kind are split over the directories in the census' proportions.
class LoadfileBuilder {
 public:
  LoadfileBuilder(const ClientTree& tree, const LoadfileParams& p, sim::Rng& rng)
      : tree_(tree), p_(p), rng_(rng), n_(p), files_(tree.dirs.size()), used_(tree.dirs.size()) {
    // Names in use per directory: the persistent files and directories, then every temporary
    // name of the pass.
    for (const auto& f : tree.files) {
      const std::size_t d = dir_index(parent_of(f));
      files_[d].push_back(f);
      used_[d].insert(f.substr(f.rfind('/') + 1));
    }
    for (std::size_t d = 1; d < tree.dirs.size(); ++d) used_[0].insert(kCensus[d].name);
    plan_creates();
  }

  std::vector<LoadOp> build() {
    std::vector<Unit> units = file_sessions();
    add_handle_ops(units);
    add_mkdirs(units);
    add_single_ops(units);
    for (std::size_t k = units.size(); k > 1; --k) std::swap(units[k - 1], units[rng_.below(k)]);
    return interleave(std::move(units));
  }

 private:
  std::size_t dir_index(const std::string& dir) const {
    const auto it = std::find(tree_.dirs.begin(), tree_.dirs.end(), dir);
    if (it == tree_.dirs.end()) throw std::invalid_argument("dbench loadfile: " + dir + " is not in the client tree");
    return static_cast<std::size_t>(it - tree_.dirs.begin());
  }

  // A persistent file of directory `d`; a directory without any gives one of another directory.
  std::string persistent(std::size_t d) {
    while (files_[d].empty()) d = 1 + rng_.below(tree_.dirs.size() - 1);
    return files_[d][rng_.below(files_[d].size())];
  }

  // Each create's directory and whether a failing query, a failing open and a rename go with it.
  // The failing opens and queries that lead up to creates come out of the mix's budgets for them.
  void plan_creates() {
    const auto creates = apportion(n_.create, weights(&CensusDir::create));
    auto flagged = [&](double CensusDir::*column, std::uint64_t total, bool CreatePlan::*flag) {
      const auto per_dir = apportion(total, weights(column));
      std::uint64_t given = 0;
      for (std::size_t d = 0; d < creates.size(); ++d) {
        std::uint64_t k = std::min(per_dir[d], creates[d]);
        given += k;
        for (auto it = creates_.begin(); k > 0 && it != creates_.end(); ++it) {
          if (it->dir == d) {
            (*it).*flag = true;
            --k;
          }
        }
      }
      return given;
    };
    for (const std::size_t d : shuffled_indices(creates, rng_)) creates_.push_back({d});
    const double census_creates = census_sum(&CensusDir::create);
    const std::uint64_t queries =
        std::min(n_.qpath, share_of(n_.create, census_sum(&CensusDir::qpath_before_create), census_creates));
    const std::uint64_t opens =
        std::min(n_.missing, share_of(n_.create, census_sum(&CensusDir::open_before_create), census_creates));
    queries_before_creates_ = flagged(&CensusDir::qpath_before_create, queries, &CreatePlan::query_first);
    qpath_left_ = n_.qpath - queries_before_creates_;
    missing_left_ = n_.missing - flagged(&CensusDir::open_before_create, opens, &CreatePlan::open_first);
    flagged(&CensusDir::rename, n_.rename, &CreatePlan::renamed);
  }

  // File handles: opens of persistent files, then creates of temporary ones (each perhaps preceded
  // by a failing query or open, and followed by a rename and its unlink).
  std::vector<Unit> file_sessions() {
    std::vector<Unit> sessions;
    const auto dirs = shuffled_indices(apportion(n_.open + n_.open_if, weights(&CensusDir::open)), rng_);
    for (std::uint64_t i = 0; i < dirs.size(); ++i) {
      Unit u;
      u.handle = true;
      u.ops.push_back(op(i < n_.open ? OpKind::kOpenExisting : OpKind::kOpenIf, persistent(dirs[i])));
      sessions.push_back(std::move(u));
    }
    for (const auto& c : creates_) sessions.push_back(create_session(c));
    return sessions;
  }

  std::string fresh_path(std::size_t d, const char* ext = nullptr) {
    return tree_.dirs[d] + "/" + fresh_name(rng_, used_[d], ext);
  }

  Unit create_session(const CreatePlan& c) {
    Unit u;
    u.handle = true;
    const std::string path = fresh_path(c.dir);
    if (c.query_first) {
      LoadOp q = op(OpKind::kQueryPathInfo, path);
      q.exists = false;
      u.ops.push_back(q);
    }
    if (c.open_first) u.ops.push_back(op(OpKind::kOpenMissing, path));  // the client tries to open it first
    u.ops.push_back(op(OpKind::kCreate, path));
    // After the Close: an optional rename within the directory, then the unlink.
    Unit unlink;
    if (c.renamed) {
      LoadOp r = op(OpKind::kRename, path);
      r.path2 = fresh_path(c.dir);
      unlink.ops.push_back(op(OpKind::kUnlink, r.path2));
      Unit rename;
      rename.ops.push_back(std::move(r));
      rename.follow_up.push_back(std::move(unlink));
      u.follow_up.push_back(std::move(rename));
    } else {
      unlink.ops.push_back(op(OpKind::kUnlink, path));
      u.follow_up.push_back(std::move(unlink));
    }
    return u;
  }

  // Handle operations, each on a random file handle, in random order within it; then its Close.
  void add_handle_ops(std::vector<Unit>& sessions) {
    std::vector<std::vector<LoadOp>> middle(sessions.size());
    auto spread = [&](OpKind k, std::uint64_t n, std::uint32_t bytes) {
      for (std::uint64_t i = 0; i < n; ++i) {
        const std::size_t s_i = rng_.below(sessions.size());
        middle[s_i].push_back(op(k, sessions[s_i].ops.back().path, bytes));
      }
    };
    spread(OpKind::kReadX, n_.read, p_.io_size);
    spread(OpKind::kWriteX, n_.write, p_.io_size);
    spread(OpKind::kQueryFileInfo, n_.qfile, 0);
    spread(OpKind::kFlush, n_.flush, 0);
    spread(OpKind::kSetFileInfo, n_.sfile, 0);
    spread(OpKind::kLockX, n_.lock, 0);
    for (std::size_t i = 0; i < sessions.size(); ++i) {
      auto& mid = middle[i];
      for (std::size_t k = mid.size(); k > 1; --k) std::swap(mid[k - 1], mid[rng_.below(k)]);
      const std::string path = sessions[i].ops.back().path;
      for (auto& o : mid) {
        const bool lock = o.kind == OpKind::kLockX;
        sessions[i].ops.push_back(std::move(o));
        if (lock) sessions[i].ops.push_back(op(OpKind::kUnlockX, path));
      }
      sessions[i].ops.push_back(op(OpKind::kClose, path));
    }
  }

  // Directory handles: mkdir and Close, and later the rmdir.
  void add_mkdirs(std::vector<Unit>& units) {
    for (std::uint64_t i = 0; i < n_.mkdir; ++i) {
      const std::size_t d = 1 + rng_.below(tree_.dirs.size() - 1);
      std::string name;
      do {
        name = "D" + std::to_string(rng_.below(100000));
      } while (!used_[d].insert(name).second);
      const std::string path = tree_.dirs[d] + "/" + name;
      Unit u;
      u.handle = true;
      u.ops.push_back(op(OpKind::kMkdir, path));
      u.ops.push_back(op(OpKind::kClose, path));
      Unit rmdir;
      rmdir.ops.push_back(op(OpKind::kRmdir, path));
      u.follow_up.push_back(std::move(rmdir));
      units.push_back(std::move(u));
    }
  }

  // Path operations on their own: the queries and failing opens not spent before creates, the
  // directory listings and statfs.
  void add_single_ops(std::vector<Unit>& units) {
    auto single = [&](LoadOp o) {
      Unit u;
      u.ops.push_back(std::move(o));
      units.push_back(std::move(u));
    };
    // The queries: of missing names as many as the census has in all (less those before creates),
    // the rest of existing files and, in the census' share, directories.
    const std::uint64_t all_missing = share_of(n_.qpath, census_sum(&CensusDir::qpath_missing), kCensusQueryPaths);
    const std::uint64_t missing_queries =
        std::min(qpath_left_, all_missing > queries_before_creates_ ? all_missing - queries_before_creates_ : 0);
    for (const std::size_t d : shuffled_indices(
             apportion(missing_queries, weights_without(&CensusDir::qpath_missing, &CensusDir::qpath_before_create)),
             rng_)) {
      LoadOp q = op(OpKind::kQueryPathInfo, fresh_path(d));
      q.exists = false;
      single(std::move(q));
    }
    const std::uint64_t hits = qpath_left_ - missing_queries;
    const auto file_dirs = shuffled_indices(apportion(hits, weights(&CensusDir::open)), rng_);
    for (std::uint64_t i = 0; i < hits; ++i) {
      single(op(OpKind::kQueryPathInfo, rng_.uniform() < kCensusQueryPathDirs / kCensusQueryPathHits
                                            ? tree_.dirs[rng_.below(tree_.dirs.size())]
                                            : persistent(file_dirs[i])));
    }
    for (const std::size_t d : shuffled_indices(
             apportion(missing_left_, weights_without(&CensusDir::open_missing, &CensusDir::open_before_create)),
             rng_)) {
      single(op(OpKind::kOpenMissing, fresh_path(d, "JNK")));
    }
    // A wildcard name: the stat of resolve_name fails, then the directory is listed.
    for (const std::size_t d : shuffled_indices(apportion(n_.find, weights(&CensusDir::find_first)), rng_)) {
      single(op(OpKind::kFindFirst, tree_.dirs[d] + "/<.JNK"));
    }
    for (std::uint64_t i = 0; i < n_.qfs; ++i) single(op(OpKind::kQueryFsInfo, "."));
  }

  // Up to max_open handle units open at a time: each step starts the next unit or advances a
  // random open one; a finished unit's follow-ups start a few unit starts later.
  std::vector<LoadOp> interleave(std::vector<Unit> units) {
    std::vector<LoadOp> out;
    std::deque<Unit> ready(std::make_move_iterator(units.begin()), std::make_move_iterator(units.end()));
    struct Active {
      Unit unit;
      std::size_t pos = 0;
    };
    std::vector<Active> active;
    std::vector<std::pair<std::uint64_t, Unit>> delayed;  // (start after this many unit starts, unit)
    std::uint64_t started = 0;
    auto finish = [&](Unit& u) {
      for (auto& f : u.follow_up) delayed.emplace_back(started + 1 + rng_.below(kFollowUpDelay), std::move(f));
    };
    for (;;) {
      for (std::size_t i = 0; i < delayed.size();) {
        if (delayed[i].first <= started) {
          ready.push_front(std::move(delayed[i].second));
          delayed.erase(delayed.begin() + static_cast<std::ptrdiff_t>(i));
        } else {
          ++i;
        }
      }
      const bool can_start = !ready.empty() && active.size() < p_.max_open;
      if (!can_start && active.empty()) {
        if (delayed.empty()) break;
        started = std::min_element(delayed.begin(), delayed.end(), [](const auto& a, const auto& b) {
                    return a.first < b.first;
                  })->first;
        continue;
      }
      if (can_start && (active.empty() || rng_.uniform() < kStartProbability)) {
        Unit u = std::move(ready.front());
        ready.pop_front();
        ++started;
        if (!u.handle) {
          for (auto& o : u.ops) out.push_back(std::move(o));
          finish(u);
          continue;
        }
        out.push_back(u.ops[0]);
        active.push_back({std::move(u), 1});
      } else {
        const std::size_t a = rng_.below(active.size());
        Active& x = active[a];
        out.push_back(x.unit.ops[x.pos++]);
        if (x.pos == x.unit.ops.size()) {
          finish(x.unit);
          active.erase(active.begin() + static_cast<std::ptrdiff_t>(a));
        }
      }
    }
    return out;
  }

  const ClientTree& tree_;
  const LoadfileParams& p_;
  sim::Rng& rng_;
  const Counts n_;
  std::vector<std::vector<std::string>> files_;  // the persistent files, by directory
  std::vector<std::set<std::string>> used_;      // names in use, by directory
  std::vector<CreatePlan> creates_;
  std::uint64_t queries_before_creates_ = 0;
  std::uint64_t qpath_left_ = 0, missing_left_ = 0;  // queries and failing opens not yet placed
};

}  // namespace

std::vector<LoadOp> make_loadfile(const ClientTree& tree, const LoadfileParams& p, sim::Rng& rng) {
  if (tree.files.empty() || tree.dirs.size() != kCensus.size()) {
    throw std::invalid_argument("dbench loadfile: the client tree is not ~dmtmp and its nine directories");
  }
  const Counts n(p);
  if (n.open + n.create + n.open_if == 0 && n.read + n.write + n.qfile + n.flush + n.sfile + n.lock > 0) {
    throw std::invalid_argument("dbench loadfile: a pass of " + std::to_string(p.ops) + " ops has no file handles");
  }
  return LoadfileBuilder(tree, p, rng).build();
}

std::uint32_t to_syscalls(const LoadOp& op, const std::string& prefix, std::vector<kernel::Syscall>& out) {
  std::vector<kernel::Syscall> calls;
  std::size_t n = 0;
  const std::uint32_t failing = to_syscalls_reusing(op, prefix, calls, n);
  out.insert(out.end(), std::make_move_iterator(calls.begin()),
             std::make_move_iterator(calls.begin() + static_cast<std::ptrdiff_t>(n)));
  return failing;
}

std::uint32_t to_syscalls_reusing(const LoadOp& op, const std::string& prefix, std::vector<kernel::Syscall>& out,
                                  std::size_t& count) {
  using kernel::Sys;
  count = 0;
  // The next call: a reused element reset to a fresh call's fields, its strings keeping their storage.
  auto call_at = [&](Sys sys, std::string_view rel) -> kernel::Syscall& {
    if (count == out.size()) out.emplace_back();
    kernel::Syscall& c = out[count++];
    std::string path = std::move(c.path), path2 = std::move(c.path2);
    c = kernel::Syscall{};
    c.sys = sys;
    c.path = std::move(path);
    c.path.assign(prefix).append(rel);
    c.path2 = std::move(path2);
    c.path2.clear();
    return c;
  };
  auto call = [&](Sys sys, const std::string& rel) -> kernel::Syscall& { return call_at(sys, rel); };
  // resolve_name(): stat, and on a miss opendir/readdir/closedir of the parent.
  auto resolve = [&](const std::string& rel, bool exists) -> std::uint32_t {
    call(Sys::kStat, rel);
    if (exists) return 0;
    call_at(Sys::kReaddir, parent_view(rel));
    return 1;
  };
  const std::string& path = op.path;  // relative to prefix: call() prepends it
  switch (op.kind) {
    case OpKind::kOpenExisting:
    case OpKind::kOpenIf: {
      resolve(op.path, true);
      auto& o = call(Sys::kOpen, path);
      o.write = true;
      o.create = op.kind == OpKind::kOpenIf;
      call(Sys::kFstat, path);
      return 0;
    }
    case OpKind::kOpenMissing:
      resolve(op.path, false);
      call(Sys::kOpen, path).write = true;
      return 2;
    case OpKind::kCreate: {
      resolve(op.path, false);
      auto& o = call(Sys::kOpen, path);
      o.write = true;
      o.create = true;
      call(Sys::kFstat, path);
      return 1;
    }
    case OpKind::kMkdir:
      resolve(op.path, false);
      call(Sys::kMkdir, path);
      call(Sys::kOpen, path).directory = true;  // O_RDONLY|O_DIRECTORY
      call(Sys::kFstat, path);
      return 1;
    case OpKind::kClose:
      call(Sys::kClose, path);
      return 0;
    case OpKind::kReadX:
      call(Sys::kPread, path).bytes = op.bytes;
      return 0;
    case OpKind::kWriteX:
      call(Sys::kPwrite, path).bytes = op.bytes;
      return 0;
    case OpKind::kQueryPathInfo:
      return resolve(op.path, op.exists);
    case OpKind::kQueryFileInfo:
      call(Sys::kFstat, path);
      return 0;
    case OpKind::kQueryFsInfo:
      call(Sys::kStatfs, "").path.assign(".");  // statvfs(child->directory), the -D directory: the cwd
      return 0;
    case OpKind::kFindFirst:
      // resolve_name of the wildcard fails and lists the directory; then the listing itself.
      resolve(op.path, false);
      call_at(Sys::kReaddir, parent_view(op.path));
      return 1;
    case OpKind::kUnlink:
      resolve(op.path, true);
      call(Sys::kUnlink, path);
      return 0;
    case OpKind::kRename:
      resolve(op.path, true);
      resolve(op.path2, false);
      call(Sys::kRename, path).path2.assign(prefix).append(op.path2);
      return 1;
    case OpKind::kFlush:
      call(Sys::kFsync, path);
      return 0;
    case OpKind::kRmdir:
      resolve(op.path, true);
      call(Sys::kRmdir, path);
      return 0;
    case OpKind::kSetFileInfo:
      call(Sys::kFstat, path);
      call(Sys::kUtime, path);
      return 0;
    case OpKind::kLockX:
    case OpKind::kUnlockX:
      call(Sys::kFcntlLock, path);
      return 0;
  }
  return 0;
}

}  // namespace walksim::workload::dbench
