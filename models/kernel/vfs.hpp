// The simulated VFS: every kernel object (dentries, inodes, the mount, the superblock, per-process
// fs_struct/files_struct/cred, per-CPU lines, global locks, hash buckets) laid out on cachelines
// of the memory system according to the kernel variant's layouts, plus the dentry tree itself.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "models/coherence/memory_system.hpp"
#include "models/kernel/kernel_spec.hpp"
#include "models/kernel/kop.hpp"

namespace walksim::kernel {

using machine::CpuId;
using ObjId = std::uint32_t;
using DentryId = std::uint32_t;
constexpr DentryId kNoDentry = UINT32_MAX;

struct FieldRef {
  LineId line;
  std::uint32_t word;
  std::string_view name;
};

struct Object {
  const ObjectLayout* layout;
  LineId first_line;         // its lines are consecutive ids: first_line .. first_line + line_count - 1
  std::uint32_t line_count;  // one per machine line the object spans
  std::uint32_t first_word;  // word id of the layout's first field; fields follow in layout order
  bool shared;
  std::string name;
  std::uint32_t start = 0;  // the byte of first_line where the object begins (slab-packed layouts)
  bool free = false;        // on its CPU's free list (free_object), waiting to be allocated again
};

// What a tree is on: ramfs (dentries pinned), a disk filesystem with the VFS inode alone and
// generic_fillattr (`kDisk`), or ext3/ext4 with their inode containers (KernelSpec::filesystems).
enum class Filesystem : std::uint8_t { kRamfs, kDisk, kExt3, kExt4 };
// Each filesystem by the name experiments give it ("ramfs", "disk", "ext3", "ext4").
const std::vector<std::pair<std::string, Filesystem>>& filesystem_names();
std::string filesystem_name(Filesystem fs);
// Why kernel `k` has no inode container for `fs` (none in its `filesystems:`, or one laid out for
// another struct inode), as "kernel 'K' has no ext4 inode container...": empty when it has one, or
// when `fs` needs none.
std::string inode_container_problem(const KernelSpec& k, Filesystem fs);

struct Dentry {
  std::string name;
  DentryId parent = kNoDentry;
  ObjId obj = 0;    // the dentry object
  ObjId inode = 0;  // its inode object (negative dentries have none: see `negative`)
  bool dir = false;
  bool symlink = false;
  bool negative = false;
  bool has_acl = false;     // a POSIX ACL is cached on the inode
  std::string link_target;  // for symlinks
  bool revalidate = false;  // the filesystem has ->d_revalidate for it (NFS-like); ramfs never
  // The filesystem it is on. A disk filesystem keeps no reference of its own on a dentry, where
  // ramfs pins every positive one: an unused file's count is 0, and the dput that drops a walk's
  // reference takes dput's slow path (Emitter::dput); a directory's count still holds a reference
  // per cached child. Its getattr is generic_fillattr (ramfs's simple_getattr also reads the page
  // count; ext4's reads a field of its own inode container).
  Filesystem fs = Filesystem::kRamfs;
  bool disk_fs() const { return fs != Filesystem::kRamfs; }
  // Regular files: the one page-cache page their data lives in, made when it is first read or
  // written (Vfs::page_of; a stat never touches it), homed where the file was made.
  ObjId page = UINT32_MAX;
  std::int32_t home = -1;          // the node its objects were homed on (-1: first touch)
  std::uint32_t inode_cpu = 0;     // the CPU whose per-CPU inode list holds the inode (split-percpu)
  std::uint32_t bucket = 0;        // index into the dentry hash table
  DentryId hash_next = kNoDentry;  // the next dentry on its bucket's chain (hlist: newest first)
  bool hashed = false;             // on its bucket's chain
  // Increases whenever the dentry's name, parent, chain link or negativity change, and
  // children_version whenever a child is added or removed (so an expansion that read either can
  // tell whether it still applies: Vfs::record_reads). The other fields do not change once a call
  // may read them: symlinks, ACLs and the filesystem are set while workloads and `walksim trace`
  // build the tree, before any call is expanded; inode_cpu by the call that makes the dentry; the
  // page only by page_of, which every reader of it calls.
  std::uint32_t version = 0;
  std::uint32_t children_version = 0;
  mutable std::uint64_t read_stamp = 0;           // the recording that last noted the dentry
  mutable std::uint64_t children_read_stamp = 0;  // ... and its children

