// The walk of pathwalk.md §4a (ref-walk) and §4b (rcu-walk), with §8's drops. Every step names
// the kernel function it stands for, so the trace can be checked against the source.
#include "models/kernel/path_walk.hpp"

#include <list>

#include "models/kernel/dcache_ops.hpp"

namespace walksim::kernel {

PathComponents split_path(std::string_view path, bool* absolute) {
  PathComponents out;
  if (absolute) *absolute = !path.empty() && path[0] == '/';
  std::size_t pos = 0;
  while (pos <= path.size()) {
    std::size_t slash = path.find('/', pos);
    if (slash == std::string_view::npos) slash = path.size();
    if (slash > pos) out.push_back(path.substr(pos, slash - pos));
    pos = slash + 1;
  }
  return out;
}

namespace {

const ObjId& inode_of(Emitter& e, DentryId d) { return e.vfs().dentry(d).inode; }

bool acl_applies(Emitter& e, DentryId dir, const KernelOptions& opts) {
  return opts.posix_acl && !opts.caller_is_owner && e.vfs().dentry(dir).has_acl;
}

// exec_permission(dir inode): the mode, owner and group, and IS_POSIXACL from the superblock.
void permission_loads(Emitter& e, DentryId dir, const KernelOptions& opts) {
  const ObjId in = inode_of(e, dir);
  e.load(in, "i_op");
  e.load(in, "i_mode");
  e.load(in, "i_uid");
  e.load(in, "i_gid");
  e.load(e.vfs().super_block(), "s_flags");
  if (opts.posix_acl && !opts.caller_is_owner) e.load(in, "i_acl");
  e.compute("permission");
}

// check_acl in ref-walk: get_cached_acl takes the directory inode's i_lock and a reference on the
// ACL, and drops it after the check (3 RMW on the shared directory inode's lines).
void acl_check_ref(Emitter& e, DentryId dir) {
  const ObjId in = inode_of(e, dir);
  e.lock(in, "i_lock");
  e.atomic(in, "i_acl", +1);
  e.unlock(in, "i_lock");
  e.compute("acl_check");
  e.atomic(in, "i_acl", -1);
}

// nameidata_drop_rcu: pin the dentry reached so far, and leave rcu mode.
void drop_rcu(Emitter& e, DentryId d) {
  const ObjId o = e.vfs().dentry(d).obj;
  if (e.spec().d_count == DCount::kLockref) {
    e.dget(d);  // lockref_get_not_dead
    e.seq_check(o, "d_seq");
  } else {
    e.compute("spin_lock_call");  // _raw_spin_lock is out of line (docs/reference/call-costs.md)
    e.lock(o, "d_lock");
    e.seq_check(o, "d_seq");
    e.d_count_inc_locked(d);
    e.unlock(o, "d_lock");
  }
  e.mntget();
  e.vfsmount_read_unlock();
}

// The name compare: the inline name, and its tail when the name is too long for the part of
// d_iname that shares the first line (2.6.38: 8 bytes including the NUL); then the compare's own
// work, `name_compare_byte` per byte (2.6.x loops over bytes: lib/string.c memcmp, 2.6.38's
// dentry_cmp; 3.x and later compare a word at a time).
void load_name(Emitter& e, DentryId d) {
  const auto& x = e.vfs().dentry(d);
  e.load(x.obj, "d_iname");
  if (x.name.size() >= 8 && e.vfs().has_field(x.obj, "d_iname_tail")) e.load(x.obj, "d_iname_tail");
  e.compute("name_compare_byte", static_cast<double>(x.name.size()));
}

// nameidata_dentry_drop_rcu: pin both the directory and the dentry just looked up, leave rcu mode.
void drop_rcu_pair(Emitter& e, DentryId dir, DentryId d) {
  const ObjId po = e.vfs().dentry(dir).obj, o = e.vfs().dentry(d).obj;
  if (e.spec().d_count == DCount::kLockref) {
    e.dget(dir);
    e.dget(d);
    e.seq_check(o, "d_seq");
  } else {
    e.compute("spin_lock_call", 2);
    e.lock(po, "d_lock");
    e.lock(o, "d_lock");
    e.seq_check(o, "d_seq");
    e.d_count_inc_locked(d);
    e.unlock(o, "d_lock");
    e.d_count_inc_locked(dir);
    e.unlock(po, "d_lock");
  }
  e.mntget();
  e.vfsmount_read_unlock();
}

// __d_lookup in ref-walk: the chain, then d_lock, the recheck and the reference.
void d_lookup_ref(Emitter& e, DentryId child) {
  const auto& c = e.vfs().dentry(child);
  e.hash_chain(c.bucket, child);
  e.load(c.obj, "d_name");
  e.load(c.obj, "d_parent");
  e.compute("spin_lock_call");  // _raw_spin_lock is out of line (docs/reference/call-costs.md)
  if (e.spec().d_count == DCount::kLockref) {
    e.lock(c.obj, "d_lockref");
  } else {
    e.lock(c.obj, "d_lock");
  }
  e.load(c.obj, "d_parent");
  e.compute("memcmp_call");  // 2.6.35-2.6.37 call lib/string.c's memcmp; later kernels inline the compare
  load_name(e, child);       // memcmp of the name
  e.d_count_inc_locked(child);
  if (e.spec().d_count == DCount::kLockref) {
    e.unlock(c.obj, "d_lockref");
  } else {
    e.unlock(c.obj, "d_lock");
  }
}

// __d_lookup_rcu: loads and seqcount reads only.
void d_lookup_rcu(Emitter& e, DentryId parent, DentryId child, const KernelOptions& opts) {
  const auto& c = e.vfs().dentry(child);
  e.hash_chain(c.bucket, child);
  e.load(c.obj, "d_name");
  e.seq_begin(c.obj, "d_seq");
  e.load(c.obj, "d_parent");
  e.load(c.obj, "d_inode");
  if (opts.prefetch && e.spec().walk != WalkKind::kRefWalk) {
    e.prefetch(c.obj, "d_iname");
    e.prefetch(c.inode, "i_mode");
  }
  e.seq_check(c.obj, "d_seq");
  load_name(e, child);
  e.seq_check(e.vfs().dentry(parent).obj, "d_seq");
  e.load(c.obj, "d_flags");
  e.load(c.inode, "i_op");
}

}  // namespace

void lookup_missing_and_kill(Emitter& e, DentryId dir, std::string_view name) {
  auto& vfs = e.vfs();
  const ObjId in = vfs.dentry(dir).inode;
  const std::uint32_t bucket = vfs.bucket_of(dir, name);
  // real_lookup / d_lookup under the directory's i_mutex (d_lookup reads rename_lock where it
  // falls back to it: always while dcache_lock guards the chains).
  e.mutex_lock(in, "i_mutex");
  if (e.spec().rename_seqlock_in_lookup || e.spec().dcache_lock) e.seq_begin(vfs.globals(), "rename_lock");
  e.hash_chain(bucket, std::nullopt);
  e.compute("d_alloc");
  d_alloc_link(e, dir);
  // ->lookup (simple_lookup) then d_add: d_instantiate(NULL) + d_rehash.
  d_instantiate(e, std::nullopt);
  d_rehash(e, bucket, std::nullopt);
  e.mutex_unlock(in, "i_mutex");
  // The last dput kills the negative dentry (simple_delete_dentry): unhash, unlink, drop the parent.
  d_kill(e, dir, bucket, std::nullopt);
  e.dput(dir);
  e.compute("d_free");
}

namespace {

// One walk: link_path_walk's loop over the components, in rcu mode until something forces a
// drop to ref-walk (then in ref mode to the end). Each method is one step of the kernel's walk.
class PathWalk {
 public:
  PathWalk(Emitter& e, const Process& p, const WalkRequest& req, const KernelOptions& opts, bool force_ref,
           WalkStats& stats)
      : e_(e),
        vfs_(e.vfs()),
        p_(p),
        req_(req),
        opts_(opts),
        stats_(stats),
        rcu_(e.spec().walk != WalkKind::kRefWalk && !force_ref),
        cur_(req.absolute ? p.root : p.cwd),
        comps_(req.components),
        nesting_(comps_.size(), 0) {}

