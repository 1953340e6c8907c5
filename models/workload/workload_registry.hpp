// The registered workloads; each .cpp defines one WorkloadKind constant declared here.
#pragma once

#include "models/workload/workload.hpp"

namespace walksim::workload {

extern const WorkloadKind kStatLoopKind;

}  // namespace walksim::workload