 private:
  // Read through Vfs::children (which notes the read) or Vfs::child; changed only by the Vfs.
  friend class Vfs;
  std::map<std::string, DentryId, std::less<>> children;
};

struct OpenFile {
  DentryId dentry = kNoDentry;
  ObjId file = 0;
  bool write = false;
  CpuId sb_list_cpu = 0;  // the CPU whose per-CPU file list holds it (2.6.36+)
  bool open = false;
  bool dir_cursor = false;  // opendir on a dcache_readdir filesystem allocated a cursor dentry
};

struct Process {
  std::uint32_t pid = 0;
  CpuId cpu = 0;
  ObjId fs = 0;     // fs_struct (shared by CLONE_FS threads)
  ObjId files = 0;  // files_struct
  ObjId cred = 0;
  DentryId cwd = 0;
  DentryId root = 0;
  std::vector<OpenFile> fds;        // index = fd
  std::uint64_t fd_generation = 0;  // increases when a descriptor is opened or closed
  std::vector<ObjId> free_files;    // the slab's free file objects of this CPU, reused first
};

class Vfs {
 public:
  // Builds the globals, the mount, the superblock, the root directory and per-CPU lines.
  Vfs(coherence::MemorySystem& mem, const KernelSpec& spec);

  const KernelSpec& spec() const { return spec_; }
  coherence::MemorySystem& memory() { return mem_; }
  const machine::Machine& machine() const { return mem_.machine(); }

  // An object of `type` (a layout name) homed on `home` (nullopt: first touch). A type laid out by
  // offsets comes from a slab of its cache: the current slab of `cpu` (SLUB's per-CPU slab: objects
  // a CPU allocates at run time sit together), or, for objects made while a workload builds its
  // tree, of one allocating CPU per home node. A CPU first reuses the last object of the type it
  // freed (free_object), lines and words as they were.
  ObjId new_object(const std::string& type, std::string name, bool shared, std::optional<std::uint32_t> home,
                   std::optional<CpuId> cpu = std::nullopt);
  // kmem_cache_free on `cpu` of an object of a slab-packed layout: the CPU's next allocation of the
  // type gets it back. Freeing it twice (a call expanded again) frees it once. Objects the kernel
  // frees through RCU are not freed here: their grace period outlasts the loops the model runs.
  void free_object(ObjId id, CpuId cpu);
  const Object& object(ObjId id) const { return objects_[id]; }
  bool has_field(ObjId id, std::string_view field) const;
  // From now on, the (type, field) of every field() into `required` and of every has_field() into
  // `asked` (kernel_check's fields_used: what an imported layout must place).
  void record_fields_used(std::set<std::pair<std::string, std::string>>* required,
                          std::set<std::pair<std::string, std::string>>* asked) {
    used_required_ = required;
    used_asked_ = asked;
  }
  // Throws std::invalid_argument naming the object and field when the layout lacks it. Inline up
  // to the cache's answer: an expansion looks up a field per operation, and out of line the call's
  // frame (saved registers for the miss path) cost as much as the lookup.
  FieldRef field(ObjId id, std::string_view name) const {
    const Object& o = objects_[id];
    const FieldCacheEntry& ce = field_cache_[field_cache_index(o.layout, name)];
    if (ce.layout == o.layout && ce.name == name.data() && ce.size == name.size()) [[likely]] {
      return {o.first_line + line_in_object(o, ce.slot), o.first_word + ce.slot.word, ce.stored};
    }
    return field_uncached(o, name);
  }
  // The kernel's cpu_costs entry for a compute step, or nullptr; cached by the address of the
  // name literal, like field().
  const std::pair<const std::string, double>* step_cost(std::string_view step) const {
    const StepCacheEntry& ce = step_cache_[step_cache_index(step)];
    if (ce.name == step.data() && ce.size == step.size()) [[likely]] {
      return ce.entry;
    }
    return step_cost_uncached(step);
  }

