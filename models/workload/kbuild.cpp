// kbuild: a `make -jN` of a kernel tree reduced to its path walks (pathwalk.md §9). Each CPU runs
// one make job; one operation is one compilation unit: make stats the target and its
// prerequisites, runs the recipe through /bin/sh, which execs gcc (a PATH search, a symlink),
// which runs cc1 (below a symlinked directory) and as, each loading shared libraries through
// symlinks; cc1 opens the source and its headers across the -I directories, some after a miss;
// as and fixdep write their outputs. The counts are chosen, not measured: see the design
// targets below.
//
// Design targets. [PL] counted, for a kbuild on a 2.6.38-rc vfs-scale kernel, 2.3% of rcu-walk
// lookups dropping for a missing dentry and 4.0% for a symlink. That kernel ran on a disk
// filesystem, where the many header misses find cached negative dentries and stay in rcu-walk;
// the model's tree is ramfs-like (every miss allocates and kills a negative dentry and counts as
// "nodentry"), so the default mix keeps misses at [PL]'s drop rate instead of gcc's raw probe
// rate. Per unit, with the defaults: 24 fixed lookups (10 through a symlink, 2 PATH misses) +
// 120 prerequisite stats + 100 header opens + 4 header misses = 248 lookups, of which 10 (4.0%)
// follow a symlink and 6 (2.4%) miss.
#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "models/config/limits.hpp"
#include "models/workload/path_param.hpp"
#include "models/workload/workload.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::workload {
namespace {

struct KbuildParams {
  std::uint32_t units_per_dir = 20;  // .c files in each of the source directories
  std::uint32_t prereq_stats = 120;  // headers make stats per unit (after make's own stat cache)
  std::uint32_t headers = 100;       // headers cc1 opens per unit
  std::uint32_t header_misses = 4;   // of which first probed, and missed, in arch/x86/include
  Picos user_per_unit = 0;           // user-space time per unit (cc1's compile; 0 = syscalls only)
  std::string src = "/usr/src/linux";
};

constexpr const char* kSourceDirs[] = {
    "kernel",      "mm",          "fs",           "fs/ext3",      "fs/proc",          "net/core",
    "net/ipv4",    "drivers/net", "drivers/char", "drivers/scsi", "drivers/usb/core", "arch/x86/kernel",
    "arch/x86/mm", "lib",         "block",        "security",     "crypto",           "sound/core",
    "init",        "ipc"};
// Header directories (as the -I path names them) and how many headers each holds.
struct HeaderDir {
  const char* include;  // the -I directory that has it
  const char* sub;      // as written in #include <sub/x.h>
  std::uint32_t count;
};
constexpr HeaderDir kHeaderDirs[] = {{"include", "linux", 400},
                                     {"arch/x86/include", "asm", 200},
                                     {"include", "asm-generic", 60},
                                     {"include", "net", 40}};
constexpr const char* kMissDir = "arch/x86/include";  // the first -I directory, tried for every <linux/...>

// Headers in all, and those that can be missed (found only after a probe of kMissDir).
constexpr std::uint32_t header_pool(bool missable_only) {
  std::uint32_t n = 0;
  for (const auto& hd : kHeaderDirs) {
    if (!missable_only || std::string_view(hd.include) != kMissDir) n += hd.count;
  }
  return n;
}

constexpr Param<KbuildParams> kParams[] = {
    {"units_per_dir", ".c files in each of the 20 source directories (1..10000)",
     [](const config::Node& n, KbuildParams& p) { p.units_per_dir = read_count(n, "units_per_dir", 1, 10000); },
     [](const KbuildParams& p) -> ParamValue { return std::uint64_t{p.units_per_dir}; }},
    {"prereq_stats", "headers make stats per unit after its own stat cache (0..700, the headers of the tree)",
     [](const config::Node& n, KbuildParams& p) {
       p.prereq_stats = read_count(n, "prereq_stats", 0, header_pool(false));
     },
     [](const KbuildParams& p) -> ParamValue { return std::uint64_t{p.prereq_stats}; }},
    {"headers", "headers cc1 opens per unit (0..700)",
     [](const config::Node& n, KbuildParams& p) { p.headers = read_count(n, "headers", 0, header_pool(false)); },
     [](const KbuildParams& p) -> ParamValue { return std::uint64_t{p.headers}; }},
    {"header_misses", "of those, opened after a failed probe of arch/x86/include (at most headers, and 500)",
     [](const config::Node& n, KbuildParams& p) {
       p.header_misses = read_count(n, "header_misses", 0, std::min(p.headers, header_pool(true)));
     },
     [](const KbuildParams& p) -> ParamValue { return std::uint64_t{p.header_misses}; }},
    {"user_time_per_unit", "user-space time per unit (cc1's compile; 0: system calls only)",
     [](const config::Node& n, KbuildParams& p) { p.user_per_unit = config::operation_time(n); },
     [](const KbuildParams& p) -> ParamValue { return time_text(p.user_per_unit); }},
    {"src", "the kernel tree's directory (absolute, below /)",
     [](const config::Node& n, KbuildParams& p) { p.src = read_absolute_dir(n, "src", "/usr/src/linux", false); },
     [](const KbuildParams& p) -> ParamValue { return p.src; }},
};
static_assert(header_pool(false) == 700 && header_pool(true) == 500, "the docs above give these bounds");

struct Header {
  std::string path;  // "include/linux/sched.h"
  std::string miss;  // the failing first probe, or "" when the first -I directory has it
};

// The executables and libraries. Debian-like: /bin/sh -> dash, /usr/bin/gcc -> gcc-4.4, gcc's
// libexec directory 4.4 -> 4.4.5, versioned shared-library symlinks.
struct Link {
  const char* path;
  const char* target;
};
constexpr Link kLinks[] = {
    {"/bin/sh", "dash"},
    {"/usr/bin/gcc", "gcc-4.4"},
    {"/lib/libc.so.6", "libc-2.11.2.so"},
    {"/lib/libz.so.1", "libz.so.1.2.3.4"},
    {"/usr/lib/libmpfr.so.4", "libmpfr.so.4.0.0"},
    {"/usr/lib/libgmp.so.3", "libgmp.so.3.5.2"},
    {"/usr/lib/gcc/x86_64-linux-gnu/4.4", "4.4.5"},
};
constexpr const char* kFiles[] = {"/bin/dash",
                                  "/usr/bin/gcc-4.4",
                                  "/usr/bin/as",
                                  "/etc/ld.so.cache",
                                  "/lib/libc-2.11.2.so",
                                  "/lib/libz.so.1.2.3.4",
                                  "/usr/lib/libmpfr.so.4.0.0",
                                  "/usr/lib/libgmp.so.3.5.2",
                                  "/usr/lib/libbfd-2.20.1-system.20100303.so",
                                  "/usr/lib/libopcodes-2.20.1-system.20100303.so",
                                  "/usr/lib/gcc/x86_64-linux-gnu/4.4.5/cc1"};
constexpr const char* kEmptyDirs[] = {"/usr/local/bin"};

std::string word(sim::Rng& rng, std::size_t min_len, std::size_t max_len) {
  static constexpr char kChars[] = "abcdefghijklmnopqrstuvwxyz_";
  const std::size_t len = min_len + rng.below(max_len - min_len + 1);
  std::string s;
  for (std::size_t i = 0; i < len; ++i) s += kChars[rng.below(i == 0 ? 26 : 27)];
  return s;
}

// What every job shares: the units and the headers by popularity.
struct Build {
  std::vector<std::string> units;  // "fs/ext3/inode" (no extension)
  std::vector<Header> headers;     // most included first
  std::vector<double> cdf;         // Zipf(1) over `headers`
};

class KbuildSource final : public CountingSource {
 public:
  KbuildSource(const RunControl& c, const Build& b, const KbuildParams& p, std::size_t first, std::size_t stride,
               std::uint64_t seed)
      : CountingSource(c), b_(b), p_(p), unit_(first), stride_(stride), rng_(seed) {}

