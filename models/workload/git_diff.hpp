// git-diff's helper for experiments: git's preload-index thread rule (to choose the thread count).
#pragma once

#include <cstdint>

#include "models/workload/workload.hpp"

namespace walksim::workload {

// preload-index.c: threads = entries / 500, at most MAX_PARALLEL (20); no threads below 2.
std::uint32_t git_preload_threads(std::uint64_t entries);

}  // namespace walksim::workload