  // The dentry tree. `shared` marks objects that several processes may write.
  DentryId root() const { return root_; }
  const Dentry& dentry(DentryId d) const {
    if (reads_) note_read(d);
    return dentries_[d];
  }
  Dentry& dentry(DentryId d) {
    if (reads_) note_read(d);
    return dentries_[d];
  }
  DentryId dentry_count() const { return static_cast<DentryId>(dentries_.size()); }
  // Increases whenever the dentry tree changes (a name added, removed or moved) anywhere: an
  // expansion that changed it is not reused.
  std::uint64_t generation() const { return generation_; }
  // What an expansion read: a dentry (through dentry()), a directory's listing (children()), a
  // hash bucket's chain (hash_chain(), and child(): a lookup reads its name's bucket) or a
  // process's descriptor table (id: its pid; version: its fd_generation), with its version then.
  // While `deps` is set, every such read is noted there (once per dentry, listing and bucket);
  // reads_unchanged tells whether all of them would read the same now. A call expanded against
  // one part of the tree is then reused until that part changes, not until any other process
  // changes any other directory (dbench's 64 clients each work in their own).
  enum class ReadOf : std::uint8_t { kDentry, kChildren, kBucket, kFdTable };
  struct TreeRead {
    std::uint32_t id;  // DentryId, bucket index or pid
    ReadOf what;
    std::uint64_t version;
  };
  void record_reads(std::vector<TreeRead>* deps) {
    reads_ = deps;
    ++read_stamp_;
  }
  bool reads_unchanged(const std::vector<TreeRead>& deps) const;
  // Notes a read of p's descriptor table (a descriptor looked up), when recording.
  void note_fd_table_read(const Process& p) const {
    if (reads_) reads_->push_back({p.pid, ReadOf::kFdTable, p.fd_generation});
  }
  // Word ids handed out so far (fields of objects, hash buckets).
  std::uint32_t word_count() const { return next_word_; }
  // n more word ids, consecutive, for a workload's own fields that share a line (lock-loop's
  // locks_per_line): the first is returned.
  std::uint32_t new_words(std::uint32_t n) {
    const std::uint32_t first = next_word_;
    next_word_ += n;
    return first;
  }
  // The child `name` of `parent`. A recorded read of it is a read of the name's hash bucket: a name
  // joins or leaves a directory only by joining or leaving its bucket's chain, so other names
  // added to the directory do not make the lookup stale.
  std::optional<DentryId> child(DentryId parent, std::string_view name) const;
  // All of a directory's children, by name (readdir, emptiness tests).
  const std::map<std::string, DentryId, std::less<>>& children(DentryId d) const;
  // `fs`: the filesystem the new dentry is on; ext3 and ext4 make its inode in their container
  // (the kernel's `filesystems:`; std::invalid_argument naming the kernel when it has none).
  DentryId add_dentry(DentryId parent, const std::string& name, bool dir, bool shared,
                      std::optional<std::uint32_t> home, std::optional<CpuId> cpu = std::nullopt,
                      Filesystem fs = Filesystem::kRamfs);
  // The layout type of an inode on `fs` ("inode" unless ext3/ext4), or std::invalid_argument saying
  // why this kernel has no container for it.
  const std::string& inode_type(Filesystem fs) const;
  // The page of regular file `d`, made on first use.
  ObjId page_of(Dentry& d);
  void remove_dentry(DentryId d);  // unlink: drop from parent and hash; the slot is not reused
  void move_dentry(DentryId d, DentryId new_parent, const std::string& new_name);  // rename
  // The file at the head of the superblock's s_files list (2.6.35 file_move puts each opened file
  // there and writes the old head's list pointer), if any.
  std::optional<ObjId>& s_files_head() { return s_files_head_; }
  // Makes `d` negative (or positive again) without reallocating its objects.
  DentryId mkpath(const std::string& path, bool shared, std::optional<std::uint32_t> home);  // "a/b/c", dirs

