// open-close: each process opens its own existing file O_RDONLY and closes it, in a loop (the
// published "open/close loop" scenario). The files sit in one shared directory or in a private
// directory per process.
#include <string>

#include "models/workload/workload.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::workload {
namespace {

struct OpenCloseParams {
  bool shared_dir = true;  // all files in the cwd, else "./p<i>/" per process
  std::string cwd = "/mnt/ram";
  Picos user = 0;  // user-space time per iteration
};

class OpenCloseSource final : public CountingSource {
 public:
  OpenCloseSource(const RunControl& c, std::string path, Picos user)
      : CountingSource(c), path_(std::move(path)), user_(user) {}

 protected:
  bool produce(Syscall& out) override {
    out = Syscall{};
    out.path = path_;
    if (!open_) {
      out.sys = kernel::Sys::kOpen;
      out.user_before = user_;
    } else {
      out.sys = kernel::Sys::kClose;
      out.ends_op = true;
    }
    open_ = !open_;
    return true;
  }

 private:
  std::string path_;
  Picos user_;
  bool open_ = false;
};

class OpenClose final : public Workload {
 public:
  explicit OpenClose(OpenCloseParams p) : p_(std::move(p)) {}

  void build(kernel::Vfs& vfs, const std::vector<CpuId>& cpus, const RunControl& control, sim::Rng&) override {
    const kernel::DentryId cwd = vfs.mkpath(p_.cwd, true, 0u);
    for (std::size_t i = 0; i < cpus.size(); ++i) {
      const auto node = vfs.machine().node_of(vfs.machine().core_of(cpus[i]));
      const std::string sub = p_.shared_dir ? "" : "p" + std::to_string(i);
      const kernel::DentryId dir = sub.empty() ? cwd : vfs.add_dentry(cwd, sub, true, false, node);
      const std::string name = "f" + std::to_string(i);
      vfs.add_dentry(dir, name, false, false, node);
      procs_.push_back(&vfs.new_process(cpus[i], cwd));
      sources_.push_back(
          std::make_unique<OpenCloseSource>(control, "./" + (sub.empty() ? "" : sub + "/") + name, p_.user));
    }
  }
  std::size_t process_count() const override { return procs_.size(); }
  kernel::Process& process(std::size_t i) override { return *procs_[i]; }
  CountingSource& source(std::size_t i) override { return *sources_[i]; }
  std::string op_unit() const override { return "open/close"; }

 private:
  OpenCloseParams p_;
  std::vector<kernel::Process*> procs_;
  std::vector<std::unique_ptr<OpenCloseSource>> sources_;
};

std::unique_ptr<Workload> make(const config::Node* params) {
  OpenCloseParams p;
  if (params) {
    if (auto n = params->optional("shared_dir")) p.shared_dir = n->as_bool();
    if (auto n = params->optional("cwd")) {
      p.cwd = n->as_string();
      if (p.cwd.empty() || p.cwd[0] != '/') n->fail("cwd must be an absolute path such as '/mnt/ram'");
    }
    if (auto n = params->optional("user_time")) p.user = n->as_time();
  }
  return std::make_unique<OpenClose>(p);
}

}  // namespace

const WorkloadKind kOpenCloseKind{"open-close", "open O_RDONLY and close of an existing per-process file in a loop",
                                  make};

}  // namespace walksim::workload
