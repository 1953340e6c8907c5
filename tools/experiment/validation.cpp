// Errors are reported as they are: a calibration point is fitted and says so; every other figure
// is a prediction, pass or fail, with the share of it that the fitted parameter supplies.
#include "tools/experiment/validation.hpp"

#include <fmt/core.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

namespace walksim::experiment {

namespace {

const Row* row_of(const ExperimentResult& r, const PublishedPoint& p) {
  for (const auto& row : r.rows) {
    if (row.kernel == p.kernel && row.threads == p.threads) return &row;
  }
  return nullptr;
}

// A path as the repository names it (never the host's absolute path).
std::string relative(const std::string& file, const std::string& base) {
  namespace fs = std::filesystem;
  if (base.empty()) return fs::path(file).filename().string();
  std::error_code ec;
  const fs::path rel = fs::relative(fs::weakly_canonical(file, ec), fs::weakly_canonical(base, ec), ec);
  if (ec || rel.empty() || rel.string().rfind("..", 0) == 0) return fs::path(file).filename().string();
  return rel.string();
}

std::string share_text(const ValidationRow& x) {
  if (x.calibrated_parameter.empty()) return "-";
  return fmt::format("{:.0f}% {}", 100 * x.calibrated_share, x.calibrated_parameter);
}

std::string predicted_text(const ValidationRow& x) {
  if (x.repeats < 2) return fmt::format("{:.4g}", x.predicted);
  return fmt::format("{:.4g} ± {:.2g}", x.predicted, x.predicted_sd);
}

// `progress` with `name` put before each event's phase (nothing, when there is no progress).
Progress prefixed(const Progress& progress, const std::string& name) {
  if (!progress) return {};
  return [progress, name](const ProgressEvent& e) {
    ProgressEvent x = e;
    x.phase = e.phase.empty() ? name : name + " " + e.phase;
    progress(x);
  };
}

// The experiment again with the kernel's private CPU costs scaled by `factor` and every other input
// held: a fitted cpu_cost_scale is held at its fitted value times the factor (fitting it again would
// undo the change); a fitted user time is fitted again, as it would be if the costs were different.
ExperimentResult run_scaled(const ExperimentSpec& spec, const ExperimentResult& base, double factor,
                            const std::string& config_root, unsigned jobs, std::atomic<bool>* cancel,
                            const Progress& progress) {
  ExperimentSpec s = spec;
  s.cost_scale = base.cost_scale * factor;
  if (s.calibrate && s.calibrate->parameter == "cpu_cost_scale") s.calibrate.reset();
  return run_experiment(s, config_root, jobs, progress, cancel);
}

Sensitivity sensitivity_of(double pct, double predicted, double low, double high) {
  Sensitivity x;
  x.pct = pct;
  x.low = low;
  x.high = high;
  const double scale = std::abs(predicted) > 0 ? std::abs(predicted) : 1.0;
  const double moved = std::max(std::abs(low - predicted), std::abs(high - predicted)) / scale;
  x.elasticity = std::isfinite(moved) ? moved / (pct / 100.0) : std::numeric_limits<double>::infinity();
  return x;
}

std::string sensitivity_text(const ValidationRow& x) {
  if (!x.sensitivity) return "-";
  const auto& s = *x.sensitivity;
  const double base = std::abs(x.predicted) > 0 ? std::abs(x.predicted) : 1.0;
  return fmt::format("{:+.0f}%/{:+.0f}%{}", (s.low - x.predicted) / base * 100, (s.high - x.predicted) / base * 100,
                     s.stable() ? "" : " UNSTABLE");
}

// How far `value` is from `base` as a figure of `metric` is compared: in percentage points for
// scaling, relative (%) otherwise. Errors against the published figure and the run-ahead's change
// from the exact prediction are both taken this way.
double change_of(const std::string& metric, double value, double base) {
  if (metric == "scaling_pct") return value - base;
  return (value - base) / base * 100.0;
}

bool within_tolerance(const ValidationRow& x, double error) {
  return std::isfinite(error) && std::abs(error) <= x.tolerance_pct;
}

Approximation approximation_of(const ValidationRow& x, double value) {
  Approximation a;
  a.predicted = value;
  a.error_pct = change_of(x.metric, value, x.published);
  a.pass = within_tolerance(x, a.error_pct);
  a.vs_exact_pct = change_of(x.metric, value, x.predicted);
  return a;
}

std::string approx_text(const ValidationRow& x) {
  if (!x.approx) return "-";
  const auto& a = *x.approx;
  const bool points = x.metric == "scaling_pct";
  return fmt::format("{:.4g} ({:+.1f}{} vs exact, {})", a.predicted, a.vs_exact_pct, points ? "pt" : "%",
                     a.pass ? "pass" : "FAIL");
}

}  // namespace

std::size_t ValidationReport::failures() const {
  std::size_t n = 0;
  for (const auto& x : rows) n += !x.pass;
  return n;
}

std::size_t ValidationReport::approx_failures() const {
  std::size_t n = 0;
  for (const auto& x : rows) n += x.approx && !x.approx->pass;
  return n;
}

ValidationReport run_validation(const std::vector<std::string>& files, const std::string& config_root, unsigned jobs,
                                const std::string& base, std::atomic<bool>* cancel, const Progress& progress,
                                double sensitivity_pct, sim::Picos run_ahead) {
  ValidationReport rep;
  rep.base = base;
  rep.sensitivity_pct = sensitivity_pct;
  rep.run_ahead = run_ahead;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const auto& f = files[i];
    ExperimentSpec spec = load_experiment(f, config_root);
    spec.file = relative(f, base);
    if (run_ahead < 0) spec.run_ahead = run_ahead;  // "off": the exact figures, stepped
    const Progress each = prefixed(progress, fmt::format("{} ({}/{})", spec.name, i + 1, files.size()));
    rep.experiments.push_back(run_experiment(spec, config_root, jobs, each, cancel));
    const auto& res = rep.experiments.back();
    std::optional<ExperimentResult> low, high;
    if (sensitivity_pct > 0) {
      const auto scaled = [&](double factor, const std::string& tag) {
        return run_scaled(spec, res, factor, config_root, jobs, cancel, prefixed(each, tag));
      };
      low = scaled(1 - sensitivity_pct / 100, fmt::format("private costs -{:g}%", sensitivity_pct));
      high = scaled(1 + sensitivity_pct / 100, fmt::format("private costs +{:g}%", sensitivity_pct));
    }
    std::optional<ExperimentResult> approx;
    if (run_ahead > 0) {
      ExperimentSpec a = spec;
      a.run_ahead = run_ahead;
      approx = run_experiment(a, config_root, jobs, prefixed(each, "run-ahead"), cancel);
    }
    for (const auto& p : spec.published) {
      ValidationRow row;
      row.id = spec.name;
      row.machine = spec.machine;
      row.metric = p.metric;
      row.kernel = p.kernel;
      row.threads = p.threads;
      row.published = p.value;
      row.predicted = predicted(res, p);
      if (const Row* r = row_of(res, p)) {
        if (r->has(p.metric)) row.predicted_sd = r->spread(p.metric).sd;
        row.repeats = r->spread("throughput").n;
        if (res.calibration) {
          row.calibrated_parameter = res.calibration->parameter;
          row.calibrated_share = r->value("calibrated_share");
        }
      }
      row.unit = p.unit;
      row.role = p.calibration ? "calibration" : "prediction";
      row.tolerance_pct = p.tolerance_pct;
      row.source = p.source;
      row.error_pct = change_of(row.metric, row.predicted, row.published);
      row.pass = within_tolerance(row, row.error_pct);
      if (approx && std::isfinite(row.predicted)) row.approx = approximation_of(row, predicted(*approx, p));
      // A row with no prediction (a metric the run did not produce) has nothing to move.
      if (low && high && std::isfinite(row.predicted))
        row.sensitivity = sensitivity_of(sensitivity_pct, row.predicted, predicted(*low, p), predicted(*high, p));
      rep.rows.push_back(row);
    }
  }
  return rep;
}

