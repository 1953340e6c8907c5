// dbench: N clients replay a netbench loadfile through dbench-4's fileio backend (pathwalk.md §9,
// §6–§7). Client i works in "./clients/client<i>/" below a shared working directory, so every
// path crosses the shared cwd and `clients` dentries, then the client's private subtree. The
// loadfile is synthetic (dbench_loadfile.hpp); throughput is reported in MB/s of ReadX + WriteX.
#include "models/workload/dbench.hpp"

#include <stdexcept>
#include <string>

#include "models/config/limits.hpp"
#include "models/workload/path_param.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::workload {
namespace dbench {
namespace {

// Loadfile operations the workload may hold in all (about 300 B of host memory each: 600 MB).
constexpr std::uint32_t kMaxLoadfileOpsHeld = 2'000'000;

class DbenchSource final : public CountingSource {
 public:
  DbenchSource(const RunControl& c, const std::vector<LoadOp>& ops, std::string prefix, Picos user)
      : CountingSource(c), ops_(ops), prefix_(std::move(prefix)), user_(user) {}

 protected:
  bool produce(Syscall& out) override {
    if (pos_ == count_) {
      pos_ = 0;
      to_syscalls_reusing(ops_[next_op_], prefix_, calls_, count_);
      if (count_ == 0) throw std::logic_error("dbench: a loadfile operation made no system call");
      next_op_ = (next_op_ + 1) % ops_.size();  // the loadfile is replayed in a loop
      calls_.front().user_before = user_;
      calls_[count_ - 1].ends_op = true;
    }
    out = calls_[pos_++];  // a copy: both keep their strings' storage for the next calls
    return true;
  }

