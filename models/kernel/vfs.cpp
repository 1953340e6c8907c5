// Object allocation on cachelines (64-byte layout lines folded onto the machine's line size) and
// the dentry tree's bookkeeping.
#include "models/kernel/vfs.hpp"

#include <algorithm>
#include <bit>
#include <iterator>
#include <stdexcept>

#include "models/kernel/kernel_loader.hpp"
#include "models/kernel/large_system_hash.hpp"

namespace walksim::kernel {

namespace {
// A bucket is an hlist_head (2.6.35) or an hlist_bl_head (2.6.38: its bit 0 is the bucket's lock):
// one pointer.
constexpr std::uint32_t kBucketBytes = 8;

// `fields` (space-separated) in the layout's order of words, so that a label reads as the struct does.
std::string sorted_fields(const ObjectLayout& layout, const std::string& fields) {
  std::vector<std::pair<std::uint32_t, std::string>> by_word;
  std::size_t pos = 0;
  while (pos < fields.size()) {
    std::size_t end = fields.find(' ', pos);
    if (end == std::string::npos) end = fields.size();
    std::string f = fields.substr(pos, end - pos);
    by_word.emplace_back(layout.slots.find(f)->second.word, std::move(f));
    pos = end + 1;
  }
  std::sort(by_word.begin(), by_word.end());
  std::string out;
  for (const auto& [w, f] : by_word) out += (out.empty() ? "" : " ") + f;
  return out;
}
}  // namespace

Vfs::Vfs(coherence::MemorySystem& mem, const KernelSpec& spec)
    : mem_(mem),
      spec_(spec),
      line_size_(mem.machine().spec().line_size),
      line_shift_(std::has_single_bit(line_size_) ? std::countr_zero(line_size_) : -1) {
  const auto& m = mem.machine();
  // Boot-time objects on the node the kernel YAML names, which must exist on this machine.
  check_kernel_fits_machine(spec, m.nodes(), m.spec().name);
  const std::uint32_t boot = spec.boot_node;
  globals_ = new_object("globals", "globals", true, boot);
  sb_ = new_object("super_block", "super_block", true, boot);
  mount_ = new_object("vfsmount", "vfsmount", true, boot);
  for (CpuId c = 0; c < m.cpus(); ++c) {
    percpu_.push_back(
        new_object("percpu", "cpu " + std::to_string(c) + " per-CPU data", false, m.node_of(m.core_of(c))));
  }
  const std::uint64_t buckets =
      large_system_hash_buckets(m.spec().memory_bytes, m.spec().page_size, spec.dentry_hash_scale, kBucketBytes);
  if (buckets > (std::uint64_t{1} << 31)) {
    throw std::invalid_argument("a dentry hash table of " + std::to_string(buckets) +
                                " buckets is beyond the model's 2^31 (machine memory too large for the scale)");
  }
  hash_buckets_ = static_cast<std::uint32_t>(buckets);
  Dentry r;
  r.name = "/";
  r.dir = true;
  r.obj = new_object("dentry", "dentry '/'", true, boot);
  r.inode = new_object("inode", "inode of '/'", true, boot);
  dentries_.push_back(std::move(r));
  root_ = 0;
}

ObjId Vfs::new_object(const std::string& type, std::string name, bool shared, std::optional<std::uint32_t> home,
                      std::optional<CpuId> cpu) {
  const auto it = spec_.layouts.find(type);
  if (it == spec_.layouts.end()) {
    throw std::invalid_argument("kernel '" + spec_.name + "' has no layout for object type '" + type + "'");
  }
  const ObjectLayout& layout = it->second;
  if (cpu) {
    if (const auto f = free_.find({type, *cpu}); f != free_.end() && !f->second.empty()) {
      const ObjId reused = f->second.back();
      f->second.pop_back();
      Object& o = objects_[reused];
      o.free = false;
      o.name = std::move(name);
      o.shared = shared;
      return reused;
    }
  }
  Object o{&layout, 0, 0, next_word_, shared, std::move(name)};
  next_word_ += static_cast<std::uint32_t>(layout.slots.size());
  const auto id = static_cast<ObjId>(objects_.size());
  if (layout.slab_packed()) {
    place_in_slab(layout, o, home, cpu);
  } else {
    // A layout of lines: lines of its own; 64-byte layout lines fold onto longer machine lines.
    const std::size_t count =
        layout.aligned ? layout.lines.size() : (layout.lines.size() * 64 + line_size_ - 1) / line_size_;
    for (std::size_t i = 0; i < count; ++i) {
      const LineId line = mem_.add_line(home);
      if (i == 0) o.first_line = line;
      if (line != o.first_line + i) throw std::logic_error("an object's lines must be consecutive");
      ++o.line_count;
    }
  }
  for (std::uint32_t i = 0; i < o.line_count; ++i) note_line_owner(o.first_line + i, id);
  objects_.push_back(std::move(o));
  return id;
}

void Vfs::free_object(ObjId id, CpuId cpu) {
  Object& o = objects_[id];
  if (o.free || !o.layout->slab_packed()) return;
  o.free = true;
  free_[{o.layout->type, cpu}].push_back(id);
}

void Vfs::place_in_slab(const ObjectLayout& layout, Object& o, std::optional<std::uint32_t> home,
                        std::optional<CpuId> cpu) {
  const auto& m = machine();
  auto g = geometry_.find(layout.type);
  if (g == geometry_.end()) {
    g = geometry_.emplace(layout.type, slab_geometry(spec_.allocator, layout.stride, m.spec().page_size, m.cpus()))
            .first;
  }
  // Allocator keys: a CPU's own slab (0..cpus-1), or the builder's slab of a home node (below 0).
  const std::int64_t who =
      cpu ? static_cast<std::int64_t>(*cpu) : -1 - static_cast<std::int64_t>(home.value_or(m.nodes()));
  SlabCursor& c = slabs_[{layout.type, who}];
  if (!c.open || c.next == g->second.objects) {
    c.index = slab_count_[layout.type]++;
    c.next = 0;
    c.open = true;
    const std::uint32_t lines = (g->second.slab_bytes + line_size_ - 1) / line_size_;
    for (std::uint32_t i = 0; i < lines; ++i) {
      const LineId line = mem_.add_line(home);
      if (i == 0) c.first_line = line;
      if (line != c.first_line + i) throw std::logic_error("a slab's lines must be consecutive");
    }
  }
  const std::uint32_t at = slab_object_offset(g->second, c.index, c.next++, layout.stride);
  o.first_line = c.first_line + at / line_size_;
  o.start = at % line_size_;
  o.line_count = (o.start + layout.size + line_size_ - 1) / line_size_;
}

void Vfs::note_line_owner(LineId line, ObjId id) {
  if (line_object_.size() <= line)
    line_object_.resize(std::max<std::size_t>(line + 1, line_object_.size() * 2), kNoObject);
  if (line_object_[line] == kNoObject) {
    line_object_[line] = id;
  } else if (line_object_[line] != id) {
    line_second_object_[line] = id;
  }
}

bool Vfs::has_field(ObjId id, std::string_view field) const {
  if (used_asked_) used_asked_->emplace(objects_[id].layout->type, std::string(field));
  const auto& slots = objects_[id].layout->slots;
  return slots.find(field) != slots.end();
}

FieldRef Vfs::field_uncached(const Object& o, std::string_view name) const {
  if (used_required_) used_required_->emplace(o.layout->type, std::string(name));
  const auto it = o.layout->slots.find(name);
  if (it == o.layout->slots.end()) {
    throw std::invalid_argument("kernel '" + spec_.name + "': object type '" + o.layout->type + "' has no field '" +
                                std::string(name) + "' in its layout");
  }
  field_cache_[field_cache_index(o.layout, name)] = {o.layout, name.data(), name.size(), it->second,
                                                     std::string_view(it->first)};
  return {o.first_line + line_in_object(o, it->second), o.first_word + it->second.word, std::string_view(it->first)};
}

const std::pair<const std::string, double>* Vfs::step_cost_uncached(std::string_view step) const {
  const auto& c = spec_.costs.cycles;
  const auto it = c.find(step);  // heterogeneous: no string is made, even when the cache slot is taken
  if (it == c.end()) return nullptr;
  step_cache_[step_cache_index(step)] = {step.data(), step.size(), &*it};
  return &*it;
}

std::optional<DentryId> Vfs::child(DentryId parent, std::string_view name) const {
  if (reads_) {
    const std::uint32_t bucket = bucket_of(parent, name);
    const auto it = buckets_.find(bucket);
    note_bucket_read(bucket, it == buckets_.end() ? nullptr : &it->second);
  }
  const auto& ch = dentries_[parent].children;
  const auto it = ch.find(name);
  if (it == ch.end()) return std::nullopt;
  return it->second;
}

const std::map<std::string, DentryId, std::less<>>& Vfs::children(DentryId d) const {
  const Dentry& x = dentries_[d];
  if (reads_ && x.children_read_stamp != read_stamp_) {
    x.children_read_stamp = read_stamp_;
    reads_->push_back({d, ReadOf::kChildren, x.children_version});
  }
  return x.children;
}

std::uint32_t Vfs::bucket_of(DentryId parent, std::string_view name) const {
  // FNV-1a of (parent, name): a fixed, portable stand-in for the kernel's d_hash, as uniform.
  std::uint64_t h = 1469598103934665603ULL ^ parent;
  for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  return static_cast<std::uint32_t>(h % hash_buckets_);
}

Vfs::Bucket& Vfs::bucket_record(std::uint32_t bucket) const { return buckets_[bucket]; }

Vfs::BucketRef Vfs::bucket_ref(Bucket& b, std::uint32_t bucket) const {
  if (b.word != kNoWord) return {b.line, b.word};
  const auto& m = machine();
  const std::uint32_t per_line = m.spec().line_size / kBucketBytes;
  const std::uint32_t index = bucket / per_line;
  auto line = hash_lines_.find(index);
  if (line == hash_lines_.end()) {
    // hashdist: the table's pages come round-robin from the nodes, starting at the first.
    const std::uint64_t page = std::uint64_t{index} * m.spec().line_size / m.spec().page_size;
    const auto home = spec_.hash_interleaved ? static_cast<std::uint32_t>(page % m.nodes()) : spec_.boot_node;
    line = hash_lines_.emplace(index, mem_.add_line(home)).first;
    hash_line_index_.emplace(line->second, index);
  }
  // Each bucket has two words: the chain head, and (2.6.38+) the bit-spinlock in it, kept apart
  // so that a chain update never disturbs the lock's state in the model.
  b.line = line->second;
  b.word = next_word_;
  next_word_ += 2;
  return {b.line, b.word};
}

FieldRef Vfs::hash_bucket(std::uint32_t bucket) const {
  const BucketRef b = bucket_ref(bucket_record(bucket), bucket);
  return {b.line, b.word, "bucket"};
}

FieldRef Vfs::hash_bucket_lock(std::uint32_t bucket) const {
  const BucketRef b = bucket_ref(bucket_record(bucket), bucket);
  return {b.line, b.word + 1, "bucket lock"};
}

Vfs::ChainView Vfs::hash_chain(std::uint32_t bucket) const {
  Bucket& rec = bucket_record(bucket);
  if (reads_) note_bucket_read(bucket, &rec);
  const BucketRef b = bucket_ref(rec, bucket);
  return {{b.line, b.word, "bucket"}, rec.head};
}

DentryId Vfs::chain_head(std::uint32_t bucket) const {
  const auto it = buckets_.find(bucket);
  if (reads_) note_bucket_read(bucket, it == buckets_.end() ? nullptr : &it->second);
  return it == buckets_.end() ? kNoDentry : it->second.head;
}

// A bucket with no record yet reads as version 0: linking a dentry into it makes the record and
// raises its version.
void Vfs::note_bucket_read(std::uint32_t bucket, const Bucket* b) const {
  if (!b) {
    reads_->push_back({bucket, ReadOf::kBucket, 0});
    return;
  }
  if (b->read_stamp == read_stamp_) return;
  b->read_stamp = read_stamp_;
  reads_->push_back({bucket, ReadOf::kBucket, b->version});
}

bool Vfs::reads_unchanged(const std::vector<TreeRead>& deps) const {
  for (const TreeRead& r : deps) {
    switch (r.what) {
      case ReadOf::kDentry:
        if (dentries_[r.id].version != r.version) return false;
        break;
      case ReadOf::kChildren:
        if (dentries_[r.id].children_version != r.version) return false;
        break;
      case ReadOf::kBucket: {
        const auto it = buckets_.find(r.id);
        if ((it == buckets_.end() ? 0 : it->second.version) != r.version) return false;
        break;
      }
      case ReadOf::kFdTable:
        if (processes_[r.id].fd_generation != r.version) return false;
        break;
    }
  }
  return true;
}

void Vfs::hash_link(DentryId d) {
  Dentry& x = dentries_[d];
  Bucket& b = bucket_record(x.bucket);
  x.hash_next = b.head;
  b.head = d;
  x.hashed = true;
  ++b.version;
}

void Vfs::hash_unlink(DentryId d) {
  Dentry& x = dentries_[d];
  if (!x.hashed) return;
  x.hashed = false;
  Bucket& b = bucket_record(x.bucket);
  if (b.head == d) {
    b.head = x.hash_next;
  } else {
    DentryId prev = b.head;
    while (dentries_[prev].hash_next != d) prev = dentries_[prev].hash_next;
    dentries_[prev].hash_next = x.hash_next;
    ++dentries_[prev].version;
  }
  x.hash_next = kNoDentry;
  ++b.version;
}

const std::vector<std::pair<std::string, Filesystem>>& filesystem_names() {
  static const std::vector<std::pair<std::string, Filesystem>> names{{"disk", Filesystem::kDisk},
                                                                     {"ext3", Filesystem::kExt3},
                                                                     {"ext4", Filesystem::kExt4},
                                                                     {"ramfs", Filesystem::kRamfs}};
  return names;
}

std::string filesystem_name(Filesystem fs) {
  for (const auto& [name, f] : filesystem_names()) {
    if (f == fs) return name;
  }
  throw std::logic_error("a filesystem without a name");
}

std::string inode_container_problem(const KernelSpec& k, Filesystem fs) {
  if (fs != Filesystem::kExt3 && fs != Filesystem::kExt4) return {};
  const std::string name = filesystem_name(fs);
  const auto it = k.filesystems.find(name);
  if (it == k.filesystems.end()) {
    return "kernel '" + k.name + "' has no " + name + " inode container (its YAML's `filesystems:` gives none)";
  }
  if (!it->second.unavailable.empty()) {
    return "kernel '" + k.name + "' has no " + name + " inode container: " + it->second.unavailable;
  }
  return {};
}

const std::string& Vfs::inode_type(Filesystem fs) const {
  static const std::string plain_inode = "inode";
  if (fs != Filesystem::kExt3 && fs != Filesystem::kExt4) return plain_inode;
  if (const std::string problem = inode_container_problem(spec_, fs); !problem.empty()) {
    throw std::invalid_argument(problem);
  }
  return spec_.filesystems.at(filesystem_name(fs)).layout;
}

DentryId Vfs::add_dentry(DentryId parent, const std::string& name, bool dir, bool shared,
                         std::optional<std::uint32_t> home, std::optional<CpuId> cpu, Filesystem fs) {
  if (child(parent, name)) throw std::invalid_argument("dentry '" + name + "' exists");
  Dentry d;
  d.name = name;
  d.parent = parent;
  d.dir = dir;
  d.fs = fs;
  d.obj = new_object("dentry", "dentry '" + name + "'", shared, home, cpu);
  d.inode = new_object(inode_type(fs), "inode of '" + name + "'", shared, home, cpu);
  d.bucket = bucket_of(parent, name);
  d.home = home ? static_cast<std::int32_t>(*home) : -1;
  dentries_.push_back(std::move(d));
  const auto id = static_cast<DentryId>(dentries_.size() - 1);
  dentries_[parent].children.emplace(name, id);
  ++dentries_[parent].children_version;
  hash_link(id);
  ++generation_;
  return id;
}

ObjId Vfs::page_of(Dentry& d) {
  if (d.page == UINT32_MAX) {
    const auto home = d.home < 0 ? std::nullopt : std::optional<std::uint32_t>(static_cast<std::uint32_t>(d.home));
    d.page = new_object("page", "page of '" + d.name + "'", objects_[d.inode].shared, home);
  }
  return d.page;
}

void Vfs::remove_dentry(DentryId d) {
  Dentry& x = dentries_[d];
  if (x.parent != kNoDentry) {
    dentries_[x.parent].children.erase(x.name);
    ++dentries_[x.parent].children_version;
  }
  x.negative = true;
  ++x.version;
  hash_unlink(d);
  ++generation_;
}

void Vfs::move_dentry(DentryId d, DentryId new_parent, const std::string& new_name) {
  Dentry& x = dentries_[d];
  if (x.parent != kNoDentry) {
    dentries_[x.parent].children.erase(x.name);
    ++dentries_[x.parent].children_version;
  }
  if (auto old = child(new_parent, new_name)) remove_dentry(*old);
  hash_unlink(d);
  x.parent = new_parent;
  x.name = new_name;
  x.bucket = bucket_of(new_parent, new_name);
  dentries_[new_parent].children.emplace(new_name, d);
  ++dentries_[new_parent].children_version;
  ++x.version;
  hash_link(d);
  ++generation_;
}

DentryId Vfs::mkpath(const std::string& path, bool shared, std::optional<std::uint32_t> home) {
  DentryId cur = root_;
  std::size_t pos = 0;
  while (pos < path.size()) {
    std::size_t slash = path.find('/', pos);
    if (slash == std::string::npos) slash = path.size();
    const std::string part = path.substr(pos, slash - pos);
    pos = slash + 1;
    if (part.empty() || part == ".") continue;
    const auto existing = child(cur, part);
    cur = existing ? *existing : add_dentry(cur, part, true, shared, home);
  }
  return cur;
}

Process& Vfs::new_process(CpuId cpu, DentryId cwd, std::optional<ObjId> shared_fs) {
  Process p;
  p.pid = static_cast<std::uint32_t>(processes_.size());
  p.cpu = cpu;
  const auto node = machine().node_of(machine().core_of(cpu));
  const std::string tag = "(pid " + std::to_string(p.pid) + ")";
  p.fs = shared_fs ? *shared_fs : new_object("fs_struct", "fs_struct " + tag, false, node);
  p.files = new_object("files_struct", "files_struct " + tag, false, node);
  p.cred = new_object("cred", "cred " + tag, false, node);
  p.cwd = cwd;
  p.root = root_;
  processes_.push_back(p);
  return processes_.back();
}

LineLabel Vfs::label(LineId line) const {
  if (line < line_object_.size() && line_object_[line] != kNoObject) {
    // The fields of the object (and of a slab neighbour sharing the line) that fall on it.
    auto fields_of = [&](const Object& o) {
      std::string fields;
      for (const auto& [name, slot] : o.layout->slots) {
        if (o.first_line + line_in_object(o, slot) == line) fields += (fields.empty() ? "" : " ") + name;
      }
      return fields;
    };
    const Object& o = objects_[line_object_[line]];
    std::string fields = sorted_fields(*o.layout, fields_of(o));
    std::string object = o.name;
    if (const auto second = line_second_object_.find(line); second != line_second_object_.end()) {
      const Object& n = objects_[second->second];
      object += " + " + n.name;
      fields += " | " + sorted_fields(*n.layout, fields_of(n));
    }
    return {object, line - o.first_line, fields, o.shared};
  }
  const auto r = std::upper_bound(label_ranges_.begin(), label_ranges_.end(), line,
                                  [](LineId l, const LabelRange& x) { return l < x.first; });
  if (r != label_ranges_.begin() && line < std::prev(r)->first + std::prev(r)->count) {
    LineLabel l = std::prev(r)->label;
    l.index = line - std::prev(r)->first;
    return l;
  }
  if (const auto h = hash_line_index_.find(line); h != hash_line_index_.end()) {
    return {"dentry_hashtable", h->second, "bucket heads", true};
  }
  const auto it = other_labels_.find(line);
  return it != other_labels_.end() ? it->second : LineLabel{};
}

void Vfs::set_label(LineId line, LineLabel label) { other_labels_[line] = std::move(label); }

void Vfs::label_range(LineId first, std::uint32_t count, LineLabel label) {
  if (!label_ranges_.empty() && first < label_ranges_.back().first + label_ranges_.back().count) {
    throw std::logic_error("label ranges must be made in line order, without overlap");
  }
  label_ranges_.push_back({first, count, std::move(label)});
}

std::string Vfs::describe(DentryId d) const { return "dentry '" + dentries_[d].name + "'"; }

}  // namespace walksim::kernel
