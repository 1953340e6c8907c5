// dbench: N clients replay a netbench loadfile through dbench-4's fileio backend (pathwalk.md §9,
// §6–§7). Client i works in "./clients/client<i>/" below a shared working directory, so every
// path crosses the shared cwd and `clients` dentries, then the client's private subtree. The
// loadfile is synthetic (dbench_loadfile.hpp); throughput is reported in MB/s of ReadX + WriteX.
#include "models/workload/dbench.hpp"

#include <deque>
#include <string>

#include "models/config/limits.hpp"
#include "models/workload/path_param.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::workload {
namespace dbench {

// Loadfile operations the workload may hold in all (about 300 B of host memory each: 600 MB).
constexpr std::uint32_t kMaxLoadfileOpsHeld = 2'000'000;

struct DbenchParams {
  LoadfileParams loadfile;
  Picos user = 0;                   // user-space time per loadfile operation
  bool acl = false;                 // a cached POSIX ACL on every directory of the tree
  bool distinct_loadfiles = false;  // each client its own loadfile (dbench: all clients replay one)
  std::string cwd = "/mnt/ram";
};

class DbenchSource final : public CountingSource {
 public:
  DbenchSource(const RunControl& c, const std::vector<LoadOp>& ops, std::string prefix, Picos user)
      : CountingSource(c), ops_(ops), prefix_(std::move(prefix)), user_(user) {}

 protected:
  bool produce(Syscall& out) override {
    if (pos_ == calls_.size()) {
      calls_.clear();
      pos_ = 0;
      to_syscalls(ops_[next_op_], prefix_, calls_);
      next_op_ = (next_op_ + 1) % ops_.size();  // the loadfile is replayed in a loop
      calls_.front().user_before = user_;
      calls_.back().ends_op = true;
    }
    out = std::move(calls_[pos_++]);  // refilled from scratch once used up
    return true;
  }

 private:
  const std::vector<LoadOp>& ops_;
  std::string prefix_;
  Picos user_;
  std::size_t next_op_ = 0;
  std::vector<Syscall> calls_;
  std::size_t pos_ = 0;
};

class Dbench final : public Workload {
 public:
  explicit Dbench(DbenchParams p) : p_(std::move(p)) {}

  void build(kernel::Vfs& vfs, const std::vector<CpuId>& cpus, const RunControl& control, sim::Rng& rng) override {
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
      procs_.push_back(&vfs.new_process(cpus[i], cwd));
      sources_.push_back(
          std::make_unique<DbenchSource>(control, loadfiles_.back(), "./clients/" + name + "/", p_.user));
    }
  }
  std::size_t process_count() const override { return procs_.size(); }
  kernel::Process& process(std::size_t i) override { return *procs_[i]; }
  CountingSource& source(std::size_t i) override { return *sources_[i]; }
  std::string op_unit() const override { return "dbench op"; }
  bool set_user_time(Picos t) override {
    p_.user = t;
    return true;
  }
  bool reports_bytes() const override { return true; }
  std::string check_run(std::uint32_t threads, std::uint32_t, std::uint32_t) const override {
    if (!p_.distinct_loadfiles || std::uint64_t{threads} * p_.loadfile.ops <= kMaxLoadfileOpsHeld) return {};
    return "dbench with distinct_loadfiles keeps one loadfile per client: " + std::to_string(threads) + " x " +
           std::to_string(p_.loadfile.ops) + " operations is more than " + std::to_string(kMaxLoadfileOpsHeld) +
           " in all (about 300 bytes of host memory each); lower workload.params.loadfile_ops or the thread count";
  }

  const std::vector<LoadOp>* loadfile(std::size_t client) const {
    return client < client_loadfile_.size() ? &loadfiles_[client_loadfile_[client]] : nullptr;
  }

 private:
  // The directory `rel` ("~dmtmp/WORD") below `base`, made if missing, private to the client.
  static kernel::DentryId make_dir(kernel::Vfs& vfs, kernel::DentryId base, const std::string& rel,
                                   std::uint32_t node) {
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

  DbenchParams p_;
  std::vector<ClientTree> trees_;
  std::deque<std::vector<LoadOp>> loadfiles_;  // a deque: sources keep references
  std::vector<std::size_t> client_loadfile_;
  std::vector<kernel::Process*> procs_;
  std::vector<std::unique_ptr<DbenchSource>> sources_;
};

std::unique_ptr<Workload> make(const config::Node* params) {
  DbenchParams p;
  if (params) {
    if (auto n = params->optional("statfs")) p.loadfile.statfs = n->as_bool();
    if (auto n = params->optional("io_size")) {
      const std::uint64_t v = n->as_size();
      if (v == 0 || v > (1u << 20)) n->fail("io_size must be 1B..1MiB");
      p.loadfile.io_size = static_cast<std::uint32_t>(v);
    }
    if (auto n = params->optional("files_per_dir")) {
      p.loadfile.files_per_dir = n->as_uint32();
      if (p.loadfile.files_per_dir == 0 || p.loadfile.files_per_dir > 100000)
        n->fail("files_per_dir must be 1..100000");
    }
    if (auto n = params->optional("loadfile_ops")) {
      p.loadfile.ops = n->as_uint32();
      if (p.loadfile.ops < 1000 || p.loadfile.ops > kMaxLoadfileOpsHeld) {
        n->fail("loadfile_ops must be 1000.." + std::to_string(kMaxLoadfileOpsHeld) +
                " (a loadfile operation costs about 300 bytes of host memory, and clients replay the loadfile "
                "in a loop, so a longer one adds nothing to the rate)");
      }
    }
    if (auto n = params->optional("max_open")) {
      p.loadfile.max_open = n->as_uint32();
      if (p.loadfile.max_open == 0 || p.loadfile.max_open > 200)
        n->fail("max_open must be 1..200 (dbench's MAX_FILES)");
    }
    if (auto n = params->optional("user_time")) p.user = config::operation_time(*n);
    if (auto n = params->optional("acl")) p.acl = n->as_bool();
    if (auto n = params->optional("distinct_loadfiles")) p.distinct_loadfiles = n->as_bool();
    if (auto n = params->optional("cwd")) {
      p.cwd = read_absolute_dir(*n, "cwd", "/mnt/ram");
    }
  }
  return std::make_unique<Dbench>(p);
}

}  // namespace dbench

const std::vector<dbench::LoadOp>* dbench_loadfile(const Workload& w, std::size_t client) {
  const auto* d = dynamic_cast<const dbench::Dbench*>(&w);
  return d ? d->loadfile(client) : nullptr;
}

const WorkloadKind kDbenchKind{"dbench", "dbench's netbench mix (synthetic loadfile) through the fileio backend, MB/s",
                               dbench::make, /*seeded=*/true};

}  // namespace walksim::workload
