/* Structs that look like a 6.18 kernel's (member names, nesting, anonymous unions, a bitfield),
 * compiled with `gcc -g -c` and converted to BTF by `pahole -J` when the tests are built, so that
 * the layout importer's tests do not depend on the host's kernel. Offsets are whatever gcc gives;
 * the tests compare them with `pahole -C` of the same object. -DMISSPELT_LOCKREF renames d_lockref,
 * -DNO_DENTRY leaves struct dentry out. */
typedef unsigned int u32;
typedef unsigned long long u64;
typedef struct { int counter; } atomic_t;
typedef struct { volatile unsigned int slock; } spinlock_t;
typedef struct { unsigned int sequence; } seqcount_t;
typedef struct { seqcount_t seqcount; } seqcount_spinlock_t;
typedef struct { seqcount_spinlock_t seqcount; spinlock_t lock; } seqlock_t;
struct list_head { struct list_head *next, *prev; };
struct hlist_node { struct hlist_node *next, **pprev; };
struct hlist_head { struct hlist_node *first; };
struct hlist_bl_node { struct hlist_bl_node *next, **pprev; };
struct callback_head { struct callback_head *next; void (*func)(struct callback_head *); };
struct qstr { union { struct { u32 hash; u32 len; }; u64 hash_len; }; const unsigned char *name; };
struct lockref { union { u64 lock_count; struct { spinlock_t lock; int count; }; }; };
union shortname_store { unsigned char string[40]; unsigned long words[5]; };
struct rw_semaphore { long count; long owner; struct list_head wait_list; spinlock_t wait_lock; };
struct path { void *mnt; struct dentry *dentry; };
struct address_space { void *host; unsigned long nrpages; long pad[4]; };

#ifndef NO_DENTRY
struct dentry {
  unsigned int d_flags;
  seqcount_spinlock_t d_seq;
  struct hlist_bl_node d_hash;
  struct dentry *d_parent;
  union { struct qstr __d_name; const struct qstr d_name; };
  struct inode *d_inode;
  union shortname_store d_shortname;
  const void *d_op;
  struct super_block *d_sb;
  unsigned long d_time;
  void *d_fsdata;
#ifdef MISSPELT_LOCKREF
  struct lockref d_lokref;
#else
  struct lockref d_lockref;
#endif
  union { struct list_head d_lru; void *d_wait; };
  struct hlist_node d_sib;
  struct hlist_head d_children;
  union { struct hlist_node d_alias; struct hlist_bl_node d_in_lookup_hash; struct callback_head d_rcu; } d_u;
};
#endif

struct inode {
  unsigned short i_mode;
  unsigned short i_opflags;
  unsigned int i_uid;
  unsigned int i_gid;
  unsigned int i_flags;
  void *i_acl;
  void *i_default_acl;
  const void *i_op;
  struct super_block *i_sb;
  struct address_space *i_mapping;
  unsigned long i_ino;
  union { const unsigned int i_nlink; unsigned int __i_nlink; };
  unsigned int i_rdev;
  long long i_size;
  long long i_atime_sec, i_mtime_sec, i_ctime_sec;
  spinlock_t i_lock;
  unsigned short i_bytes;
  unsigned char i_blkbits;
  unsigned long i_blocks;
  struct rw_semaphore i_rwsem;
  struct hlist_node i_hash;
  struct list_head i_sb_list;
  union { struct hlist_head i_dentry; struct callback_head i_rcu; };
  atomic_t i_count;
  atomic_t i_writecount;
  union { const void *i_fop; void (*free_inode)(struct inode *); };
  void *i_flctx;
  struct address_space i_data;
};

struct vfsmount { struct dentry *mnt_root; struct super_block *mnt_sb; int mnt_flags; };
struct mount {
  struct hlist_node mnt_hash;
  struct mount *mnt_parent;
  struct dentry *mnt_mountpoint;
  struct vfsmount mnt;
  void *mnt_pcp;
  const char *mnt_devname;
  struct list_head mnt_list;
  void *mnt_ns;
  int mnt_expiry_mark;
};

struct super_block {
  struct list_head s_list;
  unsigned int s_dev;
  unsigned long s_flags;
  const void *s_op;
  struct dentry *s_root;
  char pad[200];
  struct list_head s_inodes;
  struct list_head s_dentry_lru;
  spinlock_t s_inode_list_lock;
  struct rw_semaphore s_vfs_rename_mutex;
  long s_writers[8];
};

struct fs_struct {
  int users;
  seqlock_t seq;
  int umask;
  int in_exec : 1;  /* a bitfield here (the kernel's is an int) */
  int spare : 31;
  struct path root, pwd;
};

struct files_struct {
  atomic_t count;
  void *fdt;
  spinlock_t file_lock;
  unsigned long open_fds_init[1];
  void *fd_array[64];
};

struct cred { atomic_t usage; unsigned int uid, gid, suid, sgid, euid, egid, fsuid, fsgid; };

struct file {
  union { struct callback_head f_task_work; void *f_llist; } f_u;
  spinlock_t f_lock;
  unsigned int f_mode;
  long f_ref;
  unsigned int f_flags;
  const void *f_op;
  struct path f_path;
  long long f_pos;
};

/* Referenced so that gcc emits every type. */
#ifndef NO_DENTRY
struct dentry dentry_v;
#endif
struct inode inode_v; struct mount mount_v; struct super_block sb_v; struct fs_struct fs_v;
struct files_struct files_v; struct cred cred_v; struct file file_v; struct lockref lockref_v;