bool has_sensitivity(const ValidationReport& r) { return r.sensitivity_pct > 0; }

std::vector<ExperimentTally> ValidationReport::by_experiment() const {
  std::vector<ExperimentTally> out;
  for (const auto& x : rows) {
    auto it = std::find_if(out.begin(), out.end(), [&](const ExperimentTally& t) { return t.id == x.id; });
    if (it == out.end()) it = out.insert(out.end(), ExperimentTally{x.id, 0, 0});
    ++it->figures;
    it->passed += x.pass;
  }
  return out;
}

namespace {

std::string tally_text(const ValidationReport& r) {
  std::string s;
  for (const auto& t : r.by_experiment())
    s += fmt::format("{}{} {}/{}", s.empty() ? "" : ", ", t.id, t.passed, t.figures);
  return s;
}

}  // namespace

std::size_t ValidationReport::unstable() const {
  std::size_t n = 0;
  for (const auto& x : rows) n += x.sensitivity && !x.sensitivity->stable();
  return n;
}

void print_validation(const ValidationReport& r, std::ostream& out) {
  const bool sens = has_sensitivity(r);
  fmt::print(out, "{:<12} {:<16} {:<14} {:<20} {:>7} {:>10} {:>18} {:>9} {:>20} {:<11} {:>6}", "id", "machine",
             "metric", "kernel", "threads", "published", "predicted", "error", "calibration share", "role", "result");
  if (sens) fmt::print(out, "  {}", fmt::format("private costs -/+{:g}%", r.sensitivity_pct));
  if (r.run_ahead > 0) fmt::print(out, "  run-ahead {:g} ns (approximate)", sim::to_ns(r.run_ahead));
  fmt::print(out, "\n");
  for (const auto& x : r.rows) {
    const bool points = x.metric == "scaling_pct";
    fmt::print(out, "{:<12} {:<16} {:<14} {:<20} {:>7} {:>10.4g} {:>18} {:>8.1f}{} {:>20} {:<11} {:>6}", x.id,
               x.machine, x.metric, x.kernel, x.threads, x.published, predicted_text(x), x.error_pct,
               points ? "pt" : "%", share_text(x), x.role, x.pass ? "pass" : "FAIL");
    if (sens) fmt::print(out, "  {}", sensitivity_text(x));
    if (r.run_ahead > 0) fmt::print(out, "  {}", approx_text(x));
    fmt::print(out, "\n");
  }
  fmt::print(out,
             "{} of {} figures within tolerance (calibration inputs are fitted; the rest are predictions; "
             "calibration share: the part of the point's time spent in the fitted parameter)\n",
             r.rows.size() - r.failures(), r.rows.size());
  fmt::print(out, "by experiment: {}\n", tally_text(r));
  if (sens) {
    fmt::print(out,
               "{} of {} figures UNSTABLE: scaling the kernel's private costs by -/+{:g}% moves the prediction by "
               "more than {:g} times that (a regime boundary: the agreement, good or bad, says little)\n",
               r.unstable(), r.rows.size(), r.sensitivity_pct, Sensitivity::kUnstableElasticity);
  }
  if (r.run_ahead > 0) {
    double worst = 0;
    const ValidationRow* at = nullptr;
    for (const auto& x : r.rows) {
      if (x.approx && std::isfinite(x.approx->vs_exact_pct) && std::abs(x.approx->vs_exact_pct) >= std::abs(worst)) {
        worst = x.approx->vs_exact_pct;
        at = &x;
      }
    }
    fmt::print(out,
               "with run-ahead {:g} ns (an approximation; the results above are exact): {} of {} figures within "
               "tolerance; the largest change from the exact prediction {:+.1f}{}{}\n",
               sim::to_ns(r.run_ahead), r.rows.size() - r.approx_failures(), r.rows.size(), worst,
               at && at->metric == "scaling_pct" ? "pt" : "%",
               at ? fmt::format(" ({} {} x{} {})", at->id, at->kernel, at->threads, at->metric) : "");
  }
}

