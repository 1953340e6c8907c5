// One list per object type, named as in the kernel's structs (pathwalk.md §3).
#include "models/kernel/object_fields.hpp"

namespace walksim::kernel {

const std::map<std::string, std::set<std::string>>& known_object_fields() {
  static const std::map<std::string, std::set<std::string>> fields = {
      {"dentry", {"d_count", "d_flags",  "d_lock", "d_lockref", "d_mounted", "d_seq",       "d_inode",
                  "d_hash",  "d_parent", "d_name", "d_lru",     "d_child",   "d_subdirs",   "d_alias",
                  "d_time",  "d_op",     "d_sb",   "d_fsdata",  "d_iname",   "d_iname_tail"}},
      {"inode", {"i_hash", "i_list",  "i_sb_list", "i_dentry",  "i_ino",    "i_count",   "i_nlink",
                 "i_uid",  "i_gid",   "i_size",    "i_mtime",   "i_atime",  "i_ctime",   "i_lock",
                 "i_mode", "i_op",    "i_fop",     "i_sb",      "i_flock",  "i_mutex",   "i_writecount",
                 "i_acl",  "i_flags", "i_rdev",    "i_blkbits", "i_blocks", "i_mapping", "i_nrpages"}},
      {"vfsmount",
       {"mnt_hash", "mnt_parent", "mnt_mountpoint", "mnt_root", "mnt_sb", "mnt_flags", "mnt_devname", "mnt_list",
        "mnt_longterm", "mnt_writers_lock", "mnt_writers", "mnt_count", "mnt_expiry_mark"}},
      {"super_block",
       {"s_list", "s_dev", "s_flags", "s_op", "s_root", "s_inodes", "s_files", "s_dentry_lru", "s_inode_list_lock",
        "s_vfs_rename_mutex", "s_mnt_writers_lock", "s_writers"}},
      {"fs_struct", {"users", "lock", "seq", "umask", "in_exec", "root", "pwd"}},
      {"files_struct", {"count", "fdt", "file_lock", "open_fds", "fd_array"}},
      {"cred", {"usage", "uid", "gid", "euid", "egid", "fsuid", "fsgid"}},
      {"file", {"f_u", "f_path", "f_op", "f_lock", "f_count", "f_flags", "f_mode", "f_pos"}},
      {"page", {"flags", "count", "mapping", "index", "data"}},
      {"globals",
       {"dcache_lock", "rename_lock", "rename_lock_spin", "vfsmount_lock", "mount_lock", "files_lock", "inode_lock",
        "inode_in_use", "inode_unused", "inodes_stat", "last_ino", "dentry_stat", "file_lock_lock", "test_lock"}},
      {"percpu",
       {"vfsmount_brlock", "mnt_pcp_count", "mnt_writers", "files_lglock", "s_files", "nr_files", "nr_dentry",
        "nr_inodes", "last_ino", "inode_list_lock", "sb_inodes"}},
  };
  return fields;
}

}  // namespace walksim::kernel
