#include "models/workload/dbench_census.hpp"

#include <utility>

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

std::vector<std::size_t> shuffled_indices(const std::vector<std::uint64_t>& counts, sim::Rng& rng) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < counts.size(); ++i) out.insert(out.end(), counts[i], i);
  for (std::size_t k = out.size(); k > 1; --k) std::swap(out[k - 1], out[rng.below(k)]);
  return out;
}

}  // namespace walksim::workload::dbench