nlohmann::json validation_json(const ValidationReport& r) {
  nlohmann::json j;
  j["results"] = nlohmann::json::array();
  for (const auto& x : r.rows) {
    nlohmann::json e{{"id", x.id},
                     {"machine", x.machine},
                     {"metric", x.metric},
                     {"kernel", x.kernel},
                     {"threads", x.threads},
                     {"published", x.published},
                     {"predicted", x.predicted},
                     {"predicted_sd", x.predicted_sd},
                     {"repeats", x.repeats},
                     {"error_pct", x.error_pct},
                     {"unit", x.unit},
                     {"role", x.role},
                     {"tolerance_pct", x.tolerance_pct},
                     {"pass", x.pass},
                     {"source", x.source}};
    if (!x.calibrated_parameter.empty()) {
      e["calibrated_parameter"] = x.calibrated_parameter;
      e["calibrated_share"] = x.calibrated_share;
    }
    if (x.approx) {
      const auto& a = *x.approx;
      e["run_ahead"] = {
          {"predicted", a.predicted},
          {"error_pct", std::isfinite(a.error_pct) ? nlohmann::json(a.error_pct) : nlohmann::json()},
          {"vs_exact_pct", std::isfinite(a.vs_exact_pct) ? nlohmann::json(a.vs_exact_pct) : nlohmann::json()},
          {"pass", a.pass}};
    }
    if (x.sensitivity) {
      const auto& s = *x.sensitivity;
      e["sensitivity"] = {{"private_cost_pct", s.pct},
                          {"predicted_low", s.low},
                          {"predicted_high", s.high},
                          {"elasticity", std::isfinite(s.elasticity) ? nlohmann::json(s.elasticity) : nlohmann::json()},
                          {"stable", s.stable()}};
    }
    j["results"].push_back(e);
  }
  j["passed"] = r.rows.size() - r.failures();
  j["figures"] = r.rows.size();
  j["by_experiment"] = nlohmann::json::array();
  for (const auto& t : r.by_experiment()) {
    j["by_experiment"].push_back({{"id", t.id}, {"passed", t.passed}, {"figures", t.figures}});
  }
  if (has_sensitivity(r)) j["unstable"] = r.unstable();
  if (r.run_ahead > 0) {
    j["run_ahead_ps"] = r.run_ahead;
    j["run_ahead_passed"] = r.rows.size() - r.approx_failures();
  }
  return j;
}

