// `walksim bench`: fixed scenarios timed on the host. For each: simulated memory operations per
// host second, events per second, simulated time per host second, peak resident memory, and the
// generation floor (the same runs with no timing or coherence) so that overhead = simulate /
// generate says how close the engine is to the limit. Each scenario runs in a child process so
// its peak RSS is its own.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/time.hpp"

namespace walksim::experiment {

struct BenchResult {
  std::string name;
  std::uint64_t mem_ops = 0;
  std::uint64_t events = 0;
  double host_s = 0;   // the simulation loop
  double setup_s = 0;  // configs, machine state and workload built before it
  double mem_ops_per_s = 0;
  double events_per_s = 0;
  double simulated_per_host_s = 0;  // simulated seconds per host second
  double floor_host_s = 0;          // the floor's simulation loop
  std::uint64_t floor_mem_ops = 0;  // the floor's own count (spin-waits depend on timing)
  double floor_mem_ops_per_s = 0;   // the most this scenario could reach with timing for free
  double overhead = 0;              // host_s / floor_host_s
  double peak_rss_mb = 0;
  std::uint64_t lines = 0;
  std::size_t bytes_per_line = 0;
};

std::vector<std::string> bench_scenarios();
// Each scenario and its floor are timed `repeat` times (each in its own child); the fastest of
// each is kept.
// `run_ahead` as RunSpec's: 0 within the machine's exact window (the default), -1 stepped, > 0 an
// approximate window (exec::Executor::set_run_ahead); the floor is the same either way.
std::vector<BenchResult> run_bench(const std::string& config_root, const std::vector<std::string>& only,
                                   unsigned repeat = 1, sim::Picos run_ahead = 0);
nlohmann::json bench_json(const std::vector<BenchResult>& r);
void print_bench(const std::vector<BenchResult>& r, std::ostream& out);

}  // namespace walksim::experiment
