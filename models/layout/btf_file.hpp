// A kernel's BTF type information, read with libbpf: raw BTF (/sys/kernel/btf/vmlinux) or an ELF
// file with a .BTF section (a vmlinux, or an object file converted by `pahole -J`). Answers the
// one question the layout importer asks: where, in bytes, does a (possibly nested) member of a
// struct sit, and how big is it. Every malformed input ends in a LayoutError, never a crash.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct btf;

namespace walksim::layout {

// Bad input to a layout command: the CLI prints what() and exits 2.
// `flag` names the command-line option the problem is about, when one is.
class LayoutError : public std::runtime_error {
 public:
  explicit LayoutError(const std::string& what, std::string flag = "")
      : std::runtime_error(what), flag_(std::move(flag)) {}
  const std::string& flag() const { return flag_; }

 private:
  std::string flag_;
};

struct MemberPlace {
  std::uint32_t offset = 0;    // bytes from the start of the outermost struct
  std::uint32_t size = 0;      // bytes (a bitfield: the bytes its bits touch)
  std::uint32_t bit_size = 0;  // non-zero for a bitfield
  bool in_anonymous = false;   // reached through an anonymous struct or union
};

class BtfFile {
 public:
  // Reads `path`; `what` names it in messages. Throws LayoutError (not BTF, truncated, no .BTF).
  static BtfFile open(const std::string& path);
  // Raw BTF bytes (the fuzz target's entry).
  static BtfFile from_bytes(const void* data, std::size_t size, const std::string& what);

  BtfFile(BtfFile&&) noexcept;
  BtfFile& operator=(BtfFile&&) noexcept;
  ~BtfFile();

  const std::string& path() const { return path_; }
  // The "Linux version ..." banner found in an ELF file's bytes (a vmlinux's linux_banner), or
  // the running kernel's /proc/version when the file is /sys/kernel/btf/vmlinux; nullopt otherwise.
  const std::optional<std::string>& banner() const { return banner_; }
  std::uint32_t type_count() const;

  // The struct (or union) named `name`, or nullopt. Of several, the first complete one.
  std::optional<std::uint32_t> find_struct(std::string_view name) const;
  std::uint32_t struct_size(std::uint32_t id) const;
  // `path` is a dotted member path ("d_lockref.count", "mnt.mnt_root", "i_data.nrpages"); each
  // step finds its member directly or inside anonymous structs and unions. nullopt when absent.
  std::optional<MemberPlace> member(std::uint32_t struct_id, std::string_view path) const;
  // Every member name reachable from the struct without naming a member: its own members and those
  // of its anonymous structs and unions (the candidates of a did-you-mean).
  std::vector<std::string> member_names(std::uint32_t struct_id) const;

 private:
  BtfFile(struct btf* b, std::string path);
  struct btf* btf_ = nullptr;
  std::string path_;
  std::optional<std::string> banner_;
};

}  // namespace walksim::layout
