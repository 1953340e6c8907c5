// libbpf parses the file and checks the sizes of its sections and of each type record; what it
// does not check (libbpf 1.1 has no sanity pass: a member may name a type id that does not exist, a
// name offset may be out of range, typedefs may loop) is checked here on every step.
#include "models/layout/btf_file.hpp"

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdarg>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <utility>

namespace walksim::layout {
namespace {

constexpr int kMaxDepth = 32;  // typedef/modifier chains and nested anonymous members

// libbpf prints its own diagnostics to stderr by default; the caller gets one LayoutError instead.
int quiet(enum libbpf_print_level, const char*, va_list) { return 0; }

std::string why(int err) { return std::strerror(err > 0 ? err : -err); }

std::optional<std::string> read_banner(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::equivalent(path, "/sys/kernel/btf/vmlinux", ec)) {
    std::ifstream in("/proc/version");
    std::string line;
    if (std::getline(in, line) && line.rfind("Linux version ", 0) == 0) return line;
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // linux_banner is "Linux version <release> (<builder>) #<build> ..."; linux_proc_banner is a
  // printf format ("%s"); other copies may lack the build number. The first with "#<digit>" wins.
  std::optional<std::string> first;
  for (std::size_t at = bytes.find("Linux version "); at != std::string::npos;
       at = bytes.find("Linux version ", at + 1)) {
    const std::size_t end = bytes.find_first_of(std::string("\n\0", 2), at);
    const std::string text = bytes.substr(at, end == std::string::npos ? 200 : std::min<std::size_t>(end - at, 400));
    if (text.find('%') != std::string::npos || text.size() <= 16) continue;
    const std::size_t hash = text.find('#');
    if (hash != std::string::npos && hash + 1 < text.size() &&
        std::isdigit(static_cast<unsigned char>(text[hash + 1]))) {
      return text;
    }
    if (!first) first = text;
  }
  return first;
}

}  // namespace

BtfFile::BtfFile(struct btf* b, std::string path) : btf_(b), path_(std::move(path)) {}
BtfFile::BtfFile(BtfFile&& o) noexcept
    : btf_(std::exchange(o.btf_, nullptr)), path_(std::move(o.path_)), banner_(std::move(o.banner_)) {}
BtfFile& BtfFile::operator=(BtfFile&& o) noexcept {
  if (this != &o) {
    btf__free(btf_);
    btf_ = std::exchange(o.btf_, nullptr);
    path_ = std::move(o.path_);
    banner_ = std::move(o.banner_);
  }
  return *this;
}
BtfFile::~BtfFile() { btf__free(btf_); }

BtfFile BtfFile::open(const std::string& path) {
  libbpf_set_print(quiet);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw LayoutError(path + ": " + (std::filesystem::exists(path, ec) ? "not a regular file" : "no such file"));
  }
  unsigned char magic[4] = {};
  std::size_t got = 0;
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw LayoutError(path + ": cannot be read");
    in.read(reinterpret_cast<char*>(magic), sizeof magic);
    got = static_cast<std::size_t>(in.gcount());
  }
  const bool raw = got >= 2 && ((magic[0] == 0x9f && magic[1] == 0xeb) || (magic[0] == 0xeb && magic[1] == 0x9f));
  const bool elf = got == 4 && std::memcmp(magic,
                                           "\x7f"
                                           "ELF",
                                           4) == 0;
  if (!raw && !elf) {
    throw LayoutError(path +
                      ": not BTF: raw BTF begins with the magic 0xeB9F and an ELF file with \\x7fELF "
                      "(give /sys/kernel/btf/vmlinux, a vmlinux, or an object converted by pahole -J)");
  }
  errno = 0;
  struct btf* b = raw ? btf__parse_raw(path.c_str()) : btf__parse_elf(path.c_str(), nullptr);
  if (!b) {
    const int err = errno;
    if (elf && err == ENOENT)
      throw LayoutError(path + ": an ELF file without a .BTF section (convert its DWARF with pahole -J)");
    throw LayoutError(path + ": not readable as " + (raw ? "raw BTF" : "BTF in an ELF file") + " (" + why(err) +
                      "): truncated or corrupt");
  }
  BtfFile f(b, path);
  f.banner_ = read_banner(path);
  return f;
}

BtfFile BtfFile::from_bytes(const void* data, std::size_t size, const std::string& what) {
  libbpf_set_print(quiet);
  if (size > 0xffffffffu) throw LayoutError(what + ": larger than 4 GiB");
  errno = 0;
  struct btf* b = btf__new(data, static_cast<__u32>(size));
  if (!b) throw LayoutError(what + ": not readable as raw BTF (" + why(errno) + "): truncated or corrupt");
  return BtfFile(b, what);
}

std::uint32_t BtfFile::type_count() const { return btf__type_cnt(btf_); }

