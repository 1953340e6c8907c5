// Splitting a count over parts in given proportions, exactly (largest remainders).
#pragma once

#include <cstdint>
#include <vector>

namespace walksim::workload {

// Splits `total` in proportion to `weights`, each part at least `min_each`, summing exactly: the
// parts' whole shares first, then one more to the largest remainders (ties to the lower index, so
// the split is the same on every host). Throws if `total` is less than min_each per part.
std::vector<std::uint64_t> apportion(std::uint64_t total, const std::vector<double>& weights,
                                     std::uint64_t min_each = 0);

}  // namespace walksim::workload
