#include "models/layout/btf_import.hpp"

#include <algorithm>
#include <sstream>

#include "models/config/strict_yaml.hpp"
#include "models/kernel/kernel_loader.hpp"

namespace walksim::layout {
namespace {

constexpr std::uint32_t kMaxBytes = static_cast<std::uint32_t>(64 * kernel::kMaxLayoutLines);

std::uint32_t round_up(std::uint32_t v, std::uint32_t to) { return (v + to - 1) / to * to; }

// The members to look at for a field: the candidates present, oldest first, first one wins.
std::optional<std::pair<const MemberCandidate*, MemberPlace>> locate(const BtfFile& btf, std::uint32_t id,
                                                                     const FieldInStructs& f) {
  for (const auto& c : f.candidates) {
    if (auto place = btf.member(id, c.path)) return std::make_pair(&c, *place);
  }
  return std::nullopt;
}

std::string candidates_text(const FieldInStructs& f) {
  std::string s;
  for (const auto& c : f.candidates) s += (s.empty() ? "" : ", ") + c.path;
  return s;
}

// What importing any one object type reads.
struct ImportSource {
  const BtfFile& btf;
  const kernel::KernelSpec& base;
  const kernel::FieldsUsed& used;
  const ImportOptions& options;
};

// One object type's struct as found in the BTF.
struct StructInBtf {
  const StructOfType& st;
  std::uint32_t id = 0;
  std::string name;                  // the struct's name ("mount" for the model's vfsmount)
  std::vector<std::string> members;  // its member names, for a did-you-mean
};

// The kernel every imported offset will cite: --kernel-version, else the file's banner.
std::string kernel_described(const BtfFile& btf, const ImportOptions& options) {
  std::string kernel = !options.kernel.empty() ? options.kernel : btf.banner().value_or("");
  if (kernel.empty()) {
    throw LayoutError(btf.path() +
                      ": carries no 'Linux version' banner, so which kernel it describes is unknown: say it with "
                      "--kernel-version (the source every imported offset will cite)");
  }
  return kernel;
}

// A --struct that names no importable type is refused before any struct is read.
void check_only_types(const std::vector<std::string>& only) {
  for (const std::string& t : only) {
    if (!struct_of_type(t)) {
      std::vector<std::string> types;
      for (const auto& st : kernel_structs()) types.push_back(st.type);
      throw LayoutError("'" + t + "' is not an object type a BTF struct gives" + config::did_you_mean(t, types) +
                            "; types: " + config::quoted_list(types),
                        "--struct");
    }
  }
}

bool selected(const ImportOptions& options, const std::string& type) {
  return options.only.empty() || std::find(options.only.begin(), options.only.end(), type) != options.only.end();
}

// The struct's id and name, newest name first: 3.3+ has both struct vfsmount and struct mount.
std::optional<std::pair<std::uint32_t, std::string>> find_struct(const BtfFile& btf, const StructOfType& st) {
  for (auto it = st.structs.rbegin(); it != st.structs.rend(); ++it) {
    if (const auto id = btf.find_struct(it->path)) return std::make_pair(*id, it->path);
  }
  return std::nullopt;
}

std::string no_struct_problem(const StructOfType& st) {
  std::string names;
  for (const auto& s : st.structs) names += (names.empty() ? "struct " : " or struct ") + s.path;
  return "no " + names + " in the BTF (the model's '" + st.type + "')";
}

// The base's fields of the type, in its order.
std::vector<std::string> placed_fields(const kernel::ObjectLayout& layout) {
  std::vector<std::string> placed;
  for (const auto& line : layout.lines) placed.insert(placed.end(), line.begin(), line.end());
  return placed;
}

// Narrows `field` to the bytes of its member the model field stands for (the first word of the
// inline name, or the rest). Returns why the field is left out when the member has no such bytes.
std::optional<std::string> take_part(const MemberCandidate& cand, const MemberPlace& place, ImportedField& field) {
  if (cand.part == Part::kWhole) return std::nullopt;
  if (place.size <= 8) {
    if (cand.part == Part::kAfterFirstWord) {
      return cand.path + " is " + std::to_string(place.size) + " bytes: no bytes after its first word";
    }
  } else if (cand.part == Part::kFirstWord) {
    field.size = 8;
  } else {
    field.offset += 8;
    field.size -= 8;
  }
  return std::nullopt;
}

// Places one of the base's fields at its member's bytes in `t`, or says why not: in `problems`
// when that stops the import, in t.left_out when the kernel can do without it.
void import_field(const ImportSource& source, const StructInBtf& in, const std::string& name, ImportedType& t,
                  std::vector<std::string>& problems) {
  const StructOfType& st = in.st;
  const auto f = std::find_if(st.fields.begin(), st.fields.end(), [&](const auto& x) { return x.field == name; });
  const bool required = source.used.required.count({st.type, name}) > 0;
  if (f == st.fields.end()) {
    problems.push_back(st.type + "." + name + ": the rename table (models/layout/kernel_structs.cpp) does not know it");
    return;
  }
  const auto found = locate(source.btf, in.id, *f);
  if (!found) {
    if (required) {
      problems.push_back(st.type + "." + name + ": " + source.base.name + " uses it, and struct " + in.name +
                         " has no member " + candidates_text(*f) +
                         config::did_you_mean(f->candidates.back().path, in.members));
    } else {
      t.left_out.emplace_back(name, "not in struct " + in.name + " (" + candidates_text(*f) + "), and " +
                                        source.base.name + " does not use it");
    }
    return;
  }
  const auto& [cand, place] = *found;
  ImportedField field{name, cand->path, cand->since, cand->part, place.in_anonymous, place.offset, place.size};
  if (auto why = take_part(*cand, place, field)) {
    t.left_out.emplace_back(name, std::move(*why));
    return;
  }
  if (field.offset + field.size > t.size) {
    problems.push_back(st.type + "." + name + " at " + std::to_string(field.offset) + " (+" +
                       std::to_string(field.size) + ") runs past the struct's " + std::to_string(t.size) + " bytes");
    return;
  }
  t.fields.push_back(std::move(field));
}

// Fields in offset order whose bytes overlap: the base keeps apart what the kernel put in one place.
void add_overlap_problems(const ImportedType& t, std::vector<std::string>& problems) {
  for (std::size_t i = 1; i < t.fields.size(); ++i) {
    const auto& a = t.fields[i - 1];
    const auto& b = t.fields[i];
    if (a.offset + a.size > b.offset) {
      problems.push_back(t.type + ": " + a.field + " (" + a.member + ", " + std::to_string(a.offset) + "+" +
                         std::to_string(a.size) + ") and " + b.field + " (" + b.member + ", " +
                         std::to_string(b.offset) + "+" + std::to_string(b.size) +
                         ") overlap: the base places both, the kernel has them in one place");
    }
  }
}

// The stride measured by /proc/slabinfo when it gives one that holds the struct (a kmalloc class
// is shared, so its objsize is not this struct's), else SLUB's rule from the cache's flags.
void set_stride(ImportedType& t, const StructOfType& st, const ImportOptions& options) {
  const std::uint32_t rule = stride_by_rule(t.size, st.stride);
  if (options.slabinfo && options.slabinfo->count(st.cache) && options.slabinfo->at(st.cache) >= t.size &&
      st.stride != StrideRule::kKmalloc) {
    t.stride = round_up(options.slabinfo->at(st.cache), 8);
    t.stride_source = "/proc/slabinfo objsize of '" + st.cache + "' (" + st.stride_source + "; SLUB's rule gives " +
                      std::to_string(rule) + ")";
  } else {
    t.stride = rule;
    t.stride_source = st.stride_source + "; SLUB's rule, not measured";
  }
}

// One object type read from its struct, or nullopt with what stops it added to `problems`.
std::optional<ImportedType> import_type(const ImportSource& source, const StructOfType& st,
                                        const kernel::ObjectLayout& layout, std::vector<std::string>& problems) {
  const auto found = find_struct(source.btf, st);
  if (!found) {
    problems.push_back(no_struct_problem(st));
    return std::nullopt;
  }
  const auto& [id, struct_name] = *found;
  ImportedType t;
  t.type = st.type;
  t.struct_name = struct_name;
  t.size = source.btf.struct_size(id);
  if (t.size == 0 || t.size > kMaxBytes) {
    problems.push_back("struct " + struct_name + " is " + std::to_string(t.size) + " bytes, outside 1.." +
                       std::to_string(kMaxBytes));
    return std::nullopt;
  }
  const StructInBtf in{st, id, struct_name, source.btf.member_names(id)};
  for (const std::string& name : placed_fields(layout)) import_field(source, in, name, t, problems);
  std::sort(t.fields.begin(), t.fields.end(), [](const auto& a, const auto& b) { return a.offset < b.offset; });
  add_overlap_problems(t, problems);
  if (t.fields.empty()) {
    problems.push_back("struct " + struct_name + ": none of the fields " + source.base.name + " places for '" +
                       st.type + "' is in it");
    return std::nullopt;
  }
  set_stride(t, st, source.options);
  if (t.stride > kMaxBytes) {
    problems.push_back("struct " + struct_name + ": a stride of " + std::to_string(t.stride) +
                       " bytes is above the model's " + std::to_string(kMaxBytes) + " per object");
    return std::nullopt;
  }
  return t;
}

}  // namespace

std::uint32_t stride_by_rule(std::uint32_t size, StrideRule rule) {
  switch (rule) {
    case StrideRule::kAlign8:
      return round_up(size, 8);
    case StrideRule::kAlign8Ctor:
      return round_up(size, 8) + 8;
    case StrideRule::kHwcacheAlign:
      return round_up(size, 64);
    case StrideRule::kKmalloc: {
      for (std::uint32_t c : {8u, 16u, 32u, 64u, 96u, 128u, 192u, 256u, 512u, 1024u, 2048u, 4096u, 8192u}) {
        if (size <= c) return c;
      }
      return round_up(size, 4096);
    }
  }
  return round_up(size, 8);
}

std::map<std::string, std::uint32_t> parse_slabinfo(const std::string& text, const std::string& what) {
  std::map<std::string, std::uint32_t> sizes;
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (n == 1) {
      if (line.rfind("slabinfo - version: 2.", 0) != 0) {
        throw LayoutError(what + ":1: not a /proc/slabinfo (it begins 'slabinfo - version: 2.1')");
      }
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string name;
    unsigned long active = 0, total = 0, objsize = 0;
    if (!(fields >> name >> active >> total >> objsize) || objsize == 0 || objsize > 1u << 20) {
      throw LayoutError(what + ":" + std::to_string(n) + ": expected '<name> <active> <num> <objsize> ...'");
    }
    sizes[name] = static_cast<std::uint32_t>(objsize);
  }
  if (n == 0) throw LayoutError(what + ": empty, not a /proc/slabinfo");
  return sizes;
}

ImportedKernel import_layouts(const BtfFile& btf, const kernel::KernelSpec& base, const kernel::FieldsUsed& used,
                              const ImportOptions& options) {
  ImportedKernel out;
  out.btf_path = btf.path();
  out.base = base.name;
  out.kernel = kernel_described(btf, options);
  check_only_types(options.only);
  const ImportSource source{btf, base, used, options};
  // Every problem of every type is collected, so one run names all that this BTF lacks.
  std::vector<std::string> problems;
  for (const StructOfType& st : kernel_structs()) {
    if (!selected(options, st.type)) continue;
    const auto layout_it = base.layouts.find(st.type);
    if (layout_it == base.layouts.end()) continue;
    if (auto t = import_type(source, st, layout_it->second, problems)) out.types.push_back(std::move(*t));
  }
  if (!problems.empty()) {
    std::string msg = btf.path() + ": cannot lay out " + base.name + "'s objects from this BTF:";
    for (const auto& p : problems) msg += "\n  " + p;
    throw LayoutError(msg);
  }
  return out;
}

}  // namespace walksim::layout
