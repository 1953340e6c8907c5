#include "models/workload/dbench_census.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace walksim::workload::dbench {

std::vector<double> weights(double CensusDir::*column) {
  std::vector<double> w;
  w.reserve(kCensus.size());
  for (const auto& d : kCensus) w.push_back(d.*column);
  return w;
}

std::vector<double> weights_without(double CensusDir::*all, double CensusDir::*part) {
  std::vector<double> w;
  w.reserve(kCensus.size());
  for (const auto& d : kCensus) w.push_back(d.*all - d.*part);
  return w;
}

double census_sum(double CensusDir::*column) {
  double s = 0;
  for (const auto& d : kCensus) s += d.*column;
  return s;
}

std::vector<std::uint64_t> apportion(std::uint64_t total, const std::vector<double>& weights) {
  const double sum = std::accumulate(weights.begin(), weights.end(), 0.0);
  if (weights.empty() || !(sum > 0)) throw std::invalid_argument("apportion: no positive weight");
  std::vector<std::uint64_t> parts(weights.size());
  std::vector<std::pair<double, std::size_t>> remainders;
  std::uint64_t given = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    const double exact = static_cast<double>(total) * weights[i] / sum;
    parts[i] = static_cast<std::uint64_t>(std::floor(exact));
    given += parts[i];
    remainders.emplace_back(exact - std::floor(exact), i);
  }
  // Largest remainder first; ties to the lower index, so the split is the same on every host.
  std::sort(remainders.begin(), remainders.end(),
            [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  for (std::size_t k = 0; given < total; ++k, ++given) ++parts[remainders[k % remainders.size()].second];
  return parts;
}

std::vector<std::size_t> shuffled_indices(const std::vector<std::uint64_t>& counts, sim::Rng& rng) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < counts.size(); ++i) out.insert(out.end(), counts[i], i);
  for (std::size_t k = out.size(); k > 1; --k) std::swap(out[k - 1], out[rng.below(k)]);
  return out;
}

}  // namespace walksim::workload::dbench
