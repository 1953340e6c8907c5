// The dcache's own sequences (pathwalk.md §5-§7), each named for what the kernel does and each
// written once for both locking schemes. With `locking.dcache_lock: global` (to 2.6.37) one global
// dcache_lock guards every hash chain and every children list; without it (2.6.38+) a dentry's
// d_lock guards its children list, a bit lock in each hash-bucket head guards the chain, and d_seq
// is written around the changes rcu-walk must notice (rename, delete).
#pragma once

#include <optional>
#include <string>

#include "models/kernel/emitter.hpp"

namespace walksim::kernel {

// The lock that guards `dir`'s list of children: dcache_lock, or dir's d_lock.
void d_children_lock(Emitter& e, ObjId dir);
void d_children_unlock(Emitter& e, ObjId dir);
// A read (simple_empty, dcache_readdir's walk) or write of `dir`'s d_subdirs under that lock.
void d_subdirs_access(Emitter& e, ObjId dir, bool write);
// d_alloc's link of a new dentry into `parent`: a reference on the parent, its d_subdirs, the
// dentry count (a global stat under dcache_lock, a per-CPU counter after).
void d_alloc_link(Emitter& e, DentryId parent);
// d_instantiate: `dentry`'s d_inode set (nullopt: a negative dentry, d_add(NULL)).
void d_instantiate(Emitter& e, std::optional<DentryId> dentry);
// d_rehash: link into hash bucket `bucket`, under `dentry`'s d_lock when it has one to take.
void d_rehash(Emitter& e, std::uint32_t bucket, std::optional<ObjId> dentry);
// d_delete of the only user's dentry (dentry_iput): the inode detached from it.
void d_delete(Emitter& e, DentryId victim);
// The dput that kills a dentry (simple_delete_dentry): unhash from `bucket`, unlink from
// `parent`'s children, count it out. `victim` is the dentry when it is a real one (its last
// reference dropped, its d_lock and d_seq taken); nullopt for a negative dentry never visible to
// rcu-walk. The caller then drops the parent and frees it.
void d_kill(Emitter& e, DentryId parent, std::uint32_t bucket, std::optional<DentryId> victim);
// dcache_dir_open's cursor for `dir` (a d_alloc under it: a reference on `dir`, linked into its
// children until 5.x; an unlinked d_alloc_cursor since) and dcache_dir_close's dput of it.
void dcache_dir_open_cursor(Emitter& e, DentryId dir);
void dcache_dir_close_cursor(Emitter& e, DentryId dir);
// One getdents call of dcache_readdir on `dir` (fs/libfs.c), `first` the call that lists the
// children (the next one finds the cursor at the end and returns 0). The children's lock (the
// global dcache_lock, then dir's d_lock) is dropped around each entry's filldir and taken again to
// move the cursor past it; since 5.4 (scan_positives) each entry is found under dir's d_lock and
// pinned by a reference instead.
void dcache_readdir(Emitter& e, DentryId dir, bool first);
// d_move of `d` to (`to_dir`, `name`), replacing `target` if given, under rename_lock.
void d_move(Emitter& e, DentryId d, DentryId to_dir, const std::string& name, std::optional<DentryId> target);

}  // namespace walksim::kernel
