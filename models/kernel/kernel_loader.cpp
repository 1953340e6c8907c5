// The kernel YAML schema (documented in docs/kernels.md); every check on a kernel file lives here.
#include "models/kernel/kernel_loader.hpp"

#include <algorithm>
#include <new>
#include <set>

#include "models/config/named_config.hpp"
#include "models/kernel/kernel_check.hpp"
#include "models/kernel/object_fields.hpp"
#include "models/sync/sync_registry.hpp"

namespace walksim::kernel {
namespace {

using config::Node;

template <typename E>
E choice(const Node& parent, const std::string& key, const std::vector<std::pair<std::string, E>>& table) {
  return parent.child(key).as_enum(table);
}

void read_locking(const Node& root, KernelSpec& k) {
  const Node l = root.child("locking");
  k.fs_lock = choice<FsLock>(
      l, "fs_lock",
      {{"rwlock", FsLock::kRwlock}, {"spinlock", FsLock::kSpinlock}, {"spinlock+seqcount", FsLock::kSpinlockSeqcount}});
  k.mnt_count = choice<MntCount>(l, "mnt_count", {{"atomic", MntCount::kAtomic}, {"percpu", MntCount::kPercpu}});
  k.mnt_expiry_store_always = l.child("mnt_expiry_store").as_choice({"conditional", "always"}) == 1;
  k.d_count = choice<DCount>(
      l, "d_count",
      {{"atomic", DCount::kAtomic}, {"under-d_lock", DCount::kUnderDLock}, {"lockref", DCount::kLockref}});
  k.dcache_lock = l.child("dcache_lock").as_choice({"none", "global"}) == 1;
  k.vfsmount_lock = choice<VfsmountLock>(
      l, "vfsmount_lock",
      {{"spinlock", VfsmountLock::kSpinlock}, {"brlock", VfsmountLock::kBrlock}, {"seqlock", VfsmountLock::kSeqlock}});
  k.files_list = choice<FilesList>(
      l, "files_list",
      {{"global-lock", FilesList::kGlobalLock}, {"per-cpu", FilesList::kPerCpu}, {"none", FilesList::kNone}});
  k.inode_lock = choice<InodeLock>(
      l, "inode_lock",
      {{"global", InodeLock::kGlobal}, {"split", InodeLock::kSplit}, {"split-percpu", InodeLock::kSplitPercpu}});
  k.want_write = choice<WantWrite>(l, "mnt_want_write",
                                   {{"none", WantWrite::kNone},
                                    {"mount-spinlock", WantWrite::kMountSpinlock},
                                    {"percpu-counter", WantWrite::kPercpuCounter}});
  const std::vector<std::string> spinlocks = sync::sync_kind_names(sync::SyncRole::kSpinlock, /*kernel_only=*/true);
  k.spinlock = spinlocks[l.child("spinlock").as_choice(spinlocks)];
  const std::vector<std::string> mutexes = sync::sync_kind_names(sync::SyncRole::kSleeping, /*kernel_only=*/true);
  k.mutex = mutexes[l.child("mutex").as_choice(mutexes)];
  k.inode_free = choice<InodeFree>(l, "inode_free", {{"immediate", InodeFree::kImmediate}, {"rcu", InodeFree::kRcu}});
  k.rename_seqlock_in_lookup = l.child("rename_seqlock_in_lookup").as_bool();
  k.open_pins_start_point = l.child("open_pins_start_point").as_bool();
  k.file_cred_refs = l.child("file_cred_refs").as_bool();
  if (k.d_count == DCount::kAtomic && !k.dcache_lock) {
    l.child("d_count").fail(
        "an atomic d_count without the global dcache_lock is not an era the model knows "
        "(2.6.38 moved d_count under d_lock when it removed dcache_lock)");
  }
}

// `sizes: {field: bytes}`, optional: what `walksim layout move` needs to tell a free place from a
// taken one. With offsets, no two sized fields may share a byte and none may run past the struct;
// in a layout of lines, the sized fields of one line may not hold more than its 64 bytes.
void read_field_sizes(const Node& sizes, ObjectLayout& layout) {
  if (!sizes.is_map()) sizes.fail("expected a mapping of field to its size in bytes");
  for (const std::string& name : sizes.keys()) {
    const Node n = sizes.child(name);
    const bool placed = layout.slab_packed() ? layout.offsets.count(name) > 0 : layout.line_of.count(name) > 0;
    if (!placed) n.fail("'" + name + "' has a size but no place in the layout of " + layout.type);
    const std::uint32_t bytes = n.as_uint32();
    if (bytes == 0 || bytes > 64 * kMaxLayoutLines)
      n.fail("a field's size must be 1.." + std::to_string(64 * kMaxLayoutLines) + " bytes");
    if (layout.slab_packed() && layout.offsets.at(name) + std::uint64_t{bytes} > layout.size) {
      n.fail("'" + name + "' at " + std::to_string(layout.offsets.at(name)) + " with " + std::to_string(bytes) +
             " bytes runs past the struct's " + std::to_string(layout.size));
    }
    layout.sizes[name] = bytes;
  }
  if (layout.slab_packed()) {
    std::vector<std::pair<std::uint32_t, std::string>> by_offset;
    for (const auto& [f, b] : layout.sizes) by_offset.emplace_back(layout.offsets.at(f), f);
    std::sort(by_offset.begin(), by_offset.end());
    for (std::size_t i = 1; i < by_offset.size(); ++i) {
      const auto& [a_off, a] = by_offset[i - 1];
      const auto& [b_off, b] = by_offset[i];
      if (a_off + layout.sizes.at(a) > b_off) {
        sizes.fail("'" + a + "' (" + std::to_string(a_off) + "+" + std::to_string(layout.sizes.at(a)) + ") and '" + b +
                   "' (at " + std::to_string(b_off) + ") of " + layout.type + " overlap");
      }
    }
    return;
  }
  for (std::size_t i = 0; i < layout.lines.size(); ++i) {
    std::uint32_t used = 0;
    for (const auto& f : layout.lines[i]) used += layout.sizes.count(f) ? layout.sizes.at(f) : 0;
    if (used > 64) {
      sizes.fail("line " + std::to_string(i) + " of " + layout.type + " holds " + std::to_string(used) +
                 " bytes of sized fields, more than its 64");
    }
  }
}

// {size, stride, source, offsets: {field: byte offset}}: the struct as the compiler lays it out, its
// objects packed in the slab cache's stride.
ObjectLayout read_offset_layout(const Node& entry, const std::string& type, const std::set<std::string>& known) {
  ObjectLayout layout;
  layout.type = type;
  const Node size = entry.child("size");
  layout.size = size.as_uint32();
  if (layout.size == 0 || layout.size > 64 * kMaxLayoutLines) {
    size.fail("size must be 1.." + std::to_string(64 * kMaxLayoutLines) + " bytes (sizeof the struct)");
  }
  const Node stride = entry.child("stride");
  layout.stride = stride.as_uint32();
  if (layout.stride < layout.size || layout.stride % 8 != 0 || layout.stride > 64 * kMaxLayoutLines) {
    stride.fail("stride must be a multiple of 8 bytes, at least the size (" + std::to_string(layout.size) +
                ") and at most " + std::to_string(64 * kMaxLayoutLines) + ": the slab cache's object size");
  }
  layout.source = entry.child("source").as_string();
  if (layout.source.empty()) entry.child("source").fail("say where the offsets come from");
  const Node offsets = entry.child("offsets");
  if (!offsets.is_map() || offsets.keys().empty()) offsets.fail("expected a mapping of field to its byte offset");
  const std::vector<std::string> valid(known.begin(), known.end());
  for (const std::string& name : offsets.keys()) {
    const Node off = offsets.child(name);
    if (!known.count(name)) {
      off.fail("unknown field '" + name + "' for " + type + config::did_you_mean(name, valid) +
               "; known fields: " + config::quoted_list(valid));
    }
    const std::uint32_t at = off.as_uint32();
    if (at >= layout.size) {
      off.fail("offset " + std::to_string(at) + " of '" + name + "' is beyond the struct's " +
               std::to_string(layout.size) + " bytes");
    }
    layout.offsets[name] = at;
  }
  if (entry.has("sizes")) read_field_sizes(entry.child("sizes"), layout);
  layout.index();
  return layout;
}

void read_layouts(const Node& root, KernelSpec& k) {
  const Node layouts = root.child("layouts");
  if (!layouts.is_map()) layouts.fail("expected a mapping of object type to its lines");
  const auto& known = known_object_fields();
  std::vector<std::string> types;
  types.reserve(known.size());
  for (const auto& [t, f] : known) types.push_back(t);
  for (const std::string& type : layouts.keys()) {
    const Node entry = layouts.child_replacing(type);
    const auto kt = known.find(type);
    if (kt == known.end()) {
      entry.fail("unknown object type '" + type + "'" + config::did_you_mean(type, types) +
                 "; known types: " + config::quoted_list(types));
    }
    if (entry.is_map() && entry.has("offsets")) {
      k.layouts[type] = read_offset_layout(entry, type, kt->second);
      continue;
    }
    bool aligned = false;
    Node lines = entry;
    if (entry.is_map()) {  // {aligned: true, lines: [...], sizes: {...}}
      aligned = entry.has("aligned") && entry.child("aligned").as_bool();
      lines = entry.child("lines");
    }
    const std::vector<std::string> valid(kt->second.begin(), kt->second.end());
    if (!lines.is_sequence() || lines.size() == 0) lines.fail("expected a list of lines, each a list of fields");
    if (lines.size() > kMaxLayoutLines) {
      lines.fail("the layout of " + type + " has " + std::to_string(lines.size()) + " lines, above the limit of " +
                 std::to_string(kMaxLayoutLines) +
                 " lines per object (4 KiB of 64-byte lines): every object of the type is given that many simulated "
                 "lines");
    }
    ObjectLayout layout;
    layout.type = type;
    layout.aligned = aligned;
    std::map<std::string, Node> first_seen;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const Node line = lines.at(i);
      if (!line.is_sequence()) line.fail("expected a list of the fields on line " + std::to_string(i));
      std::vector<std::string> fields;
      for (std::size_t f = 0; f < line.size(); ++f) {
        const Node field = line.at(f);
        const std::string name = field.as_string();
        if (name.empty()) field.fail("empty field name");
        if (!kt->second.count(name)) {
          field.fail("unknown field '" + name + "' for " + type + config::did_you_mean(name, valid) +
                     "; known fields: " + config::quoted_list(valid));
        }
        if (const auto it = first_seen.find(name); it != first_seen.end()) {
          field.fail("field '" + name + "' of " + type + " is placed on two lines: line " +
                     std::to_string(layout.line_of.at(name)) + " (at " + std::to_string(it->second.mark().line) + ":" +
                     std::to_string(it->second.mark().column) + ") and line " + std::to_string(i));
        }
        first_seen.emplace(name, field);
        layout.line_of[name] = static_cast<std::uint32_t>(i);
        fields.push_back(name);
      }
      layout.lines.push_back(std::move(fields));
    }
    if (entry.is_map() && entry.has("sizes")) read_field_sizes(entry.child("sizes"), layout);
    layout.index();
    k.layouts[type] = std::move(layout);
  }
}

// `scheduler:`: how the variant's try_to_wake_up and schedule() touch the runqueues
// (docs/reference/wakeup-path.md §2-§3); the context switch's private work is cpu_costs.context_switch.
void read_scheduler(const Node& root, KernelSpec& k) {
  const Node s = root.child("scheduler");
  config::SourceMap sources;
  const Node passes = s.sourced("ttwu_rq_lock_passes", sources);
  k.ttwu_rq_lock_passes = passes.as_uint32();
  if (k.ttwu_rq_lock_passes < 1 || k.ttwu_rq_lock_passes > 2) {
    passes.fail("ttwu_rq_lock_passes is 1 (2.6.20's try_to_wake_up) or 2 (2.6.35's: task_rq_lock, then again)");
  }
}

void read_costs(const Node& root, KernelSpec& k) {
  const Node costs = root.child("cpu_costs");
  if (!costs.is_map()) costs.fail("expected a mapping of step name to {cycles, source} or {cycles, calibrated}");
  for (const std::string& step : costs.keys()) {
    const Node entry = costs.child(step);
    if (!entry.is_map()) entry.fail("expected {cycles: N, source: \"...\"} or {cycles: N, calibrated: \"...\"}");
    const Node cycles = entry.child("cycles");
    const double n = cycles.as_double();
    if (n < 0) cycles.fail("cycles must not be negative");
    // Scaled and converted to picoseconds later; a huge count used to vanish in that conversion.
    if (n > kMaxStepCycles) {
      cycles.fail("cycles " + cycles.as_string() +
                  " is above the limit of 1e9 (a third of a second at 3 GHz; path-walk steps take tens to "
                  "hundreds of cycles)");
    }
    const auto source = entry.optional("source");
    const auto calibrated = entry.optional("calibrated");
    // A cost and its origin are one unit under `extends:`: a file that gives the number gives its origin.
    if (entry.own_layer_has("cycles") != (entry.own_layer_has("source") || entry.own_layer_has("calibrated"))) {
      entry.fail("a cost and its origin go together: this file gives " +
                 std::string(entry.own_layer_has("cycles") ? "'cycles' without 'source' or 'calibrated'"
                                                           : "an origin without 'cycles'") +
                 " (give exactly one of 'source' or 'calibrated' with the number)");
    }
    if (source.has_value() == calibrated.has_value()) {
      entry.fail(
          "give exactly one of 'source' (where the number comes from) or 'calibrated' (fitted by an experiment)");
    }
    const std::string text = source ? source->as_string() : calibrated->as_string();
    if (text.empty()) entry.fail("the source or calibration note is empty");
    k.costs.cycles[step] = n;
    k.costs.origin[step] = source ? text : "calibrated: " + text;
  }
}

// `filesystems: {ext3: {...}, ext4: {...}}`, optional: a disk filesystem's inode container, the
// VFS inode embedded at `vfs_inode_at` in an object of `size` bytes packed at `stride`, with the
// filesystem's own fields that its getattr reads. The container is laid out from the kernel's
// inode layout when that is the `inode_size`-byte struct its offsets were computed for.
void read_filesystems(const Node& root, KernelSpec& k) {
  const auto fs = root.optional("filesystems");
  if (!fs) return;
  if (!fs->is_map()) fs->fail("expected a mapping of filesystem (ext3, ext4) to its inode container");
  using Getattr = KernelSpec::FsInodeCache::Getattr;
  for (const std::string& name : fs->keys()) {
    const Node e = fs->child_replacing(name);
    if (name != "ext3" && name != "ext4") e.fail("unknown filesystem '" + name + "'; known: 'ext3', 'ext4'");
    KernelSpec::FsInodeCache c;
    c.layout = name + "_inode_info";
    c.inode_size = e.child("inode_size").as_uint32();
    c.vfs_inode_at = e.child("vfs_inode_at").as_uint32();
    c.getattr = e.child("getattr").as_enum<Getattr>(
        {{"generic", Getattr::kGeneric}, {"ext4", Getattr::kExt4}, {"ext4-locked", Getattr::kExt4Locked}});
    std::map<std::string, std::uint32_t> own;
    if (const auto f = e.optional("fields")) {
      if (!f->is_map()) f->fail("expected a mapping of the filesystem's own field to its byte offset");
      for (const std::string& field : f->keys()) {
        if (field != "i_reserved_data_blocks" && field != "i_block_reservation_lock") {
          f->child(field).fail(
              "unknown field '" + field +
              "'; known: 'i_reserved_data_blocks', 'i_block_reservation_lock' (what ext4's getattr reads)");
        }
        own[field] = f->child(field).as_uint32();
      }
    }
    if (c.getattr != Getattr::kGeneric && !own.count("i_reserved_data_blocks")) {
      e.child("getattr").fail("ext4's getattr reads i_reserved_data_blocks: give its offset under 'fields'");
    }
    if (c.getattr == Getattr::kExt4Locked && !own.count("i_block_reservation_lock")) {
      e.child("getattr").fail("ext4-locked takes i_block_reservation_lock: give its offset under 'fields'");
    }
    // The container's size, stride and source are read as an offset layout's are, with the VFS
    // inode's fields and the filesystem's own as its offsets.
    ObjectLayout layout;
    layout.type = c.layout;
    layout.derived_from = "inode";
    layout.size = e.child("size").as_uint32();
    layout.stride = e.child("stride").as_uint32();
    layout.source = e.child("source").as_string();
    if (layout.source.empty()) e.child("source").fail("say where the container's size and offsets come from");
    if (c.vfs_inode_at + c.inode_size > layout.size) {
      e.child("size").fail("the VFS inode (" + std::to_string(c.inode_size) + " bytes at " +
                           std::to_string(c.vfs_inode_at) + ") does not fit in " + std::to_string(layout.size) +
                           " bytes");
    }
    if (layout.stride < layout.size || layout.stride % 8 != 0) {
      e.child("stride").fail("stride must be a multiple of 8 bytes and at least the size (" +
                             std::to_string(layout.size) + ")");
    }
    for (const auto& [field, at] : own) {
      if (at >= layout.size)
        e.child("fields").child(field).fail("beyond the container's " + std::to_string(layout.size) + " bytes");
    }
    const auto inode = k.layouts.find("inode");
    if (inode == k.layouts.end() || !inode->second.slab_packed()) {
      c.unavailable = "its struct inode is not laid out by byte offsets";
    } else if (inode->second.size != c.inode_size) {
      c.unavailable = "its " + name + " inode container was computed for a " + std::to_string(c.inode_size) +
                      "-byte struct inode and this kernel's is " + std::to_string(inode->second.size) + " bytes";
    } else {
      for (const auto& [field, at] : inode->second.offsets) layout.offsets[field] = c.vfs_inode_at + at;
      for (const auto& [field, at] : own) layout.offsets[field] = at;
      layout.index();
      k.layouts[c.layout] = std::move(layout);
    }
    k.filesystems[name] = std::move(c);
  }
}

KernelSpec read_kernel(const Node& root, const std::string& file) {
  KernelSpec k;
  k.file = file;
  k.name = root.child("name").as_string();
  k.description = root.child("description").as_string();
  if (const auto refs = root.optional("references")) {
    for (const Node& r : refs->elements()) r.as_string();
  }
  k.walk = choice<WalkKind>(
      root, "walk",
      {{"ref-walk", WalkKind::kRefWalk}, {"rcu-walk", WalkKind::kRcuWalk}, {"store-free", WalkKind::kStoreFree}});
  read_locking(root, k);
  const Node placement = root.child("placement");
  const Node boot = placement.child("boot_objects_node");
  k.boot_node = boot.as_uint32();
  k.boot_node_mark = boot.mark();
  k.hash_interleaved = placement.child("hash_table").as_choice({"boot-node", "interleaved"}) == 1;
  k.allocator =
      placement.child("slab_allocator").as_choice({"slub", "slab"}) == 0 ? SlabAllocator::kSlub : SlabAllocator::kSlab;
  config::SourceMap sources;
  const Node scale = placement.sourced("dentry_hash_scale", sources);
  k.dentry_hash_scale = scale.as_uint32();
  if (k.dentry_hash_scale < 8 || k.dentry_hash_scale > 30) scale.fail("dentry_hash_scale must be 8..30");
  read_layouts(root, k);
  read_filesystems(root, k);
  read_scheduler(root, k);
  read_costs(root, k);
  if (!k.costs.cycles.count("context_switch")) {
    root.child("cpu_costs").fail("no cpu_costs entry 'context_switch' (a sleeping task's switch each way)");
  }
  if (!k.costs.cycles.count("futex")) {
    root.child("cpu_costs")
        .fail("no cpu_costs entry 'futex' (futex_wait's or futex_wake's own work: lock-loop's pthread-mutex)");
  }
  root.finish();
  for (const auto& [type, fields] : known_object_fields()) {
    if (!k.layouts.count(type)) root.child("layouts").fail("no layout for object type '" + type + "'");
  }
  // The field check expands every call on a one-node machine built in code; the boot node is
  // checked against the real machine later (check_kernel_fits_machine), so it is not tried here.
  KernelSpec on_one_node = k;
  on_one_node.boot_node = 0;
  if (const auto problem = check_kernel_fields(on_one_node)) {
    if (!problem->missing_cost.empty()) {
      root.child("cpu_costs")
          .fail("no cpu_costs entry '" + problem->missing_cost + "' (a step the kernel's calls charge)");
    }
    root.child("layouts").fail(problem->message);
  }
  return k;
}

}  // namespace