std::string validation_markdown(const ValidationReport& r) {
  const bool sens = has_sensitivity(r);
  const std::string command = sens ? fmt::format("walksim validate --write-doc --sensitivity {:g}", r.sensitivity_pct)
                                   : std::string("walksim validate --write-doc");
  std::string md =
      "# Validation\n\n"
      "Generated by `" +
      command +
      "` from `experiments/validation/*.yaml`; do not edit by hand.\n\n"
      "Each row is a published measurement and what walksim predicts for it. A row whose role is\n"
      "*calibration* was an input of the declared fit (named in the experiment's `calibrate:` block):\n"
      "its error is the fit's residual, not evidence. Every other row is a prediction, reported as it\n"
      "is. Errors are relative (%), except for scaling, where they are in percentage points. A prediction\n"
      "is the mean over the experiment's repeats, ± their sample standard deviation. *Calibration share*\n"
      "is the part of the point's simulated time spent in the fitted parameter (dbench's user time, or\n"
      "the kernel's private CPU work): a prediction that is mostly fitted time says little about the model.\n\n"
      "![Every figure: predicted against published, log-log, with the 25% band; calibration inputs circled]"
      "(validation.png)\n\n";
  if (sens) {
    md += fmt::format(
        "*Private costs -/+{0:g}%* is how far each prediction moves when the kernel's private CPU costs are\n"
        "scaled by {1:g} and {2:g}, every other input held (a fitted cpu_cost_scale at its fitted value times\n"
        "the factor, a fitted user time fitted again). A prediction made of private work alone moves by\n"
        "about {0:g}%; one that moves by more than {3:g} times that is marked *unstable*: it sits on a regime\n"
        "boundary (a contended line's owner window won or lost, a convoy formed or not), and its agreement\n"
        "with the published figure, good or bad, says little about the model.\n\n",
        r.sensitivity_pct, 1 - r.sensitivity_pct / 100, 1 + r.sensitivity_pct / 100, Sensitivity::kUnstableElasticity);
  }
  md += std::string(
            "| id | machine | metric | kernel | threads | published | predicted | error | tolerance | "
            "calibration share | role | result |") +
        (sens ? " private costs -/+ |\n" : "\n") + "|---|---|---|---|---|---|---|---|---|---|---|---|" +
        (sens ? "---|\n" : "\n");
  for (const auto& x : r.rows) {
    const bool points = x.metric == "scaling_pct";
    md += fmt::format("| {} | {} | {} | {} | {} | {:.4g} {} | {} {} | {:+.1f}{} | {}{} | {} | {} | {} |", x.id,
                      x.machine, x.metric, x.kernel, x.threads, x.published, x.unit, predicted_text(x), x.unit,
                      x.error_pct, points ? " pt" : "%", x.tolerance_pct, points ? " pt" : "%", share_text(x), x.role,
                      x.pass ? "pass" : "**fail**");
    if (sens) {
      std::string t = sensitivity_text(x);
      const auto u = t.find(" UNSTABLE");
      if (u != std::string::npos) t = t.substr(0, u) + " **unstable**";
      md += " " + t + " |";
    }
    md += "\n";
  }
  md += fmt::format("\n{} of {} figures within tolerance; by experiment: {}.\n", r.rows.size() - r.failures(),
                    r.rows.size(), tally_text(r));
  if (sens) {
    md += fmt::format("{} of {} figures unstable under -/+{:g}% private costs.\n", r.unstable(), r.rows.size(),
                      r.sensitivity_pct);
  }
  md += "\n## Calibrations\n\n";
  for (const auto& e : r.experiments) {
    if (!e.calibration) continue;
    md += fmt::format("- `{}`: `{}` = {:.4f}, fitted (Eigen least squares) to {}; residual {:.2f}%.\n", e.spec.name,
                      e.calibration->parameter, e.calibration->value, e.calibration->fitted_to.front(),
                      e.calibration->residual_pct);
  }
  md += "\n## Sources\n\n";
  for (const auto& e : r.experiments) {
    md += fmt::format("- `{}` (`{}`, {} repeat{}): {}\n", e.spec.name, e.spec.file, e.seeded ? e.spec.repeats : 1,
                      (e.seeded ? e.spec.repeats : 1) == 1 ? "" : "s", e.spec.citation);
    for (const auto& p : e.spec.published)
      md += fmt::format("  - {} {} x{}: {}\n", p.metric, p.kernel, p.threads, p.source);
  }
  return md;
}

}  // namespace walksim::experiment
