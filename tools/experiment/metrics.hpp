// The metrics of an experiment, in one table. Each metric has one name everywhere (results.json's
// rows and spreads, results.csv, `published:`), one way to read it from a run, and one rule for
// combining the repeats of a point. The reduction, the writers, the validation and the
// calibration fit all iterate this table; adding a metric is one line here (and, when the run does
// not compute it yet, one field of workload::RunResult).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tools/experiment/experiment_spec.hpp"

namespace walksim::experiment {

// What one run gives a metric to read from.
struct MetricInput {
  const ExperimentSpec& spec;
  const workload::RunResult& run;
  const std::string& calibrated;  // the calibrated parameter, "" without a calibration
};

enum class MetricUnit {
  kThroughput,  // the workload's: MB/s when it reports bytes, else "<op>/s"
  kOpRate,      // "<op>/s"
  kNs,
  kSeconds,
  kPercent,
  kCount,
  kFraction,
};

enum class Aggregate {
  kMean,     // the mean over the repeats, with its spread (sd, min, max, n)
  kSum,      // summed over the repeats (event counts)
  kMax,      // the largest over the repeats
  kScaling,  // derived from `of`: its mean at N threads over N times its mean at the kernel's
             // smallest thread count, in %; each repeat scaled by the same base, so it has a spread
};

// When a row carries the metric.
enum class Carried {
  kAlways,
  kWithCalibration,  // only when the experiment fits a parameter
};

struct MetricDef {
  const char* name;
  MetricUnit unit;
  Aggregate aggregate;
  double (*extract)(const MetricInput&);  // one run's value; null for kScaling
  const char* of;                         // kScaling: the metric it scales; else null
  bool validatable;                       // may be the metric of a `published:` point
  bool rate;                              // the inverse of a time: a calibration fits its inverse
  Carried carried;
  const char* doc;
};

// Every metric, in the order results.csv lists them.
std::span<const MetricDef> metric_defs();

// The metric called `name`, or null.
const MetricDef* find_metric(std::string_view name);

// The names `published:` accepts, in table order.
std::vector<std::string> validatable_metrics();

// The unit text of a metric for a workload that reports in `throughput_unit` and counts `op_unit`.
std::string unit_text(MetricUnit u, const std::string& throughput_unit, const std::string& op_unit);

// One run's value of a metric that has an extractor (calibration fit; rows use the same call).
double metric_value(const MetricDef& m, const MetricInput& in);

}  // namespace walksim::experiment
