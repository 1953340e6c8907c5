#include "models/workload/apportion.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

namespace walksim::workload {

std::vector<std::uint64_t> apportion(std::uint64_t total, const std::vector<double>& weights, std::uint64_t min_each) {
  const double sum = std::accumulate(weights.begin(), weights.end(), 0.0);
  const std::uint64_t base = min_each * weights.size();
  if (total < base)
    throw std::invalid_argument("cannot split " + std::to_string(total) + " over " + std::to_string(weights.size()) +
                                " parts");
  const double rest = static_cast<double>(total - base);
  std::vector<std::uint64_t> out(weights.size());
  std::vector<std::pair<double, std::size_t>> frac;
  std::uint64_t given = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    const double x = sum > 0 ? rest * weights[i] / sum : 0;
    out[i] = min_each + static_cast<std::uint64_t>(std::floor(x));
    given += out[i];
    frac.emplace_back(x - std::floor(x), i);
  }
  std::sort(frac.begin(), frac.end(),
            [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  for (std::size_t k = 0; given < total; ++k, ++given) ++out[frac[k % frac.size()].second];
  return out;
}

}  // namespace walksim::workload