 protected:
  bool produce(Syscall& out) override {
    if (pos_ == calls_.size()) {
      calls_.clear();
      pos_ = 0;
      unit(b_.units[unit_]);
      unit_ = (unit_ + stride_) % b_.units.size();
      calls_.front().user_before = p_.user_per_unit;
      calls_.back().ends_op = true;
    }
    out = calls_[pos_++];
    return true;
  }

 private:
  Syscall& call(kernel::Sys sys, std::string path) {
    Syscall s;
    s.sys = sys;
    s.path = std::move(path);
    calls_.push_back(std::move(s));
    return calls_.back();
  }
  void read_file(const std::string& path, std::uint64_t bytes) {
    call(kernel::Sys::kOpen, path);
    // Descriptor calls name the file the descriptor was opened on: the symlink's target.
    std::string fd_path = path;
    for (const auto& l : kLinks) {
      if (path == l.path) fd_path = path.substr(0, path.rfind('/') + 1) + l.target;
    }
    call(kernel::Sys::kRead, fd_path).bytes = bytes;
    call(kernel::Sys::kClose, fd_path);
  }
  void write_file(const std::string& path, std::uint64_t bytes) {
    auto& o = call(kernel::Sys::kOpen, path);
    o.write = true;
    o.create = true;
    call(kernel::Sys::kWrite, path).bytes = bytes;
    call(kernel::Sys::kClose, path);
  }
  // execve of a program found on PATH (/usr/local/bin first) or named by full path, then ld.so
  // mapping its libraries.
  void exec(const std::string& name, const std::string& full, std::initializer_list<const char*> libs) {
    if (!name.empty()) call(kernel::Sys::kStat, "/usr/local/bin/" + name);  // not there
    call(kernel::Sys::kStat, full);
    read_file("/etc/ld.so.cache", 4096);
    for (const char* lib : libs) read_file(lib, 832);  // the ELF header read by ld.so
  }
  // `n` distinct headers by popularity.
  std::vector<std::size_t> pick(std::uint32_t n) {
    std::set<std::size_t> seen;
    std::vector<std::size_t> out;
    while (out.size() < n) {
      const double u = rng_.uniform() * b_.cdf.back();
      const auto i = static_cast<std::size_t>(std::upper_bound(b_.cdf.begin(), b_.cdf.end(), u) - b_.cdf.begin());
      if (seen.insert(std::min(i, b_.cdf.size() - 1)).second) out.push_back(std::min(i, b_.cdf.size() - 1));
    }
    return out;
  }