namespace {

const btf_type* type_at(const struct btf* b, std::uint32_t id) {
  if (id == 0 || id >= btf__type_cnt(b)) return nullptr;
  return btf__type_by_id(b, id);
}

// Through typedefs, const/volatile/restrict and type tags to the type itself; 0 when broken.
std::uint32_t skip_modifiers(const struct btf* b, std::uint32_t id) {
  for (int depth = 0; depth < kMaxDepth; ++depth) {
    const btf_type* t = type_at(b, id);
    if (!t) return 0;
    if (!btf_is_mod(t) && !btf_is_typedef(t)) return id;
    id = t->type;
  }
  return 0;
}

std::string_view name_of(const struct btf* b, std::uint32_t off) {
  const char* n = btf__name_by_offset(b, off);
  return n ? std::string_view(n) : std::string_view();
}

struct Found {
  std::uint32_t bit_offset = 0;
  std::uint32_t type = 0;
  std::uint32_t bit_size = 0;
  bool anonymous = false;
};

// Visits of composite types one question may make. A C struct never contains itself and holds few
// anonymous members, so a real kernel's answers take tens of visits; a crafted BTF whose anonymous
// members name their own struct, or fan out to the same struct over and over, would otherwise take
// exponential time and memory.
struct Budget {
  int visits = 4096;
  bool spend() { return --visits >= 0; }
};

// Member `name` of composite `id`, itself or in an anonymous struct/union (breadth of C's lookup).
std::optional<Found> find_member(const struct btf* b, std::uint32_t id, std::string_view name, int depth,
                                 Budget& budget) {
  if (depth > kMaxDepth || !budget.spend()) return std::nullopt;
  const btf_type* t = type_at(b, id);
  if (!t || !btf_is_composite(t)) return std::nullopt;
  const btf_member* m = btf_members(t);
  const std::uint16_t n = btf_vlen(t);
  for (std::uint16_t i = 0; i < n; ++i) {
    if (name_of(b, m[i].name_off) == name && !name.empty()) {
      return Found{btf_member_bit_offset(t, i), m[i].type, btf_member_bitfield_size(t, i), false};
    }
  }
  for (std::uint16_t i = 0; i < n; ++i) {
    if (!name_of(b, m[i].name_off).empty()) continue;
    const std::uint32_t inner = skip_modifiers(b, m[i].type);
    if (inner == id) continue;  // a struct inside itself: only a corrupt file says so
    if (auto f = find_member(b, inner, name, depth + 1, budget)) {
      f->bit_offset += btf_member_bit_offset(t, i);
      f->anonymous = true;
      return f;
    }
  }
  return std::nullopt;
}

void collect_names(const struct btf* b, std::uint32_t id, std::vector<std::string>& out, int depth, Budget& budget) {
  if (depth > kMaxDepth || !budget.spend()) return;
  const btf_type* t = type_at(b, id);
  if (!t || !btf_is_composite(t)) return;
  const btf_member* m = btf_members(t);
  for (std::uint16_t i = 0; i < btf_vlen(t); ++i) {
    const std::string_view n = name_of(b, m[i].name_off);
    if (n.empty()) {
      const std::uint32_t inner = skip_modifiers(b, m[i].type);
      if (inner != id) collect_names(b, inner, out, depth + 1, budget);
    } else {
      out.emplace_back(n);
    }
  }
}

}  // namespace

std::optional<std::uint32_t> BtfFile::find_struct(std::string_view name) const {
  const std::uint32_t n = btf__type_cnt(btf_);
  for (std::uint32_t id = 1; id < n; ++id) {
    const btf_type* t = btf__type_by_id(btf_, id);
    if (t && btf_is_struct(t) && btf_vlen(t) > 0 && name_of(btf_, t->name_off) == name) return id;
  }
  return std::nullopt;
}

std::uint32_t BtfFile::struct_size(std::uint32_t id) const {
  const btf_type* t = type_at(btf_, id);
  return t ? t->size : 0;
}

std::optional<MemberPlace> BtfFile::member(std::uint32_t struct_id, std::string_view path) const {
  std::uint32_t id = struct_id;
  std::uint64_t bits = 0;
  Found f;
  bool anonymous = false;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = path.find('.', start);
    const std::string_view step =
        path.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    Budget budget;
    const auto found = find_member(btf_, skip_modifiers(btf_, id), step, 0, budget);
    if (!found) return std::nullopt;
    f = *found;
    bits += f.bit_offset;
    anonymous = anonymous || f.anonymous;
    if (dot == std::string_view::npos) break;
    id = f.type;
    start = dot + 1;
  }
  MemberPlace place;
  place.offset = static_cast<std::uint32_t>(bits / 8);
  place.in_anonymous = anonymous;
  if (f.bit_size > 0) {
    place.bit_size = f.bit_size;
    place.size = static_cast<std::uint32_t>((bits % 8 + f.bit_size + 7) / 8);
  } else {
    const __s64 size = btf__resolve_size(btf_, f.type);
    if (size < 0 || size > 0xffffffffLL) return std::nullopt;
    place.size = static_cast<std::uint32_t>(size);
  }
  return place;
}

std::vector<std::string> BtfFile::member_names(std::uint32_t struct_id) const {
  std::vector<std::string> names;
  Budget budget;
  collect_names(btf_, struct_id, names, 0, budget);
  return names;
}

}  // namespace walksim::layout
