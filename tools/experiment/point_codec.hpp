// One point's simulated result as JSON and back, exactly: doubles are written with the shortest
// text that reads back to the same bits, so a result that went through a journal (--resume) or
// another MPI rank reduces to the same rows, byte for byte, as one that never left the process.
#pragma once

#include <nlohmann/json.hpp>

#include "models/workload/simulate.hpp"

namespace walksim::experiment {

nlohmann::json point_to_json(const workload::RunResult& r);
// Throws std::runtime_error naming the first missing or mistyped field.
workload::RunResult point_from_json(const nlohmann::json& j);

}  // namespace walksim::experiment
