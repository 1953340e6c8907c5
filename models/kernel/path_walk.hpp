// Path lookup as the kernel does it: ref-walk (a reference and d_lock per component, 2.6.35) and
// rcu-walk (seqcount reads, no stores to shared dentries, 2.6.38), with rcu-walk's graceful drops
// to ref-walk (missing dentry, ACL permission check, symlink) counted by reason. A d_seq change
// seen at run time aborts the whole lookup instead: the process program restarts it in ref-walk.
#pragma once

#include <boost/container/small_vector.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "models/kernel/emitter.hpp"

namespace walksim::kernel {

// rcu-walk statistics by reason, as in Documentation/filesystems/path-lookup.txt.
struct WalkStats {
  std::uint64_t rcu_lookups = 0;  // lookups started in rcu-walk
  std::uint64_t restarts = 0;     // d_seq changed: the lookup restarted in ref-walk
  std::uint64_t nodentry = 0;     // a component was not in the dcache
  std::uint64_t permission = 0;   // the permission check needed an ACL
  std::uint64_t link = 0;         // a symlink had to be followed
  std::uint64_t reval = 0;        // d_revalidate (never, on ramfs)
  std::uint64_t ref_lookups = 0;  // lookups run in ref-walk from the start

  WalkStats& operator+=(const WalkStats& o);
};

// Every count with its name in results.json and results.csv: adding a count to WalkStats and a
// line here is all it takes to have it summed over processes and repeats and written out.
struct WalkStatsField {
  const char* name;
  std::uint64_t WalkStats::*value;
};
inline constexpr WalkStatsField kWalkStatsFields[] = {
    {"rcu_lookups", &WalkStats::rcu_lookups},        {"ref_lookups", &WalkStats::ref_lookups},
    {"fallback_restart", &WalkStats::restarts},      {"fallback_nodentry", &WalkStats::nodentry},
    {"fallback_permission", &WalkStats::permission}, {"fallback_link", &WalkStats::link},
    {"fallback_reval", &WalkStats::reval},
};

inline WalkStats& WalkStats::operator+=(const WalkStats& o) {
  for (const auto& f : kWalkStatsFields) this->*f.value += o.*f.value;
  return *this;
}

// A path's components as views into the path's text (which must outlive them): up to 16 are kept
// inline, so splitting a path allocates nothing (issue 18: no allocation per system call).
using PathComponents = boost::container::small_vector<std::string_view, 16>;

struct WalkRequest {
  PathComponents components;  // "." included; empty components removed; views into the call's path
  bool absolute = false;
  bool want_parent = false;    // LOOKUP_PARENT: stop at the last component's parent
  bool save = true;            // path_walk's extra pin of the start point (not in do_filp_open)
  bool keep_rcu = false;       // store-free stat: stay in rcu mode at the end (no reference taken)
  bool follow = true;          // follow a symlink in the last component (stat: yes, lstat: no)
  bool open_trailing = false;  // do_filp_open: a trailing symlink is followed by open's own loop
};

// Symlink limits of the 2.6.35 and 2.6.38 walks (fs/namei.c): do_follow_link refuses a link nested
// MAX_NESTED_LINKS deep and the 41st link of one walk; do_filp_open refuses the 33rd trailing link.
inline constexpr int kMaxNestedLinks = 8;
inline constexpr int kMaxTotalLinks = 40;
inline constexpr int kMaxOpenTrailingLinks = 32;

struct WalkResult {
  DentryId dir = kNoDentry;     // the last directory reached (the parent for want_parent)
  DentryId target = kNoDentry;  // the final dentry, or kNoDentry (missing, or want_parent)
  std::string last;             // the last component's name
  bool in_rcu = false;          // still in rcu-walk (keep_rcu): the caller ends it
  bool holds_refs = false;      // holds a reference on target (or on dir when target is missing) and the mount
  bool saved = false;           // path_walk pinned the start point too: put it with put_path(start)
  bool eloop = false;           // too many symbolic links: the call fails with ELOOP, holding nothing
};

// The components of `path`, viewing its text.
PathComponents split_path(std::string_view path, bool* absolute);

// Emits the lookup. `force_ref` runs ref-walk even on an rcu-walk kernel (after a restart).
WalkResult walk_path(Emitter& e, const Process& p, const WalkRequest& req, const KernelOptions& opts, bool force_ref,
                     WalkStats& stats);
// path_put: drop a dentry reference and the mount reference.
void put_path(Emitter& e, DentryId d);

// The kernel's handling of a name that is not in the dcache, on ramfs: lock the directory, allocate
// and hash a negative dentry, and (ramfs deletes negatives at the last dput) kill it again.
void lookup_missing_and_kill(Emitter& e, DentryId dir, std::string_view name);

}  // namespace walksim::kernel
