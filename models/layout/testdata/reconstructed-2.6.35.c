/* The struct dentry and struct inode of Linux 2.6.35 (-DV35) and 2.6.37, x86-64, rebuilt from the trees
 * cited in docs/reference/slab-hash-layouts.md with the config options of its §2 (-DQUOTA -DFSNOTIFY
 * -DINOTIFY -DSECURITY -DACL). Compiled and printed with offsetof, they gave the offsets shipped in
 * configs/kernels/linux-2.6.35.yaml; btf_import_test.cpp converts them with pahole -J and checks that
 * `walksim layout import` gives the same layouts. */
#include "reconstructed-common.h"
/* 2.6.35 x86_64 SMP: mutex has owner (CONFIG_SMP), rwsem = XCHGADD {long count; spinlock; list} */
struct mutex { atomic_t count; spinlock_t wait_lock; struct list_head wait_list; void *owner; };
struct rw_semaphore { long count; spinlock_t wait_lock; struct list_head wait_list; };
#define DNAME_INLINE_LEN_MIN 32
struct dentry {
	atomic_t d_count; unsigned int d_flags; spinlock_t d_lock; int d_mounted; void *d_inode;
	struct hlist_node d_hash; struct dentry *d_parent; struct qstr d_name;
	struct list_head d_lru; union { struct list_head d_child; struct rcu_head d_rcu; } d_u;
	struct list_head d_subdirs; struct list_head d_alias; unsigned long d_time;
	const void *d_op; void *d_sb; void *d_fsdata; unsigned char d_iname[DNAME_INLINE_LEN_MIN];
};
struct address_space {
	void *host; struct radix_tree_root page_tree; spinlock_t tree_lock; unsigned int i_mmap_writable;
	struct prio_tree_root i_mmap; struct list_head i_mmap_nonlinear; spinlock_t i_mmap_lock;
	unsigned int truncate_count; unsigned long nrpages; pgoff_t writeback_index; const void *a_ops;
	unsigned long flags; void *backing_dev_info; spinlock_t private_lock; struct list_head private_list;
	struct address_space *assoc_mapping;
#ifdef V38
	struct mutex unmap_mutex;
#endif
} __attribute__((aligned(sizeof(long))));
struct inode {
	struct hlist_node i_hash;
#ifdef V35
	struct list_head i_list;
#else
	struct list_head i_wb_list; struct list_head i_lru;
#endif
	struct list_head i_sb_list; struct list_head i_dentry; unsigned long i_ino; atomic_t i_count;
	unsigned int i_nlink; uid_t_k i_uid; gid_t_k i_gid; dev_t_k i_rdev; unsigned int i_blkbits; u64 i_version;
	loff_t_k i_size; struct timespec_k i_atime, i_mtime, i_ctime; blkcnt_t_k i_blocks; unsigned short i_bytes;
	umode_t i_mode; spinlock_t i_lock; struct mutex i_mutex; struct rw_semaphore i_alloc_sem;
	const void *i_op; const void *i_fop; void *i_sb; void *i_flock; struct address_space *i_mapping;
	struct address_space i_data;
#ifdef QUOTA
	void *i_dquot[2];
#endif
	struct list_head i_devices; union { void *i_pipe; void *i_bdev; void *i_cdev; };
	u32 i_generation;
#ifdef FSNOTIFY
	u32 i_fsnotify_mask;
#ifdef V35
	struct hlist_head i_fsnotify_mark_entries;
#else
	struct hlist_head i_fsnotify_marks;
#endif
#endif
#if defined(V35) && defined(INOTIFY)
	struct list_head inotify_watches; struct mutex inotify_mutex;
#endif
	unsigned long i_state; unsigned long dirtied_when; unsigned int i_flags;
#if !defined(V35) && defined(IMA)
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
#ifdef V35
  SZ(qstr); SZ(mutex); SZ(rw_semaphore); SZ(timespec_k); SZ(radix_tree_root); SZ(prio_tree_root);
  SZ(dentry);
  P(dentry,d_count);P(dentry,d_flags);P(dentry,d_lock);P(dentry,d_mounted);P(dentry,d_inode);P(dentry,d_hash);P(dentry,d_parent);
  P(dentry,d_name);P(dentry,d_name.hash);P(dentry,d_name.len);P(dentry,d_name.name);P(dentry,d_lru);P(dentry,d_u);P(dentry,d_subdirs);P(dentry,d_alias);
  P(dentry,d_time);P(dentry,d_op);P(dentry,d_sb);P(dentry,d_fsdata);P(dentry,d_iname);
#endif
  SZ(address_space);
  P(address_space,host);P(address_space,page_tree);P(address_space,tree_lock);P(address_space,i_mmap_writable);P(address_space,i_mmap);
  P(address_space,i_mmap_nonlinear);P(address_space,i_mmap_lock);P(address_space,truncate_count);P(address_space,nrpages);
  P(address_space,writeback_index);P(address_space,a_ops);P(address_space,flags);P(address_space,backing_dev_info);
  P(address_space,private_lock);P(address_space,private_list);P(address_space,assoc_mapping);
#ifdef V38
  P(address_space,unmap_mutex);
#endif
  SZ(inode);
  P(inode,i_hash);
#ifdef V35
  P(inode,i_list);
#else
  P(inode,i_wb_list);P(inode,i_lru);
#endif
  P(inode,i_sb_list);P(inode,i_dentry);P(inode,i_ino);P(inode,i_count);P(inode,i_nlink);P(inode,i_uid);P(inode,i_gid);P(inode,i_rdev);
  P(inode,i_blkbits);P(inode,i_version);P(inode,i_size);P(inode,i_atime);P(inode,i_mtime);P(inode,i_ctime);P(inode,i_blocks);P(inode,i_bytes);
  P(inode,i_mode);P(inode,i_lock);P(inode,i_mutex);P(inode,i_alloc_sem);P(inode,i_op);P(inode,i_fop);P(inode,i_sb);P(inode,i_flock);
  P(inode,i_mapping);P(inode,i_data);P(inode,i_data.nrpages);
#ifdef QUOTA
  P(inode,i_dquot);
#endif
  P(inode,i_devices);P(inode,i_pipe);P(inode,i_generation);
#ifdef FSNOTIFY
  P(inode,i_fsnotify_mask);
#ifdef V35
  P(inode,i_fsnotify_mark_entries);
#else
  P(inode,i_fsnotify_marks);
#endif
#endif
#if defined(V35) && defined(INOTIFY)
  P(inode,inotify_watches);P(inode,inotify_mutex);
#endif
  P(inode,i_state);P(inode,dirtied_when);P(inode,i_flags);
#if !defined(V35) && defined(IMA)
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
  return 0; }
