#include <stdio.h>
#include <stddef.h>
typedef unsigned int u32; typedef unsigned long long u64; typedef unsigned short umode_t;
typedef unsigned int uid_t_k, gid_t_k, dev_t_k, gfp_t; typedef long long loff_t_k;
typedef u64 blkcnt_t_k; typedef unsigned long pgoff_t;
typedef struct { int counter; } atomic_t;
typedef struct { unsigned int slock; } spinlock_t;   /* arch_spinlock {u32 slock}; no GENERIC_LOCKBREAK, no debug */
typedef struct { unsigned int lock; } rwlock_t;
typedef struct { unsigned sequence; } seqcount_t;
struct list_head { struct list_head *next, *prev; };
struct hlist_head { struct hlist_node *first; };
struct hlist_node { struct hlist_node *next, **pprev; };
struct hlist_bl_head { struct hlist_bl_node *first; };
struct hlist_bl_node { struct hlist_bl_node *next, **pprev; };
struct rcu_head { struct rcu_head *next; void (*func)(struct rcu_head *); };
struct qstr { unsigned int hash; unsigned int len; const unsigned char *name; };
struct timespec_k { long tv_sec; long tv_nsec; };
struct radix_tree_root { unsigned int height; gfp_t gfp_mask; void *rnode; };
struct prio_tree_root { void *prio_tree_node; unsigned short index_bits; unsigned short raw; };
#define P(S,f) printf("  %-26s off %4zu size %3zu  line %zu\n", #f, offsetof(struct S,f), sizeof(((struct S*)0)->f), offsetof(struct S,f)/64)
#define SZ(S) printf("sizeof(struct %s) = %zu\n", #S, sizeof(struct S))
