// A kernel variant as declared in configs/kernels/*.yaml: which walk algorithm, which lock guards
// what, how each VFS object's fields fall on cachelines, and the private CPU cost of each step.
// The syscall expanders read these switches; a new era is a new YAML, not new code, as long as it
// recombines mechanisms the model already has.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "models/config/config_error.hpp"
#include "models/kernel/slab.hpp"
#include "sim/time.hpp"

namespace walksim::kernel {

enum class WalkKind : std::uint8_t {
  kRefWalk,    // a reference and d_lock per component (2.6.35 and before)
  kRcuWalk,    // seqcount reads only, references taken at the end (2.6.38 and later)
  kStoreFree,  // Piggin's July 2010 tree: rcu-walk, and stat/lstat take no reference at all
};
enum class FsLock : std::uint8_t { kRwlock, kSpinlock, kSpinlockSeqcount };
enum class MntCount : std::uint8_t { kAtomic, kPercpu };
enum class DCount : std::uint8_t { kAtomic, kUnderDLock, kLockref };
enum class VfsmountLock : std::uint8_t { kSpinlock, kBrlock, kSeqlock };
enum class FilesList : std::uint8_t { kGlobalLock, kPerCpu, kNone /* 3.13+: no per-sb file list */ };
enum class InodeLock : std::uint8_t {
  kGlobal,       // one inode_lock for the hash, the sb and in-use lists, counters (to 2.6.38)
  kSplit,        // per-inode i_lock, one per-superblock inode list lock (2.6.39+)
  kSplitPercpu,  // per-inode i_lock, per-CPU superblock inode lists each with its lock
};
enum class WantWrite : std::uint8_t {
  kNone,           // before r/o bind mounts (2.6.20)
  kMountSpinlock,  // the 2007 posting: one mount-wide spinlock per mnt_want_write / mnt_drop_write
  kPercpuCounter,  // 2.6.29+: this CPU's counter, a full fence, a load of mnt_flags
};
enum class InodeFree : std::uint8_t { kImmediate, kRcu };

// Fields of one object type by 64-byte line: lines[i] lists the fields on line i. On machines
// with longer lines (128 B on Itanium) consecutive 64-byte lines fold into one.
struct FieldSlot {
  std::uint32_t line64 = 0;  // 64-byte line index from the object's start
  std::uint32_t word = 0;    // position of the field in layout order (its word within the object)
  std::uint32_t offset = 0;  // byte offset from the object's start (64 x line64 in a layout of lines)
};

// Hash for string keys that also accepts string_views, so lookups need not build a string.
struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

// An object type's fields on cachelines. Either a list of 64-byte lines, each a list of fields, and
// every object given lines of its own; or the struct's byte offsets (`offsets`, with `size` and the
// slab cache's `stride`), and the objects packed in slabs as the allocator packs them, so that an
// object may start inside a line and share it with its neighbour (docs/kernels.md, "Layouts").
struct ObjectLayout {
  std::string type;
  // Made by the loader from another layout, not read from a file (a disk filesystem's inode
  // container, from "inode"): `walksim layout move` cannot write it back.
  std::string derived_from;
  std::vector<std::vector<std::string>> lines;  // by 64-byte line from the object's start (both forms)
  // Each line starts a machine cacheline of its own (`__cacheline_aligned_in_smp` globals): on a
  // machine with 128-byte lines they do not fold together.
  bool aligned = false;
  std::uint32_t size = 0;                        // sizeof the struct, with offsets; 0 in a layout of lines
  std::uint32_t stride = 0;                      // the slab cache's object size (alignment, an outside free pointer)
  std::string source;                            // where the offsets come from
  std::map<std::string, std::uint32_t> offsets;  // field -> byte offset
  std::map<std::string, std::uint32_t> sizes;    // field -> bytes, where the layout says (optional)
  std::map<std::string, std::uint32_t> line_of;  // field -> 64-byte line index
  std::unordered_map<std::string, FieldSlot, StringHash, std::equal_to<>> slots;  // built by index()
  bool slab_packed() const { return size > 0; }
  void index() {
    slots.clear();
    std::uint32_t word = 0;
    if (slab_packed()) {
      lines.clear();
      std::vector<std::pair<std::uint32_t, std::string>> by_offset;
      for (const auto& [f, off] : offsets) by_offset.emplace_back(off, f);
      std::sort(by_offset.begin(), by_offset.end());
      for (const auto& [off, f] : by_offset) {
        const std::uint32_t line = off / 64;
        if (lines.size() <= line) lines.resize(line + 1);
        lines[line].push_back(f);
        line_of[f] = line;
        slots[f] = {line, word++, off};
      }
      lines.resize(std::max<std::size_t>(lines.size(), (size + 63) / 64));
      return;
    }
    for (std::uint32_t i = 0; i < lines.size(); ++i) {
      for (const auto& f : lines[i]) slots[f] = {i, word++, 64 * i};
    }
  }
};

// Private CPU work of each step, in cycles of the machine it runs on. Each carries a source or is
// marked `calibrated:` (then the experiment layer fits one scale factor; never edited by hand).
struct CpuCosts {
  std::map<std::string, double, std::less<>> cycles;  // step name -> cycles (looked up by string_view)
  std::map<std::string, std::string> origin;          // step name -> source text, or "calibrated: <what>"
};

struct KernelSpec {
  // Whether the VFS inode caches POSIX ACLs (i_acl, 2.6.30+): only then can a walk consult one.
  bool inode_caches_acl() const {
    const auto it = layouts.find("inode");
    return it != layouts.end() && it->second.slots.count("i_acl") > 0;
  }
  std::string name;
  std::string description;
  std::string file;

