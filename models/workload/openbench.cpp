// openbench: Dave Hansen's 2007 open/write/close loop (published.md V-openbench, pathwalk.md §5).
// One process per CPU, all files in one shared ramfs directory; each process loops over
// open(O_WRONLY|O_CREAT) of its own file, a 3-byte write and close, then unlinks the file. The
// first open creates the file, so later ones take the existing-file path of do_last.
#include <string>

#include "models/config/limits.hpp"
#include "models/workload/path_param.hpp"
#include "models/workload/workload.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::workload {
namespace {

struct OpenbenchParams {
  std::uint64_t loops = 1u << 16;  // iterations per process (the program's 1<<16)
  Picos user = 0;                  // user-space time per iteration; the only source of user time
  std::string dir = "/mnt/ram";    // the shared ramfs directory (the processes' cwd)
  bool absolute = false;           // open "/mnt/ram/openbench.N" instead of "./openbench.N"
};

class OpenbenchSource final : public CountingSource {
 public:
  OpenbenchSource(const RunControl& c, std::string path, const OpenbenchParams& p)
      : CountingSource(c), path_(std::move(path)), p_(p) {}

 protected:
  bool produce(Syscall& out) override {
    out = Syscall{};
    out.path = path_;
    if (loop_ == p_.loops) {
      if (unlinked_) return false;
      // The program's final unlink: part of the last iteration's operation (see close below).
      out.sys = kernel::Sys::kUnlink;
      out.ends_op = true;
      unlinked_ = true;
      return true;
    }
    switch (step_) {
      case 0:
        out.sys = kernel::Sys::kOpen;
        out.write = true;
        out.create = true;
        out.user_before = p_.user;
        break;
      case 1:
        out.sys = kernel::Sys::kWrite;
        out.bytes = 3;  // write(fd, "foo", 3)
        break;
      default:
        out.sys = kernel::Sys::kClose;
        ++loop_;
        // The last iteration's operation ends with the unlink, so a run that stops after `loops`
        // operations still removes the file.
        out.ends_op = loop_ < p_.loops;
        break;
    }
    step_ = (step_ + 1) % 3;
    return true;
  }

 private:
  std::string path_;
  const OpenbenchParams& p_;
  std::uint64_t loop_ = 0;
  int step_ = 0;
  bool unlinked_ = false;
};

constexpr Param<OpenbenchParams> kParams[] = {
    {"loops", "iterations per process (the program's 1<<16); the file is unlinked after the last",
     [](const config::Node& n, OpenbenchParams& p) {
       p.loops = n.as_uint();
       if (p.loops == 0) n.fail("loops must be at least 1");
     },
     [](const OpenbenchParams& p) -> ParamValue { return p.loops; }},
    {"user_time", "user-space time per iteration (the program's only user time)",
     [](const config::Node& n, OpenbenchParams& p) { p.user = config::operation_time(n); },
     [](const OpenbenchParams& p) -> ParamValue { return time_text(p.user); }},
    {"dir", "the shared ramfs directory, the processes' cwd (absolute)",
     [](const config::Node& n, OpenbenchParams& p) { p.dir = read_absolute_dir(n, "dir", "/mnt/ram"); },
     [](const OpenbenchParams& p) -> ParamValue { return p.dir; }},
    {"absolute_path", "open DIR/openbench.N instead of ./openbench.N",
     [](const config::Node& n, OpenbenchParams& p) { p.absolute = n.as_bool(); },
     [](const OpenbenchParams& p) -> ParamValue { return p.absolute; }},
};

class Openbench final : public PerProcessWorkload {
 public:
  explicit Openbench(OpenbenchParams p) : p_(std::move(p)) {}

  void build(kernel::Vfs& vfs, const std::vector<CpuId>& cpus, const RunControl& control, sim::Rng&) override {
    const kernel::DentryId dir = vfs.mkpath(p_.dir, true, 0u);
    for (std::size_t i = 0; i < cpus.size(); ++i) {
      // The file does not exist yet: the first open creates it on this CPU's node.
      const std::string name = "openbench." + std::to_string(i);
      add(vfs.new_process(cpus[i], dir),
          std::make_unique<OpenbenchSource>(control, p_.absolute ? p_.dir + "/" + name : "./" + name, p_));
    }
  }
  std::string op_unit() const override { return "open/write/close loop"; }
  bool set_user_time(Picos t) override {
    p_.user = t;
    return true;
  }
  ResolvedParams params() const override { return resolve_params<OpenbenchParams>(kParams, p_); }

 private:
  OpenbenchParams p_;
};

std::unique_ptr<Workload> make(const config::Node* params) {
  return std::make_unique<Openbench>(read_params<OpenbenchParams>(kParams, params, "openbench"));
}
std::vector<ParamDoc> describe() { return describe_params<OpenbenchParams>(kParams); }

}  // namespace

const WorkloadKind kOpenbenchKind{
    "openbench", "Dave Hansen's open(O_WRONLY|O_CREAT)/write/close loop in one shared ramfs directory", make, describe};

}  // namespace walksim::workload
