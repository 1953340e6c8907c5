// The registered workloads; each .cpp defines one WorkloadKind constant declared here.
#pragma once

#include "models/workload/workload.hpp"

namespace walksim::workload {

extern const WorkloadKind kStatLoopKind;
extern const WorkloadKind kOpenbenchKind;
extern const WorkloadKind kDbenchKind;
extern const WorkloadKind kGitDiffKind;
extern const WorkloadKind kOpenCloseKind;
extern const WorkloadKind kCreatUnlinkKind;
extern const WorkloadKind kRenameLoopKind;
extern const WorkloadKind kKbuildKind;
extern const WorkloadKind kTraceReplayKind;
extern const WorkloadKind kLockLoopKind;
extern const WorkloadKind kAtomicStressKind;

}  // namespace walksim::workload