  void unit(const std::string& u) {
    using kernel::Sys;
    // make: the target, its source and prerequisites, then the recipe through /bin/sh.
    call(Sys::kStat, "./" + u + ".o");
    call(Sys::kStat, "./" + u + ".c");
    for (std::size_t h : pick(p_.prereq_stats)) call(Sys::kStat, "./" + b_.headers[h].path);
    exec("", "/bin/sh", {"/lib/libc.so.6"});
    exec("gcc", "/usr/bin/gcc", {"/lib/libc.so.6"});
    exec("", "/usr/lib/gcc/x86_64-linux-gnu/4.4/cc1",
         {"/usr/lib/libmpfr.so.4", "/usr/lib/libgmp.so.3", "/lib/libc.so.6"});
    read_file("./" + u + ".c", 16384);
    std::uint32_t misses = 0;
    for (std::size_t h : pick(p_.headers)) {
      const Header& hd = b_.headers[h];
      if (!hd.miss.empty() && misses < p_.header_misses) {
        call(Sys::kOpen, "./" + hd.miss);  // ENOENT in the first -I directory
        ++misses;
      }
      read_file("./" + hd.path, 8192);
    }
    exec("as", "/usr/bin/as",
         {"/usr/lib/libopcodes-2.20.1-system.20100303.so", "/usr/lib/libbfd-2.20.1-system.20100303.so",
          "/lib/libz.so.1", "/lib/libc.so.6"});
    const auto slash = u.rfind('/');
    write_file("./" + u + ".o", 16384);
    write_file("./" + u.substr(0, slash + 1) + "." + u.substr(slash + 1) + ".o.cmd", 2048);  // fixdep
  }