 private:
  const std::vector<LoadOp>& ops_;
  std::string prefix_;
  Picos user_;
  std::size_t next_op_ = 0;
  std::vector<Syscall> calls_;  // calls_[0..count_) are the current op's calls
  std::size_t count_ = 0;
  std::size_t pos_ = 0;
};

// The directory `rel` ("~dmtmp/WORD") below `base`, made if missing, private to the client.
kernel::DentryId make_dir(kernel::Vfs& vfs, kernel::DentryId base, const std::string& rel, std::uint32_t node) {
  kernel::DentryId cur = base;
  std::size_t pos = 0;
  while (pos <= rel.size()) {
    std::size_t slash = rel.find('/', pos);
    if (slash == std::string::npos) slash = rel.size();
    const std::string part = rel.substr(pos, slash - pos);
    pos = slash + 1;
    if (part.empty() || part == ".") continue;
    const auto c = vfs.child(cur, part);
    cur = c ? *c : vfs.add_dentry(cur, part, true, false, node);
  }
  return cur;
}

std::string size_text(std::uint64_t bytes) {
  if (bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + "MiB";
  if (bytes % 1024 == 0) return std::to_string(bytes >> 10) + "KiB";
  return std::to_string(bytes) + "B";
}

constexpr Param<DbenchParams> kParams[] = {
    {"statfs", "the mix's QUERY_FS_INFORMATION calls (false: removed, as in the published V-dbench run)",
     [](const config::Node& n, DbenchParams& p) { p.loadfile.statfs = n.as_bool(); },
     [](const DbenchParams& p) -> ParamValue { return p.loadfile.statfs; }},
    {"io_size", "bytes per ReadX / WriteX (1B..1MiB)",
     [](const config::Node& n, DbenchParams& p) {
       const std::uint64_t v = n.as_size();
       if (v == 0 || v > (1u << 20)) n.fail("io_size must be 1B..1MiB");
       p.loadfile.io_size = static_cast<std::uint32_t>(v);
     },
     [](const DbenchParams& p) -> ParamValue { return size_text(p.loadfile.io_size); }},
    {"files_per_dir",
     "persistent files in each of the client's nine ~dmtmp directories (1..100000; unset: each as many as it holds "
     "on average in dbench's client_plain.txt, PARADOX 24 down to EXCEL 2)",
     [](const config::Node& n, DbenchParams& p) {
       p.loadfile.files_per_dir = read_count(n, "files_per_dir", 1, 100000);
     },
     [](const DbenchParams& p) -> ParamValue {
       if (!p.loadfile.files_per_dir) return std::monostate{};
       return std::uint64_t{*p.loadfile.files_per_dir};
     }},
    {"loadfile_ops",
     "approximate operations of one pass of the loadfile, replayed in a loop (1000..2000000; as many as a client "
     "measures makes its window one whole pass, so that the figure does not depend on which stretch of the mix a "
     "short window catches)",
     [](const config::Node& n, DbenchParams& p) {
       p.loadfile.ops = read_count(n, "loadfile_ops", 1000, kMaxLoadfileOpsHeld,
                                   "(a loadfile operation costs about 300 bytes of host memory, and clients replay "
                                   "the loadfile in a loop, so a longer one adds nothing to the rate)");
     },
     [](const DbenchParams& p) -> ParamValue { return std::uint64_t{p.loadfile.ops}; }},
    {"max_open", "handles a client keeps open at once (1..200, dbench's MAX_FILES)",
     [](const config::Node& n, DbenchParams& p) {
       p.loadfile.max_open = read_count(n, "max_open", 1, 200, "(dbench's MAX_FILES)");
     },
     [](const DbenchParams& p) -> ParamValue { return std::uint64_t{p.loadfile.max_open}; }},
    {"user_time", "user-space time per loadfile operation",
     [](const config::Node& n, DbenchParams& p) { p.user = config::operation_time(n); },
     [](const DbenchParams& p) -> ParamValue { return time_text(p.user); }},
    {"acl", "a cached POSIX ACL on every directory of the tree",
     [](const config::Node& n, DbenchParams& p) { p.acl = n.as_bool(); },
     [](const DbenchParams& p) -> ParamValue { return p.acl; }},
    {"distinct_loadfiles",
     "each client its own loadfile (dbench: every client replays one; such clients start in step and, through a "
     "short run, rename and create at the same moments; true gives the steady state of a long run, where they have "
     "drifted apart)",
     [](const config::Node& n, DbenchParams& p) { p.distinct_loadfiles = n.as_bool(); },
     [](const DbenchParams& p) -> ParamValue { return p.distinct_loadfiles; }},
    {"cwd", "the shared working directory above ./clients/ (absolute)",
     [](const config::Node& n, DbenchParams& p) { p.cwd = read_absolute_dir(n, "cwd", "/mnt/ram"); },
     [](const DbenchParams& p) -> ParamValue { return p.cwd; }},
};

}  // namespace

void Dbench::build(kernel::Vfs& vfs, const std::vector<CpuId>& cpus, const RunControl& control, sim::Rng& rng) {
  const kernel::DentryId cwd = vfs.mkpath(p_.cwd, true, 0u);
  const kernel::DentryId clients = vfs.add_dentry(cwd, "clients", true, true, 0u);
  if (p_.acl) {
    vfs.dentry(cwd).has_acl = true;
    vfs.dentry(clients).has_acl = true;
  }
  for (std::size_t i = 0; i < cpus.size(); ++i) {
    if (i == 0 || p_.distinct_loadfiles) {
      trees_.push_back(make_client_tree(p_.loadfile.files_per_dir, rng));
      loadfiles_.push_back(make_loadfile(trees_.back(), p_.loadfile, rng));
    }
    const ClientTree& tree = trees_.back();
    const auto node = vfs.machine().node_of(vfs.machine().core_of(cpus[i]));
    const std::string name = "client" + std::to_string(i + 1);
    const kernel::DentryId home = vfs.add_dentry(clients, name, true, false, node);
    if (p_.acl) vfs.dentry(home).has_acl = true;
    for (const auto& d : tree.dirs) {
      const kernel::DentryId dir = make_dir(vfs, home, d, node);
      if (p_.acl) vfs.dentry(dir).has_acl = true;
    }
    for (const auto& f : tree.files) {
      const kernel::DentryId dir = make_dir(vfs, home, parent_of(f), node);
      vfs.add_dentry(dir, f.substr(f.rfind('/') + 1), false, false, node);
    }
    client_loadfile_.push_back(loadfiles_.size() - 1);
    add(vfs.new_process(cpus[i], cwd),
        std::make_unique<DbenchSource>(control, loadfiles_.back(), "./clients/" + name + "/", p_.user));
  }
}

std::string Dbench::check_run(std::uint32_t threads, std::uint32_t, std::uint32_t) const {
  if (!p_.distinct_loadfiles || std::uint64_t{threads} * p_.loadfile.ops <= kMaxLoadfileOpsHeld) return {};
  return "dbench with distinct_loadfiles keeps one loadfile per client: " + std::to_string(threads) + " x " +
         std::to_string(p_.loadfile.ops) + " operations is more than " + std::to_string(kMaxLoadfileOpsHeld) +
         " in all (about 300 bytes of host memory each); lower workload.params.loadfile_ops or the thread count";
}

ResolvedParams Dbench::params() const { return resolve_params<DbenchParams>(kParams, p_); }

namespace {

std::unique_ptr<Workload> make(const config::Node* params) {
  return std::make_unique<Dbench>(read_params<DbenchParams>(kParams, params, "dbench"));
}
std::vector<ParamDoc> describe() { return describe_params<DbenchParams>(kParams); }

}  // namespace

}  // namespace dbench

const WorkloadKind kDbenchKind{"dbench", "dbench's netbench mix (synthetic loadfile) through the fileio backend, MB/s",
                               dbench::make, dbench::describe, /*seeded=*/true};

}  // namespace walksim::workload