  WalkResult run() {
    if (rcu_) {
      ++stats_.rcu_lookups;
    } else {
      ++stats_.ref_lookups;
    }
    e_.compute("path_init");
    if (rcu_) {
      path_init_rcu();
    } else {
      path_init_ref();
    }
    res_.saved = !rcu_ && req_.save;
    while (i_ < comps_.size()) {
      const Step s = component();
      if (s == Step::kReturn) return res_;
      if (s == Step::kParentReached) break;
    }
    return finish();
  }

 private:
  enum class Step {
    kNext,           // go on with comps_[i_]
    kParentReached,  // LOOKUP_PARENT: the last component is the caller's
    kReturn,         // the walk ended early (a missing name, ELOOP): res_ is the result
  };

  // path_init_rcu: br_read_lock, rcu_read_lock, then a consistent snapshot of fs->pwd.
  void path_init_rcu() {
    const bool seq = e_.spec().fs_lock == FsLock::kSpinlockSeqcount;
    e_.vfsmount_read_lock();
    if (seq) e_.seq_begin(p_.fs, "seq");
    e_.load(p_.fs, req_.absolute ? "root" : "pwd");
    if (seq) e_.seq_check(p_.fs, "seq");
    e_.seq_begin(vfs_.dentry(cur_).obj, "d_seq");
    e_.load(vfs_.dentry(cur_).obj, "d_inode");
  }

