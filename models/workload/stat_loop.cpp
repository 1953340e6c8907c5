// stat-loop: N processes (or N threads sharing one fs_struct) calling stat or lstat in a loop on a
// path of k components below a shared working directory; the file private to each process or
// shared by all. The V-stat workload (published.md) is stat("./file") in one process.
#include <string>

#include "models/config/limits.hpp"
#include "models/workload/cyclic_source.hpp"
#include "models/workload/path_param.hpp"
#include "models/workload/workload.hpp"
#include "models/workload/workload_registry.hpp"

namespace walksim::workload {
namespace {

struct StatLoopParams {
  std::uint32_t components = 1;  // k: "./file" is 1, "./d1/file" is 2
  bool shared_file = false;
  bool threads = false;  // CLONE_FS threads of one process instead of processes
  bool lstat = false;
  Picos user = 0;  // user-space work per iteration (the loop itself)
  std::string cwd = "/home/user";
  // The file's name; its length decides whether the lookup reads the inline name past its first
  // word (d_iname_tail), which layouts put on a different line than d_name.
  std::string file_name = "file";
};

std::string read_file_name(const config::Node& n) {
  std::string name = n.as_string();
  if (name.empty() || name.size() > 200 || name == "." || name == ".." ||
      name.find_first_of(std::string("/\0", 2)) != std::string::npos) {
    n.fail(
        "file_name must be one path component of 1..200 bytes, not '.', '..' or containing '/' (e.g. "
        "willitscale.Xa3fQz)");
  }
  return name;
}

constexpr Param<StatLoopParams> kParams[] = {
    {"path_components", "k, the components of the path stat'ed: ./file is 1, ./d1/file is 2 (1..64)",
     [](const config::Node& n, StatLoopParams& p) { p.components = read_count(n, "path_components", 1, 64); },
     [](const StatLoopParams& p) -> ParamValue { return std::uint64_t{p.components}; }},
    {"shared_file", "whether every process stats one shared file instead of its own",
     [](const config::Node& n, StatLoopParams& p) { p.shared_file = n.as_bool(); },
     [](const StatLoopParams& p) -> ParamValue { return p.shared_file; }},
    {"threads", "CLONE_FS threads of one process (one shared fs_struct) instead of processes",
     [](const config::Node& n, StatLoopParams& p) { p.threads = n.as_bool(); },
     [](const StatLoopParams& p) -> ParamValue { return p.threads; }},
    {"call", "stat or lstat",
     [](const config::Node& n, StatLoopParams& p) {
       p.lstat = n.as_choice({"stat", "lstat"}) == 1;
     },
     [](const StatLoopParams& p) -> ParamValue { return std::string(p.lstat ? "lstat" : "stat"); }},
    {"user_time", "user-space time per call (the loop itself)",
     [](const config::Node& n, StatLoopParams& p) { p.user = config::operation_time(n); },
     [](const StatLoopParams& p) -> ParamValue { return time_text(p.user); }},
    {"cwd", "the shared working directory (absolute)",
     [](const config::Node& n, StatLoopParams& p) { p.cwd = read_absolute_dir(n, "cwd", "/home/user"); },
     [](const StatLoopParams& p) -> ParamValue { return p.cwd; }},
    {"file_name", "the file's name (each process's own file gets its number appended)",
     [](const config::Node& n, StatLoopParams& p) { p.file_name = read_file_name(n); },
     [](const StatLoopParams& p) -> ParamValue { return p.file_name; }},
};

class StatLoop final : public PerProcessWorkload {
 public:
  explicit StatLoop(StatLoopParams p) : p_(std::move(p)) {}

  void build(kernel::Vfs& vfs, const std::vector<CpuId>& cpus, const RunControl& control, sim::Rng&) override {
    const kernel::DentryId cwd = vfs.mkpath(p_.cwd, true, 0u);
    std::string dirs;
    for (std::uint32_t i = 1; i < p_.components; ++i) dirs += "d" + std::to_string(i) + "/";
    const kernel::DentryId dir = dirs.empty() ? cwd : vfs.mkpath(p_.cwd + "/" + dirs, true, 0u);
    std::optional<kernel::ObjId> fs;
    if (p_.threads) fs = vfs.new_object("fs_struct", "fs_struct (shared by the threads)", true, 0u);
    for (std::size_t i = 0; i < cpus.size(); ++i) {
      const auto node = vfs.machine().node_of(vfs.machine().core_of(cpus[i]));
      const std::string name = p_.shared_file ? p_.file_name : p_.file_name + std::to_string(i);
      if (!vfs.child(dir, name)) vfs.add_dentry(dir, name, false, p_.shared_file, node);
      add(vfs.new_process(cpus[i], cwd, fs),
          std::make_unique<CyclicSource>(
              control, std::vector{loop_call(p_.lstat ? kernel::Sys::kLstat : kernel::Sys::kStat, "./" + dirs + name)},
              p_.user));
    }
  }
  std::string op_unit() const override { return p_.lstat ? "lstat" : "stat"; }
  bool set_user_time(Picos t) override {
    p_.user = t;
    return true;
  }
  ResolvedParams params() const override { return resolve_params<StatLoopParams>(kParams, p_); }

 private:
  StatLoopParams p_;
};

std::unique_ptr<Workload> make(const config::Node* params) {
  return std::make_unique<StatLoop>(read_params<StatLoopParams>(kParams, params, "stat-loop"));
}
std::vector<ParamDoc> describe() { return describe_params<StatLoopParams>(kParams); }

}  // namespace

const WorkloadKind kStatLoopKind{.name = "stat-loop",
                                 .summary = "stat/lstat in a loop on a k-component path below a shared cwd",
                                 .make = make,
                                 .describe = describe,
                                 .seeded = false,
                                 .may_sleep = false};

}  // namespace walksim::workload
