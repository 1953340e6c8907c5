// Object allocation on cachelines (64-byte layout lines folded onto the machine's line size) and
// the dentry tree's bookkeeping.
#include "models/kernel/vfs.hpp"

#include <stdexcept>

#include "models/kernel/kernel_loader.hpp"

namespace walksim::kernel {

namespace {
constexpr std::uint32_t kHashBuckets = 1u << 14;  // 8-byte bucket heads, 8 per 64-byte line
constexpr std::uint32_t kBucketsPerLine = 8;
}  // namespace

Vfs::Vfs(coherence::MemorySystem& mem, const KernelSpec& spec)
    : mem_(mem), spec_(spec), fold_(std::max<std::uint32_t>(1, mem.machine().spec().line_size / 64)) {
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
  // Each bucket has two words: the chain head, and (2.6.38+) the bit-spinlock in it, kept apart
  // so that a chain update never disturbs the lock's state in the model.
  hash_word_base_ = next_word_;
  next_word_ += 2 * kHashBuckets;
  for (std::uint32_t i = 0; i < kHashBuckets / kBucketsPerLine; ++i) {
    const LineId l = mem_.add_line(spec.hash_interleaved ? i % m.nodes() : boot);
    other_labels_[l] = {"dentry_hashtable", i, "bucket heads", true};
    hash_lines_.push_back(l);
  }
  Dentry r;
  r.name = "/";
  r.dir = true;
  r.obj = new_object("dentry", "dentry '/'", true, boot);
  r.inode = new_object("inode", "inode of '/'", true, boot);
  dentries_.push_back(std::move(r));
  root_ = 0;
}

ObjId Vfs::new_object(const std::string& type, std::string name, bool shared, std::optional<std::uint32_t> home) {
  const auto it = spec_.layouts.find(type);
  if (it == spec_.layouts.end()) {
    throw std::invalid_argument("kernel '" + spec_.name + "' has no layout for object type '" + type + "'");
  }
  const ObjectLayout& layout = it->second;
  Object o{&layout, 0, 0, next_word_, shared, std::move(name)};
  std::size_t fields = 0;
  for (const auto& l : layout.lines) fields += l.size();
  next_word_ += static_cast<std::uint32_t>(fields);
  // 64-byte layout lines fold onto longer machine lines.
  const std::uint32_t fold = layout.aligned ? 1 : fold_;
  const std::size_t count = (layout.lines.size() + fold - 1) / fold;
  for (std::size_t i = 0; i < count; ++i) {
    const LineId line = mem_.add_line(home);
    if (line_object_.size() <= line)
      line_object_.resize(std::max<std::size_t>(line + 1, line_object_.size() * 2), kNoObject);
    line_object_[line] = static_cast<ObjId>(objects_.size());
    if (i == 0) o.first_line = line;
    if (line != o.first_line + i) throw std::logic_error("an object's lines must be consecutive");
    ++o.line_count;
  }
  objects_.push_back(std::move(o));
  return static_cast<ObjId>(objects_.size() - 1);
}

bool Vfs::has_field(ObjId id, std::string_view field) const {
  const auto& slots = objects_[id].layout->slots;
  return slots.find(field) != slots.end();
}

FieldRef Vfs::field(ObjId id, std::string_view name) const {
  const Object& o = objects_[id];
  const std::size_t h =
      (reinterpret_cast<std::uintptr_t>(o.layout) >> 4 ^ reinterpret_cast<std::uintptr_t>(name.data())) &
      (kFieldCacheSize - 1);
  FieldCacheEntry& ce = field_cache_[h];
  if (ce.layout == o.layout && ce.name == name.data() && ce.size == name.size()) {
    return {o.first_line + ce.line, o.first_word + ce.slot.word, ce.stored};
  }
  const auto it = o.layout->slots.find(name);
  if (it == o.layout->slots.end()) {
    throw std::invalid_argument("kernel '" + spec_.name + "': object type '" + o.layout->type + "' has no field '" +
                                std::string(name) + "' in its layout");
  }
  const std::uint32_t fold = o.layout->aligned ? 1 : fold_;
  const std::uint32_t line = it->second.line64 / fold;
  ce = {o.layout, name.data(), name.size(), it->second, line, std::string_view(it->first)};
  return {o.first_line + line, o.first_word + it->second.word, std::string_view(it->first)};
}

const std::pair<const std::string, double>* Vfs::step_cost(std::string_view step) const {
  StepCacheEntry& ce = step_cache_[(reinterpret_cast<std::uintptr_t>(step.data()) >> 2) & (kStepCacheSize - 1)];
  if (ce.name == step.data() && ce.size == step.size()) return ce.entry;
  const auto& c = spec_.costs.cycles;
  const auto it = c.find(std::string(step));
  if (it == c.end()) return nullptr;
  ce = {step.data(), step.size(), &*it};
  return ce.entry;
}

std::optional<DentryId> Vfs::child(DentryId parent, std::string_view name) const {
  const auto& ch = dentries_[parent].children;
  const auto it = ch.find(name);
  if (it == ch.end()) return std::nullopt;
  return it->second;
}

std::uint32_t Vfs::bucket_of(DentryId parent, std::string_view name) const {
  // FNV-1a of (parent, name): a fixed, portable stand-in for the kernel's d_hash.
  std::uint64_t h = 1469598103934665603ULL ^ parent;
  for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  return static_cast<std::uint32_t>(h % kHashBuckets);
}

FieldRef Vfs::hash_bucket(std::uint32_t bucket) const {
  return {hash_lines_[bucket / kBucketsPerLine], hash_word_base_ + 2 * bucket, "bucket"};
}

FieldRef Vfs::hash_bucket_lock(std::uint32_t bucket) const {
  return {hash_lines_[bucket / kBucketsPerLine], hash_word_base_ + 2 * bucket + 1, "bucket lock"};
}

DentryId Vfs::add_dentry(DentryId parent, const std::string& name, bool dir, bool shared,
                         std::optional<std::uint32_t> home) {
  if (child(parent, name)) throw std::invalid_argument("dentry '" + name + "' exists");
  Dentry d;
  d.name = name;
  d.parent = parent;
  d.dir = dir;
  d.obj = new_object("dentry", "dentry '" + name + "'", shared, home);
  d.inode = new_object("inode", "inode of '" + name + "'", shared, home);
  d.bucket = bucket_of(parent, name);
  if (!dir) d.page = new_object("page", "page of '" + name + "'", shared, home);
  dentries_.push_back(std::move(d));
  const auto id = static_cast<DentryId>(dentries_.size() - 1);
  dentries_[parent].children.emplace(name, id);
  ++generation_;
  return id;
}

void Vfs::remove_dentry(DentryId d) {
  Dentry& x = dentries_[d];
  if (x.parent != kNoDentry) dentries_[x.parent].children.erase(x.name);
  x.negative = true;
  ++generation_;
}

void Vfs::move_dentry(DentryId d, DentryId new_parent, const std::string& new_name) {
  Dentry& x = dentries_[d];
  if (x.parent != kNoDentry) dentries_[x.parent].children.erase(x.name);
  if (auto old = child(new_parent, new_name)) remove_dentry(*old);
  x.parent = new_parent;
  x.name = new_name;
  x.bucket = bucket_of(new_parent, new_name);
  dentries_[new_parent].children.emplace(new_name, d);
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
    const Object& o = objects_[line_object_[line]];
    const auto& layout = *o.layout;
    const std::uint32_t i = line - o.first_line;
    const std::size_t fold = layout.aligned ? 1 : fold_;
    std::string fields;
    for (std::size_t k = i * fold; k < std::min(layout.lines.size(), (i + 1) * fold); ++k) {
      for (const auto& f : layout.lines[k]) fields += (fields.empty() ? "" : " ") + f;
    }
    return {o.name, i, fields, o.shared};
  }
  const auto it = other_labels_.find(line);
  return it != other_labels_.end() ? it->second : LineLabel{};
}

void Vfs::set_label(LineId line, LineLabel label) { other_labels_[line] = std::move(label); }

std::string Vfs::describe(DentryId d) const { return "dentry '" + dentries_[d].name + "'"; }

}  // namespace walksim::kernel
