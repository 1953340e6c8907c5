// Adding a workload: one class in its own .cpp, its WorkloadKind declared in
// workload_registry.hpp, and one line below.
#include "models/workload/workload_registry.hpp"

namespace walksim::workload {

const std::vector<WorkloadKind>& workload_kinds() {
  static const std::vector<WorkloadKind> kinds{
      kStatLoopKind,   kOpenbenchKind, kDbenchKind,      kGitDiffKind,  kOpenCloseKind,    kCreatUnlinkKind,
      kRenameLoopKind, kKbuildKind,    kTraceReplayKind, kLockLoopKind, kAtomicStressKind,
  };
  return kinds;
}

const WorkloadKind& find_workload(const std::string& name, const config::Node& at) {
  std::vector<std::string> names;
  for (const auto& k : workload_kinds()) {
    if (k.name == name) return k;
    names.emplace_back(k.name);
  }
  at.fail("unknown workload '" + name + "'" + config::did_you_mean(name, names) +
          "; valid workloads: " + config::quoted_list(names));
}

}  // namespace walksim::workload
