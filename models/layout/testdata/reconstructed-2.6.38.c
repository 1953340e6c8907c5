/* The struct dentry and struct inode of Linux 2.6.38, x86-64, rebuilt from the tree cited in
 * docs/reference/slab-hash-layouts.md with the config options of its §2 (-DQUOTA -DFSNOTIFY -DSECURITY
 * -DACL). Compiled and printed with offsetof, they gave the offsets shipped in
 * configs/kernels/linux-2.6.38.yaml; btf_import_test.cpp converts them with pahole -J and checks that
 * `walksim layout import` gives the same layouts. */
#include "reconstructed-common.h"
struct mutex { atomic_t count; spinlock_t wait_lock; struct list_head wait_list; void *owner; };
struct rw_semaphore { long count; spinlock_t wait_lock; struct list_head wait_list; };
#define DNAME_INLINE_LEN 32
struct dentry {
	unsigned int d_flags; seqcount_t d_seq; struct hlist_bl_node d_hash; struct dentry *d_parent;
	struct qstr d_name; void *d_inode; unsigned char d_iname[DNAME_INLINE_LEN];
	unsigned int d_count; spinlock_t d_lock; const void *d_op; void *d_sb; unsigned long d_time; void *d_fsdata;
	struct list_head d_lru; union { struct list_head d_child; struct rcu_head d_rcu; } d_u;
	struct list_head d_subdirs; struct list_head d_alias;
};
struct address_space {
	void *host; struct radix_tree_root page_tree; spinlock_t tree_lock; unsigned int i_mmap_writable;
	struct prio_tree_root i_mmap; struct list_head i_mmap_nonlinear; spinlock_t i_mmap_lock;
	unsigned int truncate_count; unsigned long nrpages; pgoff_t writeback_index; const void *a_ops;
	unsigned long flags; void *backing_dev_info; spinlock_t private_lock; struct list_head private_list;
	struct address_space *assoc_mapping; struct mutex unmap_mutex;
} __attribute__((aligned(sizeof(long))));
struct inode {
	umode_t i_mode; uid_t_k i_uid; gid_t_k i_gid; const void *i_op; void *i_sb;
	spinlock_t i_lock; unsigned int i_flags; struct mutex i_mutex;
	unsigned long i_state; unsigned long dirtied_when;
	struct hlist_node i_hash; struct list_head i_wb_list; struct list_head i_lru; struct list_head i_sb_list;
	union { struct list_head i_dentry; struct rcu_head i_rcu; };
	unsigned long i_ino; atomic_t i_count; unsigned int i_nlink; dev_t_k i_rdev; unsigned int i_blkbits;
	u64 i_version; loff_t_k i_size; struct timespec_k i_atime, i_mtime, i_ctime; blkcnt_t_k i_blocks;
	unsigned short i_bytes; struct rw_semaphore i_alloc_sem; const void *i_fop; void *i_flock;
	struct address_space *i_mapping; struct address_space i_data;
#ifdef QUOTA
	void *i_dquot[2];
#endif
	struct list_head i_devices; union { void *i_pipe; void *i_bdev; void *i_cdev; };
	u32 i_generation;
#ifdef FSNOTIFY
	u32 i_fsnotify_mask; struct hlist_head i_fsnotify_marks;
#endif
#ifdef IMA
	unsigned int i_readcount;
#endif
	atomic_t i_writecount;
#ifdef SECURITY
	void *i_security;
#endif
#ifdef ACL
	void *i_acl; void *i_default_acl;
#endif
	void *i_private;
};
int main(void){
  SZ(dentry);
  P(dentry,d_flags);P(dentry,d_seq);P(dentry,d_hash);P(dentry,d_parent);P(dentry,d_name);P(dentry,d_name.hash);P(dentry,d_name.len);P(dentry,d_name.name);
  P(dentry,d_inode);P(dentry,d_iname);P(dentry,d_count);P(dentry,d_lock);P(dentry,d_op);P(dentry,d_sb);P(dentry,d_time);P(dentry,d_fsdata);
  P(dentry,d_lru);P(dentry,d_u);P(dentry,d_subdirs);P(dentry,d_alias);
  SZ(address_space); P(address_space,assoc_mapping); P(address_space,unmap_mutex); P(address_space,nrpages);
  SZ(inode);
  P(inode,i_mode);P(inode,i_uid);P(inode,i_gid);P(inode,i_op);P(inode,i_sb);P(inode,i_lock);P(inode,i_flags);P(inode,i_mutex);
  P(inode,i_state);P(inode,dirtied_when);P(inode,i_hash);P(inode,i_wb_list);P(inode,i_lru);P(inode,i_sb_list);P(inode,i_dentry);
  P(inode,i_ino);P(inode,i_count);P(inode,i_nlink);P(inode,i_rdev);P(inode,i_blkbits);P(inode,i_version);P(inode,i_size);
  P(inode,i_atime);P(inode,i_mtime);P(inode,i_ctime);P(inode,i_blocks);P(inode,i_bytes);P(inode,i_alloc_sem);P(inode,i_fop);
  P(inode,i_flock);P(inode,i_mapping);P(inode,i_data);P(inode,i_data.nrpages);
#ifdef QUOTA
  P(inode,i_dquot);
#endif
  P(inode,i_devices);P(inode,i_pipe);P(inode,i_generation);
#ifdef FSNOTIFY
  P(inode,i_fsnotify_mask);P(inode,i_fsnotify_marks);
#endif
#ifdef IMA
  P(inode,i_readcount);
#endif
  P(inode,i_writecount);
#ifdef SECURITY
  P(inode,i_security);
#endif
#ifdef ACL
  P(inode,i_acl);P(inode,i_default_acl);
#endif
  P(inode,i_private);
  return 0;}
