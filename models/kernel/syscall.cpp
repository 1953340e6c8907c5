// The syscall mini-language of traces and workloads.
#include "models/kernel/syscall.hpp"

#include <cstdint>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace walksim::kernel {

namespace {
using T = TraceSetup;
// In Sys's order (sys_traits indexes it; a test checks the order).
// clang-format off
constexpr SysTraits kTable[] = {
    //  name          sys              paths bytes getnames entry cacheable parsed setup
    {"stat",       Sys::kStat,       1, false, 1, true,  true,  true,  T::kFile},
    {"lstat",      Sys::kLstat,      1, false, 1, true,  true,  true,  T::kFile},
    {"fstat",      Sys::kFstat,      1, false, 0, true,  true,  true,  T::kOpenFile},
    {"open",       Sys::kOpen,       1, false, 1, true,  false, true,  T::kFile},
    {"close",      Sys::kClose,      1, false, 0, true,  false, true,  T::kOpenFile},
    {"read",       Sys::kRead,       1, true,  0, true,  true,  true,  T::kOpenFile},
    {"pread",      Sys::kPread,      1, true,  0, true,  true,  true,  T::kOpenFile},
    {"write",      Sys::kWrite,      1, true,  0, true,  true,  true,  T::kOpenFile},
    {"pwrite",     Sys::kPwrite,     1, true,  0, true,  true,  true,  T::kOpenFile},
    {"unlink",     Sys::kUnlink,     1, false, 1, true,  false, true,  T::kFile},
    {"rename",     Sys::kRename,     2, false, 2, true,  false, true,  T::kFileAndParent},
    {"mkdir",      Sys::kMkdir,      1, false, 1, true,  false, true,  T::kNothing},
    {"rmdir",      Sys::kRmdir,      1, false, 1, true,  false, true,  T::kDirectory},
    {"readdir",    Sys::kReaddir,    1, false, 1, true,  false, true,  T::kDirectory},
    {"statfs",     Sys::kStatfs,     1, false, 1, true,  true,  true,  T::kFile},
    {"fsync",      Sys::kFsync,      1, false, 0, true,  true,  true,  T::kOpenFile},
    {"utime",      Sys::kUtime,      1, false, 1, true,  true,  true,  T::kFile},
    {"fcntl-lock", Sys::kFcntlLock,  1, false, 0, true,  true,  true,  T::kOpenFile},
    {"lock-hold",  Sys::kLockHold,   0, true,  0, false, true,  true,  T::kFile},
    {"atomic-op",  Sys::kAtomicOp,   0, false, 0, false, true,  false, T::kFile},
};
// clang-format on
constexpr bool in_sys_order() {
  for (std::size_t i = 0; i < std::size(kTable); ++i) {
    if (static_cast<std::size_t>(kTable[i].sys) != i) return false;
  }
  return true;
}
static_assert(in_sys_order() && std::size(kTable) == static_cast<std::size_t>(Sys::kAtomicOp) + 1,
              "kTable has one row per Sys, in Sys's order");

// The size of a read or write (or lock-hold's nanoseconds): digits only, since std::stoull would
// accept "-5" and wrap it to 2^64-5, and no more than the kernel moves in one call.
std::uint64_t parse_byte_count(const std::string& n, Sys sys) {
  const bool hold = sys == Sys::kLockHold;
  const std::string what = hold ? "hold time '" + n + "'" : "byte count '" + n + "'";
  if (n.empty() || n.find_first_not_of("0123456789") != std::string::npos) {
    throw std::invalid_argument(what + (hold ? " is not a whole number of nanoseconds (digits only, e.g. 100)"
                                             : " is not a whole number of bytes (digits only, e.g. 4096)"));
  }
  const std::uint64_t limit = hold ? kMaxLockHoldNs : kMaxRwCount;
  const std::size_t first = n.find_first_not_of('0');
  const std::size_t significant = first == std::string::npos ? 0 : n.size() - first;
  // More than 19 significant digits cannot be below either limit (and would overflow stoull).
  if (significant > 19 || std::stoull(n) > limit) {
    throw std::invalid_argument(
        what +
        (hold ? " is too large: the limit is " + std::to_string(limit) + " ns (one second)"
              : " is too large: one read or write moves at most " + std::to_string(limit) +
                    " bytes (Linux's MAX_RW_COUNT, INT_MAX rounded down to a page); split it into several calls"));
  }
  return std::stoull(n);
}

std::string names() {
  std::string s;
  for (const auto& e : kTable) {
    if (e.parsed) s += std::string(s.empty() ? "" : ", ") + e.name;
  }
  return s;
}
}  // namespace

const SysTraits& sys_traits(Sys s) { return kTable[static_cast<std::size_t>(s)]; }

const char* sys_name(Sys s) { return sys_traits(s).name; }

Syscall parse_syscall(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  if (words.empty()) throw std::invalid_argument("empty syscall; expected one of: " + names());
  const SysTraits* entry = nullptr;
  for (const auto& e : kTable) {
    if (e.parsed && words[0] == e.name) entry = &e;
  }
  if (!entry) throw std::invalid_argument("unknown syscall '" + words[0] + "'; expected one of: " + names());
  Syscall s;
  s.sys = entry->sys;
  std::size_t i = 1;
  auto need = [&](const char* what) -> const std::string& {
    if (i >= words.size()) {
      throw std::invalid_argument(std::string("'") + entry->name + "' needs " + what + " (e.g. '" + entry->name +
                                  " ./file" + (entry->bytes ? " 4096" : "") + "')");
    }
    return words[i++];
  };
  if (entry->paths >= 1) s.path = need("a path");
  if (entry->paths == 2) s.path2 = need("a second path");
  if (entry->bytes) s.bytes = parse_byte_count(need("a byte count"), s.sys);
  if (s.sys == Sys::kOpen && i < words.size()) {
    std::string flags = words[i++];
    std::size_t pos = 0;
    while (pos <= flags.size()) {
      std::size_t bar = flags.find('|', pos);
      if (bar == std::string::npos) bar = flags.size();
      const std::string f = flags.substr(pos, bar - pos);
      pos = bar + 1;
      if (f == "O_RDONLY") {
      } else if (f == "O_WRONLY" || f == "O_RDWR") {
        s.write = true;
      } else if (f == "O_CREAT") {
        s.create = true;
      } else if (f == "O_DIRECTORY") {
        s.directory = true;
      } else {
        throw std::invalid_argument("unknown open flag '" + f +
                                    "'; expected O_RDONLY, O_WRONLY, O_RDWR, O_CREAT, O_DIRECTORY");
      }
    }
  }
  if (i < words.size())
    throw std::invalid_argument("unexpected '" + words[i] + "' after the arguments of '" + words[0] + "'");
  return s;
}

std::string to_string(const Syscall& s) {
  std::string out = std::string(sys_name(s.sys)) + (s.path.empty() ? "" : " " + s.path);
  if (!s.path2.empty()) out += " " + s.path2;
  if (s.bytes) out += " " + std::to_string(s.bytes);
  if (s.sys == Sys::kAtomicOp) out += " " + std::string(atomic_op_name(s.bench.atomic));
  if (s.sys == Sys::kOpen) {
    out += s.write ? " O_WRONLY" : " O_RDONLY";
    if (s.create) out += "|O_CREAT";
    if (s.directory) out += "|O_DIRECTORY";
  }
  return out;
}

}  // namespace walksim::kernel
