// dbench's accessors for tests and the experiment layer: the loadfile a client of a built dbench
// workload replays.
#pragma once

#include <vector>

#include "models/workload/dbench_loadfile.hpp"
#include "models/workload/workload.hpp"

namespace walksim::workload {

// The loadfile client `client` replays, or nullptr when `w` is not a built dbench workload.
const std::vector<dbench::LoadOp>* dbench_loadfile(const Workload& w, std::size_t client);

}  // namespace walksim::workload
