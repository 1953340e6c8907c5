#include "tools/experiment/progress_line.hpp"

#include <fmt/core.h>

#include <cmath>

namespace walksim::experiment {

ProgressLine::ProgressLine(std::ostream& out, bool redraw, std::size_t width, Clock clock)
    : out_(out), redraw_(redraw), width_(std::max<std::size_t>(width, 40)), clock_(std::move(clock)) {
  if (!clock_) {
    clock_ = [] { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); };
  }
  start_ = clock_();
}

std::string ProgressLine::duration(double s) {
  if (!std::isfinite(s) || s < 0) return "?";
  const auto t = static_cast<long long>(std::llround(s));
  if (t < 60) return fmt::format("{}s", t);
  if (t < 3600) return fmt::format("{}m{:02}s", t / 60, t % 60);
  return fmt::format("{}h{:02}m", t / 3600, (t % 3600) / 60);
}

std::string ProgressLine::line(const ProgressEvent& e) const {
  const double elapsed = clock_() - start_;
  // Points differ in cost, so this is a rough guide: the time per point so far, times the points left.
  const std::string eta =
      e.done == 0 ? "eta ?"
                  : "eta " + duration(elapsed / static_cast<double>(e.done) * static_cast<double>(e.total - e.done));
  std::string s = fmt::format("{}[{}/{}] {} ", e.phase.empty() ? "" : e.phase + " ", e.done, e.total, eta);
  for (const auto& [w, point] : running_) s += "| " + point + " ";
  if (s.size() > width_) s = s.substr(0, width_ - 3) + "...";
  return s;
}

void ProgressLine::on(const ProgressEvent& e) {
  if (e.phase != phase_) {
    // A new experiment (validate) or the calibration's end: the estimate starts again.
    phase_ = e.phase;
    start_ = clock_();
    running_.clear();
  }
  if (e.started) {
    running_[e.worker] = (e.where.empty() ? std::to_string(e.worker) : e.where) + ": " + e.point;
  } else {
    running_.erase(e.worker);
  }
  if (redraw_) {
    out_ << "\r" << line(e) << "\x1b[K" << std::flush;
    drawn_ = true;
  } else if (!e.started) {
    out_ << fmt::format("walksim: {}[{}/{}] {} done{}, {} elapsed\n", e.phase.empty() ? "" : e.phase + " ", e.done,
                        e.total, e.point, e.where.empty() ? "" : " on " + e.where, duration(clock_() - start_))
         << std::flush;
  }
}

void ProgressLine::finish() {
  if (redraw_ && drawn_) out_ << "\r\x1b[K" << std::flush;
  drawn_ = false;
}

}  // namespace walksim::experiment
