// creat-unlink: each process creates its own file (open O_WRONLY|O_CREAT of a name that does not
// exist), closes and unlinks it, in a loop (the published "creat/unlink loop" scenario, where
// 2.6.38's RCU-freed inodes cost extra). Files in one shared directory or a private one per process.
#include <string>

#include "models/workload/workload.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::workload {
namespace {

struct CreatUnlinkParams {
  bool shared_dir = true;  // all files in the cwd, else "./p<i>/" per process
  std::string cwd = "/mnt/ram";
  Picos user = 0;  // user-space time per iteration
};

class CreatUnlinkSource final : public CountingSource {
 public:
  CreatUnlinkSource(const RunControl& c, std::string path, Picos user)
      : CountingSource(c), path_(std::move(path)), user_(user) {}

 protected:
  bool produce(Syscall& out) override {
    out = Syscall{};
    out.path = path_;
    switch (step_) {
      case 0:
        out.sys = kernel::Sys::kOpen;
        out.create = true;
        out.write = true;
        out.user_before = user_;
        break;
      case 1:
        out.sys = kernel::Sys::kClose;
        break;
      default:
        out.sys = kernel::Sys::kUnlink;
        out.ends_op = true;
        break;
    }
    step_ = (step_ + 1) % 3;
    return true;
  }

 private:
  std::string path_;
  Picos user_;
  int step_ = 0;
};

class CreatUnlink final : public Workload {
 public:
  explicit CreatUnlink(CreatUnlinkParams p) : p_(std::move(p)) {}

  void build(kernel::Vfs& vfs, const std::vector<CpuId>& cpus, const RunControl& control, sim::Rng&) override {
    const kernel::DentryId cwd = vfs.mkpath(p_.cwd, true, 0u);
    for (std::size_t i = 0; i < cpus.size(); ++i) {
      const auto node = vfs.machine().node_of(vfs.machine().core_of(cpus[i]));
      const std::string sub = p_.shared_dir ? "" : "p" + std::to_string(i);
      if (!sub.empty()) vfs.add_dentry(cwd, sub, true, false, node);
      procs_.push_back(&vfs.new_process(cpus[i], cwd));
      sources_.push_back(std::make_unique<CreatUnlinkSource>(
          control, "./" + (sub.empty() ? "" : sub + "/") + "f" + std::to_string(i), p_.user));
    }
  }
  std::size_t process_count() const override { return procs_.size(); }
  kernel::Process& process(std::size_t i) override { return *procs_[i]; }
  CountingSource& source(std::size_t i) override { return *sources_[i]; }
  std::string op_unit() const override { return "creat/close/unlink"; }

 private:
  CreatUnlinkParams p_;
  std::vector<kernel::Process*> procs_;
  std::vector<std::unique_ptr<CreatUnlinkSource>> sources_;
};

std::unique_ptr<Workload> make(const config::Node* params) {
  CreatUnlinkParams p;
  if (params) {
    if (auto n = params->optional("shared_dir")) p.shared_dir = n->as_bool();
    if (auto n = params->optional("cwd")) {
      p.cwd = n->as_string();
      if (p.cwd.empty() || p.cwd[0] != '/') n->fail("cwd must be an absolute path such as '/mnt/ram'");
    }
    if (auto n = params->optional("user_time")) p.user = n->as_time();
  }
  return std::make_unique<CreatUnlink>(p);
}

}  // namespace

const WorkloadKind kCreatUnlinkKind{"creat-unlink",
                                    "create (open O_CREAT), close and unlink a per-process file in a loop", make};

}  // namespace walksim::workload