KernelSpec load_kernel(const std::string& name_or_path, const std::vector<std::string>& search_dirs,
                       const std::vector<config::Override>& overrides) {
  const config::NamedConfig named = config::load_named("kernel", name_or_path, search_dirs, overrides);
  try {
    return read_kernel(named.root, named.path);
  } catch (const std::bad_alloc&) {
    throw config::ConfigError(config::SourceMark{named.path, 0, 0}, "",
                              "out of memory while reading the kernel (its layouts or costs)");
  }
}

void check_kernel_fits_machine(const KernelSpec& kernel, std::uint32_t nodes, std::string_view machine) {
  if (kernel.boot_node < nodes) return;
  const std::string which = machine.empty() ? "the machine" : "machine '" + std::string(machine) + "'";
  throw config::ConfigError(kernel.boot_node_mark, "placement.boot_objects_node",
                            "node " + std::to_string(kernel.boot_node) + " does not exist on " + which +
                                ", which has " + std::to_string(nodes) + " NUMA node" + (nodes == 1 ? "" : "s") +
                                " (valid values: 0.." + std::to_string(nodes - 1) + ")");
}

std::vector<std::string> list_kernels(const std::vector<std::string>& search_dirs) {
  return config::list_named(search_dirs);
}

}  // namespace walksim::kernel