  const Build& b_;
  const KbuildParams& p_;
  std::size_t unit_, stride_;
  sim::Rng rng_;
  std::vector<Syscall> calls_;
  std::size_t pos_ = 0;
};

class Kbuild final : public PerProcessWorkload {
 public:
  explicit Kbuild(KbuildParams p) : p_(std::move(p)) {}

  void build(kernel::Vfs& vfs, const std::vector<CpuId>& cpus, const RunControl& control, sim::Rng& rng) override {
    // One tree every job reads: shared, homed on node 0 (where it was checked out and cached).
    const kernel::DentryId src = vfs.mkpath(p_.src, true, 0u);
    auto add_file = [&](kernel::DentryId dir, const std::string& name) {
      if (!vfs.child(dir, name)) vfs.add_dentry(dir, name, false, true, 0u);
    };
    for (const char* d : kSourceDirs) {
      const kernel::DentryId dir = vfs.mkpath(p_.src + "/" + d, true, 0u);
      std::set<std::string> used;
      for (std::uint32_t i = 0; i < p_.units_per_dir; ++i) {
        std::string w;
        do {
          w = word(rng, 3, 12);
        } while (!used.insert(w).second);
        for (const auto& f : {w + ".c", w + ".o", "." + w + ".o.cmd"}) add_file(dir, f);
        b_.units.push_back(std::string(d) + "/" + w);
      }
    }
    for (const auto& hd : kHeaderDirs) {
      const std::string rel = std::string(hd.include) + "/" + hd.sub;
      const kernel::DentryId dir = vfs.mkpath(p_.src + "/" + rel, true, 0u);
      const bool probed = std::string(hd.include) != kMissDir;
      std::set<std::string> used;
      for (std::uint32_t i = 0; i < hd.count; ++i) {
        std::string w;
        do {
          w = word(rng, 3, 14) + ".h";
        } while (!used.insert(w).second);
        add_file(dir, w);
        b_.headers.push_back({rel + "/" + w, probed ? std::string(kMissDir) + "/" + hd.sub + "/" + w : ""});
      }
    }
    for (std::size_t k = b_.headers.size(); k > 1; --k) std::swap(b_.headers[k - 1], b_.headers[rng.below(k)]);
    double sum = 0;
    for (std::size_t i = 0; i < b_.headers.size(); ++i) b_.cdf.push_back(sum += 1.0 / static_cast<double>(i + 1));
    for (const char* d : kEmptyDirs) vfs.mkpath(d, true, 0u);
    for (const char* f : kFiles) {
      const std::string path(f);
      const auto slash = path.rfind('/');
      add_file(vfs.mkpath(path.substr(0, slash), true, 0u), path.substr(slash + 1));
    }
    for (const auto& l : kLinks) {
      const std::string path(l.path);
      const auto slash = path.rfind('/');
      const kernel::DentryId dir = vfs.mkpath(path.substr(0, slash), true, 0u);
      const kernel::DentryId d = vfs.add_dentry(dir, path.substr(slash + 1), false, true, 0u);
      vfs.dentry(d).symlink = true;
      vfs.dentry(d).link_target = l.target;
    }
    for (std::size_t i = 0; i < cpus.size(); ++i) {
      kernel::Process& proc = vfs.new_process(cpus[i], src);
      add(proc, std::make_unique<KbuildSource>(control, b_, p_, i % b_.units.size(), cpus.size(), rng.next()));
    }
  }
  std::string op_unit() const override { return "compilation unit"; }
  ResolvedParams params() const override { return resolve_params<KbuildParams>(kParams, p_); }

 private:
  KbuildParams p_;
  Build b_;
};

std::unique_ptr<Workload> make(const config::Node* params) {
  return std::make_unique<Kbuild>(read_params<KbuildParams>(kParams, params, "kbuild"));
}
std::vector<ParamDoc> describe() { return describe_params<KbuildParams>(kParams); }

}  // namespace

const WorkloadKind kKbuildKind{
    "kbuild", "make -jN of a kernel tree: target stats, exec through symlinks, header opens with misses", make,
    describe,
    /*seeded=*/true};

}  // namespace walksim::workload