  // Globals and per-CPU lines.
  ObjId globals() const { return globals_; }
  ObjId mount() const { return mount_; }
  ObjId super_block() const { return sb_; }
  ObjId percpu(CpuId cpu) const { return percpu_[cpu]; }
  // The dentry hash table: as many buckets as alloc_large_system_hash gives the kernel's scale on
  // this machine's memory, 8 bytes each. Its lines (and the words of its buckets) are made when a
  // bucket is first used, so a table of millions of buckets costs only the lines a run touches.
  std::uint32_t hash_buckets() const { return hash_buckets_; }
  FieldRef hash_bucket(std::uint32_t bucket) const;
  FieldRef hash_bucket_lock(std::uint32_t bucket) const;  // the bit-spinlock in the head (2.6.38+)
  std::uint32_t bucket_of(DentryId parent, std::string_view name) const;
  // The first dentry on a bucket's chain (kNoDentry: empty); the rest follow Dentry::hash_next.
  DentryId chain_head(std::uint32_t bucket) const;
  // A lookup's view of a bucket: its head word (as hash_bucket gives it) and the chain's first
  // dentry, found with one search.
  struct ChainView {
    FieldRef head_word;
    DentryId first;
  };
  ChainView hash_chain(std::uint32_t bucket) const;

  Process& new_process(CpuId cpu, DentryId cwd, std::optional<ObjId> shared_fs = std::nullopt);
  Process& process(std::uint32_t pid) { return processes_[pid]; }
  std::size_t process_count() const { return processes_.size(); }

  // What each line is, for traces and the hot-line report (indexed by LineId; lines not made by
  // the VFS have an empty label).
  // Object lines' labels are made on demand from the object and its layout (nothing is stored
  // per line but the owning object's id); other lines carry a label set explicitly.
  LineLabel label(LineId line) const;
  // VFS memory per line (the owning object's id, for labels).
  static constexpr std::size_t bytes_per_line() { return sizeof(ObjId); }
  void set_label(LineId line, LineLabel label);
  // Lines the workload made for a process's own memory (`count` consecutive lines from `first`):
  // one label for all, each line's index its position in the range.
  void label_range(LineId first, std::uint32_t count, LineLabel label);
  std::string describe(DentryId d) const;  // "dentry 'clients'"

