// `walksim run --resume DIR`: every finished point is appended to DIR/points.jsonl (and synced)
// as it finishes, and a run given the same DIR again takes the points already there instead of
// simulating them, so an interrupted sweep continues where it stopped and ends with the results it
// would have had in one go. DIR/experiment.json holds what the points belong to (the experiment
// file, every machine and kernel file, walksim's version); a DIR of another experiment, or of the
// same one after a configuration changed, is refused.
#pragma once

#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "models/workload/simulate.hpp"

namespace walksim::experiment {

class Journal {
 public:
  // Opens (making it if needed) the journal directory `dir` for the run `fingerprint` describes.
  // Throws OutputError when `dir` cannot be used or belongs to another run.
  Journal(const std::string& dir, const std::string& fingerprint);
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  std::optional<workload::RunResult> find(const std::string& key) const;
  void record(const std::string& key, const workload::RunResult& r);
  std::size_t size() const { return points_.size(); }
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
  std::map<std::string, std::string> points_;  // key -> the point's JSON text
  std::FILE* out_ = nullptr;
  mutable std::mutex mutex_;
};

// What a journal's points belong to: the experiment file's text, the text of every machine and
// kernel file of `config_root`, and walksim's version, hashed.
std::string run_fingerprint(const std::string& experiment_file, const std::string& config_root,
                            const std::string& version);

}  // namespace walksim::experiment