  // path_init: get_fs_pwd under fs->lock, then path_walk's save of the start point.
  void path_init_ref() {
    e_.fs_lock(p_.fs);
    e_.load(p_.fs, req_.absolute ? "root" : "pwd");
    e_.mntget();
    e_.dget(cur_);
    e_.fs_unlock(p_.fs);
    if (req_.save) {
      e_.mntget();
      e_.dget(cur_);
    }
  }

  // One component of link_path_walk: permission, the lookup, a link or the step down.
  Step component() {
    const std::string_view name = comps_[i_];
    const bool last = i_ + 1 == comps_.size();
    // link_path_walk hashes every component, "." and ".." and the parent's last one included,
    // before it looks at it: byte by byte (partial_name_hash) until 3.x's word-at-a-time hash_name.
    e_.compute("name_hash_byte", static_cast<double>(name.size()));
    if (last && req_.want_parent && name != "." && name != "..") {
      res_.last = name;
      return Step::kParentReached;
    }
    may_exec();
    if (name == ".") {
      ++i_;
      return Step::kNext;
    }
    e_.compute("component");
    DentryId next = kNoDentry;
    if (name == "..") {
      next = vfs_.dentry(cur_).parent == kNoDentry ? cur_ : vfs_.dentry(cur_).parent;
    } else if (auto c = vfs_.child(cur_, name)) {
      next = *c;
    }
    if (next == kNoDentry) {
      missing(name);
      return Step::kReturn;
    }
    const Dentry& nd = vfs_.dentry(next);
    const bool follow = nd.symlink && (!last || req_.follow);
    if (rcu_) {
      lookup_rcu(next, follow);
    } else {
      lookup_ref(next, name);
    }
    if (nd.revalidate) e_.load(nd.obj, "d_op");  // ->d_revalidate (ref-walk)
    if (follow) return follow_link(next, last);
    if (!rcu_) e_.dput(cur_);  // path_to_nameidata: drop the parent
    cur_ = next;
    ++i_;
    return Step::kNext;
  }

  // exec_permission on the directory; an ACL cannot be checked in rcu mode: drop to ref-walk first.
  void may_exec() {
    permission_loads(e_, cur_, opts_);
    if (!acl_applies(e_, cur_, opts_)) return;
    if (rcu_) {
      ++stats_.permission;
      drop_rcu(e_, cur_);
      rcu_ = false;
    }
    acl_check_ref(e_, cur_);
  }

  // Not in the dcache: ramfs has no such file (-ENOENT); the caller puts the directory and mount.
  void missing(std::string_view name) {
    if (rcu_) {
      ++stats_.nodentry;
      drop_rcu(e_, cur_);
      rcu_ = false;
    }
    lookup_missing_and_kill(e_, cur_, name);
    res_.dir = cur_;
    res_.last = name;
    res_.holds_refs = true;
  }

  // __d_lookup_rcu; do_follow_link and ->d_revalidate cannot run in rcu mode.
  void lookup_rcu(DentryId next, bool follow) {
    d_lookup_rcu(e_, cur_, next, opts_);
    if (!follow && !vfs_.dentry(next).revalidate) return;
    if (follow) {
      ++stats_.link;
    } else {
      ++stats_.reval;
    }
    drop_rcu_pair(e_, cur_, next);
    rcu_ = false;
  }