 private:
  coherence::MemorySystem& mem_;
  const KernelSpec& spec_;
  std::vector<Object> objects_;
  std::vector<Dentry> dentries_;
  std::deque<Process> processes_;  // a deque: references to processes stay valid as more are made
  static constexpr ObjId kNoObject = UINT32_MAX;
  std::vector<ObjId> line_object_;                        // indexed by LineId: the first object on the line
  std::unordered_map<LineId, ObjId> line_second_object_;  // a slab neighbour sharing the line
  // The slab an allocator key (type, then CPU or home node) allocates from: its lines, which slab of
  // the cache it is (for SLAB's colour) and the next free object.
  struct SlabCursor {
    LineId first_line = 0;
    std::uint64_t index = 0;
    std::uint32_t next = 0;
    bool open = false;
  };
  std::map<std::pair<std::string, std::int64_t>, SlabCursor> slabs_;
  std::map<std::string, std::uint64_t> slab_count_;  // slabs made so far per type
  std::map<std::string, SlabGeometry> geometry_;
  // Objects freed by each CPU, per type (SLUB's per-CPU freelist: the last freed is the next
  // allocated).
  std::map<std::pair<std::string, CpuId>, std::vector<ObjId>> free_;
  // The lines of `o`'s slot, for a new object of a slab-packed layout.
  void place_in_slab(const ObjectLayout& layout, Object& o, std::optional<std::uint32_t> home,
                     std::optional<CpuId> cpu);
  void note_line_owner(LineId line, ObjId id);
  std::uint32_t line_in_object(const Object& o, const FieldSlot& slot) const {
    if (o.layout->aligned) return slot.line64;
    const std::uint32_t byte = o.start + slot.offset;
    return line_shift_ >= 0 ? byte >> line_shift_ : byte / line_size_;  // a shift where a divide would do
  }
  // field() past its cache: the layout's map, recorded for kernel_check, and the cache filled.
  FieldRef field_uncached(const Object& o, std::string_view name) const;
  std::unordered_map<LineId, LineLabel> other_labels_;  // lines that belong to no object
  struct LabelRange {
    LineId first;
    std::uint32_t count;
    LineLabel label;
  };
  std::vector<LabelRange> label_ranges_;  // in order of `first`
  std::vector<ObjId> percpu_;
  // The hash table's lines and its buckets' words, made on first use (hash_bucket is const: the
  // table exists whole in the kernel; the model materialises what is read).
  struct BucketRef {
    LineId line;
    std::uint32_t word;
  };
  // What the model keeps of one bucket, in one record so that a lookup's bucket read and chain
  // walk find all of it with one search (three maps before, 2026-12-04: git-diff's walks spent ~6%
  // of the run in them). The line and words are made when the bucket is first read, in that order
  // (line ids and word ids follow first use, as before); a bucket that only holds a chain has none.
  static constexpr std::uint32_t kNoWord = UINT32_MAX;
  struct Bucket {
    LineId line = 0;
    std::uint32_t word = kNoWord;          // first of the bucket's two words; kNoWord: not read yet
    DentryId head = kNoDentry;             // the newest dentry on the chain
    std::uint32_t version = 0;             // increases when a dentry joins or leaves the chain
    mutable std::uint64_t read_stamp = 0;  // as Dentry::read_stamp
  };
  void note_read(DentryId d) const {
    const Dentry& x = dentries_[d];
    if (x.read_stamp == read_stamp_) return;
    x.read_stamp = read_stamp_;
    reads_->push_back({d, ReadOf::kDentry, x.version});
  }
  void note_bucket_read(std::uint32_t bucket, const Bucket* b) const;
  std::vector<TreeRead>* reads_ = nullptr;
  std::uint64_t read_stamp_ = 0;
  Bucket& bucket_record(std::uint32_t bucket) const;
  BucketRef bucket_ref(Bucket& b, std::uint32_t bucket) const;
  void hash_link(DentryId d);
  void hash_unlink(DentryId d);
  std::uint32_t hash_buckets_ = 0;
  mutable std::unordered_map<std::uint32_t, Bucket> buckets_;          // buckets read or holding a chain
  mutable std::unordered_map<std::uint32_t, LineId> hash_lines_;       // by line index within the table
  mutable std::unordered_map<LineId, std::uint32_t> hash_line_index_;  // for labels
  // A direct-mapped cache of field lookups keyed by (layout, name pointer): the syscall code names
  // fields with string literals, whose addresses are stable, so most lookups skip the hash map.
  struct FieldCacheEntry {
    const ObjectLayout* layout = nullptr;
    const char* name = nullptr;
    std::size_t size = 0;
    FieldSlot slot;
    std::string_view stored;
  };
  static constexpr std::size_t kFieldCacheSize = 1024;  // a power of two: the index is a mask
  static std::size_t field_cache_index(const ObjectLayout* layout, std::string_view name) {
    return (reinterpret_cast<std::uintptr_t>(layout) >> 4 ^ reinterpret_cast<std::uintptr_t>(name.data())) &
           (kFieldCacheSize - 1);
  }
  std::set<std::pair<std::string, std::string>>* used_required_ = nullptr;
  std::set<std::pair<std::string, std::string>>* used_asked_ = nullptr;
  mutable std::vector<FieldCacheEntry> field_cache_ = std::vector<FieldCacheEntry>(kFieldCacheSize);
  struct StepCacheEntry {
    const char* name = nullptr;
    std::size_t size = 0;
    const std::pair<const std::string, double>* entry = nullptr;
  };
  static constexpr std::size_t kStepCacheSize = 256;
  static std::size_t step_cache_index(std::string_view step) {
    return (reinterpret_cast<std::uintptr_t>(step.data()) >> 2) & (kStepCacheSize - 1);
  }
  const std::pair<const std::string, double>* step_cost_uncached(std::string_view step) const;
  mutable std::vector<StepCacheEntry> step_cache_ = std::vector<StepCacheEntry>(kStepCacheSize);
  std::uint32_t line_size_;  // the machine's line size in bytes
  int line_shift_;           // log2 of line_size_ when it is a power of two, else -1
  std::uint64_t generation_ = 0;
  mutable std::uint32_t next_word_ = 0;
  ObjId globals_ = 0, mount_ = 0, sb_ = 0;
  DentryId root_ = 0;
  std::optional<ObjId> s_files_head_;
};

}  // namespace walksim::kernel
