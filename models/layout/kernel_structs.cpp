// The renames, checked against three trees of type information: 2.6.35.6 and 2.6.38 source (the
// code index), the BTF of Debian's 6.1.0-57 kernel and of this machine's 6.18.44 kernel (both read
// with `pahole -C`). A release given "by 6.18" was seen in that BTF and not pinned to the upstream
// commit; "as recalled" marks a version from memory of the history, not read in a tree.
#include "models/layout/kernel_structs.hpp"

namespace walksim::layout {
namespace {

std::vector<FieldInStructs> same_names(std::initializer_list<const char*> names) {
  std::vector<FieldInStructs> out;
  for (const char* n : names) out.push_back({n, {{n, "2.6.20", Part::kWhole}}});
  return out;
}

std::vector<StructOfType> build() {
  std::vector<StructOfType> t;

  StructOfType dentry{
      "dentry",
      {{"dentry", "2.6.20"}},
      "dentry",
      StrideRule::kAlign8,
      "fs/dcache.c dcache_init: KMEM_CACHE(dentry, SLAB_RECLAIM_ACCOUNT|SLAB_PANIC|...), no constructor",
      {}};
  dentry.fields = same_names({"d_flags", "d_seq", "d_inode", "d_hash", "d_parent", "d_name", "d_lru", "d_time", "d_op",
                              "d_sb", "d_fsdata", "d_mounted"});
  dentry.fields.push_back({"d_count", {{"d_count", "2.6.20"}, {"d_lockref.count", "3.12: struct lockref"}}});
  dentry.fields.push_back({"d_lock", {{"d_lock", "2.6.20"}, {"d_lockref.lock", "3.12: struct lockref"}}});
  dentry.fields.push_back({"d_lockref", {{"d_lockref", "3.12: struct lockref (d_lock and d_count in one word)"}}});
  dentry.fields.push_back({"d_child",
                           {{"d_child", "2.6.20"},
                            {"d_u.d_child", "2.6.38: in union d_u with d_rcu"},
                            {"d_sib", "by 6.18: hlist d_sib (6.8, as recalled)"}}});
  dentry.fields.push_back(
      {"d_subdirs", {{"d_subdirs", "2.6.20"}, {"d_children", "by 6.18: hlist d_children (6.8, as recalled)"}}});
  dentry.fields.push_back(
      {"d_alias", {{"d_alias", "2.6.20"}, {"d_u.d_alias", "3.19: d_alias into union d_u (as recalled)"}}});
  dentry.fields.push_back(
      {"d_iname",
       {{"d_iname", "2.6.20", Part::kFirstWord},
        {"d_shortname", "by 6.18: union shortname_store d_shortname (6.14, as recalled)", Part::kFirstWord}}});
  dentry.fields.push_back({"d_iname_tail",
                           {{"d_iname", "2.6.20", Part::kAfterFirstWord},
                            {"d_shortname", "by 6.18: union shortname_store d_shortname", Part::kAfterFirstWord}}});
  t.push_back(std::move(dentry));

  StructOfType inode{"inode",
                     {{"inode", "2.6.20"}},
                     "inode_cache",
                     StrideRule::kAlign8Ctor,
                     "fs/inode.c inode_init: kmem_cache_create(\"inode_cache\", ..., init_once), a constructor",
                     {}};
  inode.fields =
      same_names({"i_hash",  "i_sb_list", "i_dentry",  "i_ino",    "i_count",   "i_nlink", "i_uid",        "i_gid",
                  "i_size",  "i_lock",    "i_mode",    "i_op",     "i_fop",     "i_sb",    "i_writecount", "i_acl",
                  "i_flags", "i_rdev",    "i_blkbits", "i_blocks", "i_mapping", "i_list"});
  inode.fields.push_back(
      {"i_mutex", {{"i_mutex", "2.6.20"}, {"i_rwsem", "4.7: i_mutex became the rw_semaphore i_rwsem (as recalled)"}}});
  inode.fields.push_back(
      {"i_flock", {{"i_flock", "2.6.20"}, {"i_flctx", "4.0: struct file_lock_context (as recalled)"}}});
  inode.fields.push_back({"i_nrpages", {{"i_data.nrpages", "2.6.20: the embedded address_space"}}});
  for (const char* when : {"atime", "mtime", "ctime"}) {
    const std::string f = std::string("i_") + when;
    inode.fields.push_back({f,
                            {{f, "2.6.20"},
                             {"__" + f, "6.6: __i_ctime behind accessors (as recalled)"},
                             {f + "_sec", "by 6.18: seconds and nanoseconds apart (6.7, as recalled)"}}});
  }
  t.push_back(std::move(inode));

  // 3.3 split the mount's private part (struct mount, embedding struct vfsmount as .mnt) off the
  // struct filesystems see; the fields the walk touches sit in both.
  StructOfType mnt{"vfsmount",
                   {{"vfsmount", "2.6.20"}, {"mount", "3.3: struct mount around struct vfsmount"}},
                   "mnt_cache",
                   StrideRule::kHwcacheAlign,
                   "fs/namespace.c: kmem_cache_create(\"mnt_cache\", ..., SLAB_HWCACHE_ALIGN|SLAB_PANIC, NULL)",
                   {}};
  mnt.fields = same_names({"mnt_hash", "mnt_parent", "mnt_mountpoint", "mnt_devname", "mnt_list", "mnt_expiry_mark",
                           "mnt_writers", "mnt_writers_lock"});
  // mntput's fast-path test: 2.6.38 read mnt_longterm; later kernels read mnt_ns for the same answer
  // ("is it attached to a namespace, so not the last reference?").
  mnt.fields.push_back({"mnt_longterm",
                        {{"mnt_longterm", "2.6.38"},
                         {"mnt_ns", "by 6.1: mntput_no_expire tests mnt_ns where 2.6.38 read mnt_longterm"}}});
  for (const char* f : {"mnt_root", "mnt_sb", "mnt_flags"}) {
    mnt.fields.push_back({f, {{f, "2.6.20"}, {std::string("mnt.") + f, "3.3: in the embedded struct vfsmount"}}});
  }
  mnt.fields.push_back(
      {"mnt_count", {{"mnt_count", "2.6.20"}, {"mnt_pcp", "3.3 (SMP): the pointer to the per-CPU counts"}}});
  t.push_back(std::move(mnt));

  StructOfType sb{"super_block",
                  {{"super_block", "2.6.20"}},
                  "kmalloc",
                  StrideRule::kKmalloc,
                  "fs/super.c alloc_super: kzalloc(sizeof(struct super_block), GFP_USER)",
                  {}};
  sb.fields = same_names({"s_list", "s_dev", "s_flags", "s_op", "s_root", "s_inodes", "s_files", "s_dentry_lru",
                          "s_inode_list_lock", "s_vfs_rename_mutex", "s_writers", "s_mnt_writers_lock"});
  t.push_back(std::move(sb));

  StructOfType fs{
      "fs_struct",
      {{"fs_struct", "2.6.20"}},
      "fs_cache",
      StrideRule::kHwcacheAlign,
      "kernel/fork.c proc_caches_init: kmem_cache_create(\"fs_cache\", ..., SLAB_HWCACHE_ALIGN|SLAB_PANIC, NULL)",
      {}};
  fs.fields = same_names({"users", "umask", "in_exec", "root", "pwd"});
  // By 6.18 the lock and the seqcount are one seqlock_t seq (6.1 still has them apart).
  fs.fields.push_back({"lock", {{"lock", "2.6.20"}, {"seq.lock", "by 6.18: seqlock_t seq holds the spinlock"}}});
  fs.fields.push_back(
      {"seq",
       {{"seq.seqcount", "6.1: seqcount_spinlock_t; by 6.18 inside seqlock_t seq"}, {"seq", "2.6.38: seqcount_t"}}});
  t.push_back(std::move(fs));

  StructOfType files{
      "files_struct",
      {{"files_struct", "2.6.20"}},
      "files_cache",
      StrideRule::kHwcacheAlign,
      "kernel/fork.c proc_caches_init: kmem_cache_create(\"files_cache\", ..., SLAB_HWCACHE_ALIGN|SLAB_PANIC, NULL)",
      {}};
  files.fields = same_names({"count", "fdt", "file_lock", "fd_array"});
  files.fields.push_back(
      {"open_fds", {{"open_fds", "2.6.20"}, {"open_fds_init", "3.4: the embedded bitmap's word (as recalled)"}}});
  t.push_back(std::move(files));

  StructOfType cred{
      "cred",
      {{"cred", "2.6.29"}},
      "cred_jar",
      StrideRule::kHwcacheAlign,
      "kernel/cred.c cred_init: kmem_cache_create(\"cred_jar\", ..., SLAB_HWCACHE_ALIGN|SLAB_PANIC, NULL)",
      {}};
  cred.fields = same_names({"usage", "uid", "gid", "euid", "egid", "fsuid", "fsgid"});
  t.push_back(std::move(cred));

  StructOfType file{"file",
                    {{"file", "2.6.20"}},
                    "filp",
                    StrideRule::kHwcacheAlign,
                    "fs/file_table.c files_init: kmem_cache_create(\"filp\", ..., SLAB_HWCACHE_ALIGN|SLAB_PANIC, NULL)",
                    {}};
  file.fields = same_names({"f_u", "f_path", "f_op", "f_lock", "f_flags", "f_mode", "f_pos"});
  file.fields.push_back(
      {"f_count", {{"f_count", "2.6.20"}, {"f_ref", "by 6.18: file_ref_t f_ref (6.13, as recalled)"}}});
  t.push_back(std::move(file));
  return t;
}

}  // namespace

const std::vector<StructOfType>& kernel_structs() {
  static const std::vector<StructOfType> table = build();
  return table;
}

const StructOfType* struct_of_type(const std::string& type) {
  for (const auto& s : kernel_structs()) {
    if (type == s.type) return &s;
  }
  return nullptr;
}

}  // namespace walksim::layout