  // do_lookup in ref-walk: __d_lookup takes a reference ("..": follow_dotdot's dget), then the
  // mount check and the inode.
  void lookup_ref(DentryId next, std::string_view name) {
    const Dentry& nd = vfs_.dentry(next);
    if (name != "..") d_lookup_ref(e_, next);
    if (name == "..") e_.dget(next);
    e_.load(nd.obj, e_.spec().dcache_lock ? "d_mounted" : "d_flags");
    e_.load(nd.obj, "d_inode");
    e_.load(nd.inode, "i_op");
  }

  // Follows the link `link` at comps_[i_]: its body's components replace it, and the walk goes on
  // from the body's first. open follows a trailing link in do_filp_open's own loop, with
  // link_count zero, refusing the 33rd; every other link goes through do_follow_link, which
  // refuses one nested MAX_NESTED_LINKS (8) deep or the 41st of the walk. Either way: ELOOP.
  Step follow_link(DentryId link, bool last) {
    const Dentry& nd = vfs_.dentry(link);
    const bool by_open = last && req_.open_trailing;
    const bool eloop = by_open ? trailing_links_++ == kMaxOpenTrailingLinks
                               : nesting_[i_] >= kMaxNestedLinks || total_links_ >= kMaxTotalLinks;
    if (eloop) {
      // path_put_conditional(link) and path_put(&nd->path); the caller sees a failed walk that
      // holds nothing (the start point saved by path_walk is still the caller's to put).
      e_.dput(link);
      put_path(e_, cur_);
      res_.eloop = true;
      return Step::kReturn;
    }
    if (!by_open) ++total_links_;
    const int body_nesting = by_open ? 0 : nesting_[i_] + 1;
    e_.load(nd.inode, "i_op");
    e_.compute("follow_link");
    if (!rcu_) e_.dput(link);  // the reference d_lookup_ref took on the link itself
    bool abs = false;
    // The body is copied: the components view it for the rest of the walk, and the walk may add
    // dentries (a negative one for a missing name), which can move the Vfs's own copy.
    link_bodies_.push_back(nd.link_target);
    auto target = split_path(link_bodies_.back(), &abs);
    const auto after = static_cast<std::ptrdiff_t>(i_) + 1;
    Nesting depth(target.size(), body_nesting);
    depth.insert(depth.end(), nesting_.begin() + after, nesting_.end());
    target.insert(target.end(), comps_.begin() + after, comps_.end());
    comps_ = std::move(target);
    nesting_ = std::move(depth);
    i_ = 0;
    if (abs) {
      e_.dget(p_.root);
      e_.dput(cur_);
      cur_ = p_.root;
    }
    return Step::kNext;
  }

  // The end of the walk: stay in rcu mode for a caller that can (stat), else
  // nameidata_drop_rcu_last on the final element (or on the parent for LOOKUP_PARENT).
  WalkResult finish() {
    res_.dir = req_.want_parent ? cur_ : (vfs_.dentry(cur_).parent == kNoDentry ? cur_ : vfs_.dentry(cur_).parent);
    res_.target = req_.want_parent ? kNoDentry : cur_;
    if (rcu_ && req_.keep_rcu) {
      res_.in_rcu = true;
      return res_;
    }
    if (rcu_) drop_rcu(e_, cur_);
    res_.holds_refs = true;
    return res_;
  }

  Emitter& e_;
  Vfs& vfs_;
  const Process& p_;
  const WalkRequest& req_;
  const KernelOptions& opts_;
  WalkStats& stats_;
  bool rcu_;
  DentryId cur_;
  PathComponents comps_;
  // For each component, how many link bodies it was spliced in from: the kernel's
  // current->link_count when it follows a link there (link_path_walk recurses into each body).
  using Nesting = boost::container::small_vector<int, 16>;
  Nesting nesting_;
  std::list<std::string> link_bodies_;  // the links followed (a list: empty, it allocates nothing; pushing moves none)
  std::size_t i_ = 0;
  int total_links_ = 0;     // current->total_link_count: links followed by do_follow_link
  int trailing_links_ = 0;  // do_filp_open's own count of trailing links
  WalkResult res_;
};

}  // namespace

WalkResult walk_path(Emitter& e, const Process& p, const WalkRequest& req, const KernelOptions& opts, bool force_ref,
                     WalkStats& stats) {
  return PathWalk(e, p, req, opts, force_ref, stats).run();
}

void put_path(Emitter& e, DentryId d) {
  e.dput(d);
  e.mntput();
}

}  // namespace walksim::kernel