  WalkKind walk = WalkKind::kRefWalk;
  FsLock fs_lock = FsLock::kRwlock;
  MntCount mnt_count = MntCount::kAtomic;
  bool mnt_expiry_store_always = true;  // 2.6.35 mntput stores mnt_expiry_mark = 0 on every call
  DCount d_count = DCount::kAtomic;
  bool dcache_lock = true;  // the global dcache_lock exists
  VfsmountLock vfsmount_lock = VfsmountLock::kSpinlock;
  FilesList files_list = FilesList::kGlobalLock;
  InodeLock inode_lock = InodeLock::kGlobal;
  WantWrite want_write = WantWrite::kPercpuCounter;
  // The sync kind (models/sync/sync_registry.cpp) of the variant's spinlock_t: tas to 2.6.24,
  // ticket from 2.6.25, queued from 4.2; any kind with the spinlock role is a what-if.
  std::string spinlock = "ticket";
  // The sync kind of its struct mutex (a sleeping kind): `mutex` to 2.6.29, `mutex-spin` (spinning
  // on a running owner, CONFIG_MUTEX_SPIN_ON_OWNER) from 2.6.30.
  std::string mutex = "mutex-spin";
  InodeFree inode_free = InodeFree::kImmediate;
  bool rename_seqlock_in_lookup = false;  // d_lookup reads rename_lock (2.6.38 __lookup_hash)
  // open's walk pins the start point and drops it at its end as path_walk does: 2.6.20's
  // link_path_walk saves nd->path itself (dget + mntget, then dput + mntput); 2.6.35's do_filp_open
  // calls the walk without that save.
  bool open_pins_start_point = false;
  // A new file takes a reference on the opener's struct cred and __fput drops it (2.6.29+).
  bool file_cred_refs = true;

  // Where boot-time objects live: the globals, the superblock, the mount and the root dentry on
  // one node; the dentry hash table on that node or interleaved over all (alloc_large_system_hash
  // interleaves it on NUMA machines).
  std::uint32_t boot_node = 0;
  config::SourceMark boot_node_mark;  // where boot_objects_node was given: the file is loaded without
                                      // a machine, so check_kernel_fits_machine reports against it later
  bool hash_interleaved = true;
  // The allocator whose slabs pack the objects of layouts given by offsets (placement.slab_allocator).
  SlabAllocator allocator = SlabAllocator::kSlub;
  // The dentry hash table's alloc_large_system_hash scale: one bucket per 2^scale bytes of memory.
  std::uint32_t dentry_hash_scale = 13;

  // try_to_wake_up takes the target runqueue's lock once (2.6.20) or, from 2.6.35, twice
  // (task_rq_lock, then released and taken again around TASK_WAKING and select_task_rq).
  std::uint32_t ttwu_rq_lock_passes = 2;

  std::map<std::string, ObjectLayout> layouts;  // by object type
  CpuCosts costs;

  // A disk filesystem's inode object, which embeds the VFS inode (ext3_inode_info, ext4_inode_info:
  // docs/reference/diskfs-lstat.md §3), from the kernel YAML's optional `filesystems:`. When the
  // kernel's own inode layout is the one the offsets were computed for, the loader adds the
  // container to `layouts` (type "<name>_inode_info"); otherwise `unavailable` says why.
  struct FsInodeCache {
    enum class Getattr : std::uint8_t { kGeneric, kExt4, kExt4Locked };
    std::string layout;                   // "ext4_inode_info"
    std::uint32_t inode_size = 0;         // sizeof(struct inode) the offsets assume
    std::uint32_t vfs_inode_at = 0;       // offset of the embedded VFS inode
    Getattr getattr = Getattr::kGeneric;  // ext3: none (generic_fillattr); ext4: i_reserved_data_blocks
    std::string unavailable;              // empty when `layout` is in `layouts`
  };
  std::map<std::string, FsInodeCache> filesystems;  // "ext3", "ext4"
};

// Per-run options of a variant (experiment YAML or command-line flags).
struct KernelOptions {
  bool prefetch = true;         // prefetch name and inode in __d_lookup_rcu (2.6.38+)
  bool posix_acl = false;       // POSIX ACLs on directories (a cached ACL exists)
  bool caller_is_owner = true;  // root / the owner: no ACL consulted on exec permission
};

}  // namespace walksim::kernel
