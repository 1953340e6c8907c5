// git-diff's helpers for the experiment layer: git's preload-index thread rule and the number of
// index entries of a made git-diff workload (to choose the thread count before the run).
#pragma once

#include <cstdint>
#include <optional>

#include "models/workload/workload.hpp"

namespace walksim::workload {

// preload-index.c: threads = entries / 500, at most MAX_PARALLEL (20); no threads below 2.
std::uint32_t git_preload_threads(std::uint64_t entries);

// The index entries (files) of a git-diff workload, or nullopt when `w` is another workload.
std::optional<std::uint64_t> git_diff_entries(const Workload& w);

}  // namespace walksim::workload
