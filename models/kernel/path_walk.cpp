// The walk of pathwalk.md §4a (ref-walk) and §4b (rcu-walk), with §8's drops. Every step names
// the kernel function it stands for, so the trace can be checked against the source.
#include "models/kernel/path_walk.hpp"

#include "models/kernel/dcache_ops.hpp"

namespace walksim::kernel {

std::vector<std::string> split_path(const std::string& path, bool* absolute) {
  std::vector<std::string> out;
  if (absolute) *absolute = !path.empty() && path[0] == '/';
  std::size_t pos = 0;
  while (pos <= path.size()) {
    std::size_t slash = path.find('/', pos);
    if (slash == std::string::npos) slash = path.size();
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
    e.lock(o, "d_lock");
    e.seq_check(o, "d_seq");
    e.d_count_inc_locked(d);
    e.unlock(o, "d_lock");
  }
  e.mntget();
  e.vfsmount_read_unlock();
}

// The name compare: the inline name, and its tail when the name is too long for the part of
// d_iname that shares the first line (2.6.38: 8 bytes including the NUL).
void load_name(Emitter& e, DentryId d) {
  const auto& x = e.vfs().dentry(d);
  e.load(x.obj, "d_iname");
  if (x.name.size() >= 8 && e.vfs().has_field(x.obj, "d_iname_tail")) e.load(x.obj, "d_iname_tail");
}

// nameidata_dentry_drop_rcu: pin both the directory and the dentry just looked up, leave rcu mode.
void drop_rcu_pair(Emitter& e, DentryId dir, DentryId d) {
  const ObjId po = e.vfs().dentry(dir).obj, o = e.vfs().dentry(d).obj;
  if (e.spec().d_count == DCount::kLockref) {
    e.dget(dir);
    e.dget(d);
    e.seq_check(o, "d_seq");
  } else {
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
  e.hash_bucket(c.bucket);
  e.load(c.obj, "d_name");
  e.load(c.obj, "d_parent");
  if (e.spec().d_count == DCount::kLockref) {
    e.lock(c.obj, "d_lockref");
  } else {
    e.lock(c.obj, "d_lock");
  }
  e.load(c.obj, "d_parent");
  load_name(e, child);  // memcmp of the name
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
  e.hash_bucket(c.bucket);
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

void lookup_missing_and_kill(Emitter& e, DentryId dir, const std::string& name) {
  auto& vfs = e.vfs();
  const ObjId in = vfs.dentry(dir).inode;
  const std::uint32_t bucket = vfs.bucket_of(dir, name);
  // real_lookup / d_lookup under the directory's i_mutex (d_lookup reads rename_lock where it
  // falls back to it: always while dcache_lock guards the chains).
  e.mutex_lock(in, "i_mutex");
  if (e.spec().rename_seqlock_in_lookup || e.spec().dcache_lock) e.seq_begin(vfs.globals(), "rename_lock");
  e.hash_bucket(bucket);
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

WalkResult walk_path(Emitter& e, const Process& p, const WalkRequest& req, const KernelOptions& opts, bool force_ref,
                     WalkStats& stats) {
  auto& vfs = e.vfs();
  const KernelSpec& spec = e.spec();
  bool rcu = spec.walk != WalkKind::kRefWalk && !force_ref;
  if (rcu) {
    ++stats.rcu_lookups;
  } else {
    ++stats.ref_lookups;
  }
  const DentryId start = req.absolute ? p.root : p.cwd;
  WalkResult res;
  e.compute("path_init");

  if (rcu) {
    // path_init_rcu: br_read_lock, rcu_read_lock, then a consistent snapshot of fs->pwd.
    e.vfsmount_read_lock();
    if (spec.fs_lock == FsLock::kSpinlockSeqcount) e.seq_begin(p.fs, "seq");
    e.load(p.fs, req.absolute ? "root" : "pwd");
    if (spec.fs_lock == FsLock::kSpinlockSeqcount) e.seq_check(p.fs, "seq");
    e.seq_begin(vfs.dentry(start).obj, "d_seq");
    e.load(vfs.dentry(start).obj, "d_inode");
  } else {
    // path_init: get_fs_pwd under fs->lock, then path_walk's save of the start point.
    e.fs_lock(p.fs);
    e.load(p.fs, req.absolute ? "root" : "pwd");
    e.mntget();
    e.dget(start);
    e.fs_unlock(p.fs);
    if (req.save) {
      e.mntget();
      e.dget(start);
    }
  }

  res.saved = !rcu && req.save;
  DentryId cur = start;
  std::vector<std::string> comps = req.components;
  // For each component, how many link bodies it was spliced in from: the kernel's
  // current->link_count when it follows a link there (link_path_walk recurses into each body).
  std::vector<int> nesting(comps.size(), 0);
  int total_links = 0;     // current->total_link_count: links followed by do_follow_link
  int trailing_links = 0;  // do_filp_open's own count of trailing links
  for (std::size_t i = 0; i < comps.size(); ++i) {
    const std::string name = comps[i];
    const bool last = i + 1 == comps.size();
    if (last && req.want_parent && name != "." && name != "..") {
      res.last = name;
      break;
    }
    permission_loads(e, cur, opts);
    if (acl_applies(e, cur, opts)) {
      if (rcu) {  // an ACL cannot be checked in rcu mode: drop to ref-walk first
        ++stats.permission;
        drop_rcu(e, cur);
        rcu = false;
      }
      acl_check_ref(e, cur);
    }
    if (name == ".") continue;
    e.compute("component");
    DentryId next = kNoDentry;
    if (name == "..") {
      next = vfs.dentry(cur).parent == kNoDentry ? cur : vfs.dentry(cur).parent;
    } else if (auto c = vfs.child(cur, name)) {
      next = *c;
    }
    if (next == kNoDentry) {  // not in the dcache: ramfs has no such file
      if (rcu) {
        ++stats.nodentry;
        drop_rcu(e, cur);
        rcu = false;
      }
      lookup_missing_and_kill(e, cur, name);
      res.dir = cur;
      res.last = name;
      res.holds_refs = true;
      return res;  // -ENOENT: the caller puts the directory and the mount
    }
    const Dentry& nd = vfs.dentry(next);
    const bool follow = nd.symlink && (!last || req.follow);
    if (rcu) {
      d_lookup_rcu(e, cur, next, opts);
      if (follow || nd.revalidate) {  // do_follow_link and ->d_revalidate cannot run in rcu mode
        if (follow) {
          ++stats.link;
        } else {
          ++stats.reval;
        }
        drop_rcu_pair(e, cur, next);
        rcu = false;
      }
    } else {
      if (name != "..") d_lookup_ref(e, next);
      if (name == "..") e.dget(next);
      e.load(nd.obj, spec.dcache_lock ? "d_mounted" : "d_flags");
      e.load(nd.obj, "d_inode");
      e.load(nd.inode, "i_op");
    }
    if (nd.revalidate) e.load(nd.obj, "d_op");  // ->d_revalidate (ref-walk)
    if (follow) {
      // open follows a trailing link in do_filp_open's own loop, with link_count zero, refusing the
      // 33rd; every other link goes through do_follow_link, which refuses one nested
      // MAX_NESTED_LINKS (8) deep or the 41st of the walk. Either way the call fails with ELOOP.
      const bool by_open = last && req.open_trailing;
      const bool eloop = by_open ? trailing_links++ == kMaxOpenTrailingLinks
                                 : nesting[i] >= kMaxNestedLinks || total_links >= kMaxTotalLinks;
      if (eloop) {
        // path_put_conditional(link) and path_put(&nd->path); the caller sees a failed walk that
        // holds nothing (the start point saved by path_walk is still the caller's to put).
        e.dput(next);
        put_path(e, cur);
        res.eloop = true;
        return res;
      }
      if (!by_open) ++total_links;
      const int body_nesting = by_open ? 0 : nesting[i] + 1;
      e.load(nd.inode, "i_op");
      e.compute("follow_link");
      if (!rcu) e.dput(next);  // the reference d_lookup_ref took on the link itself
      bool abs = false;
      auto target = split_path(nd.link_target, &abs);
      std::vector<std::string> rest(comps.begin() + static_cast<std::ptrdiff_t>(i) + 1, comps.end());
      std::vector<int> depth(target.size(), body_nesting);
      depth.insert(depth.end(), nesting.begin() + static_cast<std::ptrdiff_t>(i) + 1, nesting.end());
      target.insert(target.end(), rest.begin(), rest.end());
      comps = std::move(target);
      nesting = std::move(depth);
      i = static_cast<std::size_t>(-1);
      if (abs) {
        e.dget(p.root);
        e.dput(cur);
        cur = p.root;
      }
      continue;
    }
    if (!rcu) e.dput(cur);  // path_to_nameidata: drop the parent
    cur = next;
  }

  res.dir = req.want_parent ? cur : (vfs.dentry(cur).parent == kNoDentry ? cur : vfs.dentry(cur).parent);
  res.target = req.want_parent ? kNoDentry : cur;
  if (rcu && req.keep_rcu) {
    res.in_rcu = true;
    return res;
  }
  // nameidata_drop_rcu_last on the final element (or on the parent for LOOKUP_PARENT).
  if (rcu) drop_rcu(e, cur);
  res.holds_refs = true;
  return res;
}

void put_path(Emitter& e, DentryId d) {
  e.dput(d);
  e.mntput();
}

}  // namespace walksim::kernel
