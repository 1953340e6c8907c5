// What `walksim run` and `walksim validate` show while they simulate (stderr). On a terminal: one
// line, redrawn, with the points done of the total, the point each worker is running and an
// estimate of the time left; otherwise a plain line per finished point, which a log keeps.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <ostream>
#include <string>

#include "tools/experiment/runner.hpp"

namespace walksim::experiment {

class ProgressLine {
 public:
  using Clock = std::function<double()>;  // seconds, monotonic
  // `redraw`: a terminal (one line, redrawn, at most `width` characters); else plain lines.
  ProgressLine(std::ostream& out, bool redraw, std::size_t width = 100, Clock clock = {});
  void on(const ProgressEvent& e);
  // Clears a redrawn line (before the summary is printed).
  void finish();
  // "1m05s", "12s", "2h03m".
  static std::string duration(double seconds);

 private:
  std::string line(const ProgressEvent& e) const;
  std::ostream& out_;
  bool redraw_;
  std::size_t width_;
  Clock clock_;
  double start_ = 0;
  std::string phase_;
  std::map<unsigned, std::string> running_;  // by worker
  bool drawn_ = false;
};

}  // namespace walksim::experiment
