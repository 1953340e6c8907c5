#include "tools/experiment/vary.hpp"

#include <fmt/core.h>

#include <map>

namespace walksim::experiment {

namespace {

std::string label_of(const config::Node& v) {
  std::string s = v.as_string();
  return s;
}

}  // namespace

std::vector<Axis> read_vary(const config::Node& vary) {
  if (!vary.is_map() || vary.keys().empty()) {
    vary.fail("expected a mapping of key path (machine.*, kernel.*, workload.params.*) to its list of values");
  }
  std::vector<Axis> axes;
  std::map<std::string, int> last_names;
  for (const std::string& key : vary.keys()) {
    const config::Node v = vary.child(key);
    Axis a;
    a.key = key;
    if (key.rfind("machine.", 0) == 0) {
      a.target = VaryTarget::kMachine;
      a.path = key.substr(8);
    } else if (key.rfind("kernel.", 0) == 0) {
      a.target = VaryTarget::kKernel;
      a.path = key.substr(7);
    } else if (key.rfind("workload.params.", 0) == 0) {
      a.target = VaryTarget::kWorkload;
      a.path = key.substr(16);
      if (a.path.find_first_of(".[") != std::string::npos) {
        v.fail("a workload axis names one parameter: workload.params.NAME");
      }
    } else {
      v.fail("'" + key + "': an axis is a key path starting with machine., kernel. or workload.params.");
    }
    if (a.path.empty()) v.fail("'" + key + "' names no key within its " + key.substr(0, key.find('.')));
    if (v.is_sequence()) {
      for (const config::Node& x : v.elements()) {
        if (!x.is_scalar()) x.fail("a value of an axis is a scalar (a number, a number with a unit, a word)");
        a.values.push_back({x, 1.0, label_of(x), x});
      }
    } else if (v.is_map()) {
      const config::Node s = v.child("scale");
      if (!s.is_sequence()) s.fail("scale: a list of factors of the configuration's own value, as [0.5, 1, 2]");
      for (const config::Node& x : s.elements()) {
        const double f = x.as_double();
        if (!(f > 0 && f <= 1e6)) x.fail("a scale factor is a number above 0 and at most 1e6");
        a.values.push_back({std::nullopt, f, "x" + fmt::format("{:g}", f), x});
      }
    } else {
      v.fail("expected a list of values, or {scale: [factors]}");
    }
    if (a.values.empty()) v.fail("an axis needs at least one value");
    if (a.values.size() > kMaxAxisValues) {
      v.fail(std::to_string(a.values.size()) + " values, above the limit of " + std::to_string(kMaxAxisValues));
    }
    for (std::size_t i = 0; i < a.values.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (a.values[i].label == a.values[j].label)
          a.values[i].at.fail("value '" + a.values[i].label + "' is given twice");
      }
    }
    const auto dot = a.path.find_last_of('.');
    a.name = dot == std::string::npos ? a.path : a.path.substr(dot + 1);
    ++last_names[a.name];
    axes.push_back(std::move(a));
  }
  if (axes.size() > kMaxAxes)
    vary.fail(std::to_string(axes.size()) + " axes, above the limit of " + std::to_string(kMaxAxes));
  std::size_t n = 1;
  for (const Axis& a : axes) n *= a.values.size();
  if (n > kMaxCombinations) {
    vary.fail(std::to_string(n) + " combinations of the axes' values, above the limit of " +
              std::to_string(kMaxCombinations));
  }
  for (Axis& a : axes) {
    if (last_names[a.name] > 1) a.name = a.key;
  }
  return axes;
}

std::vector<std::vector<std::size_t>> combinations(const std::vector<Axis>& axes) {
  std::vector<std::vector<std::size_t>> out{{}};
  for (const Axis& a : axes) {
    std::vector<std::vector<std::size_t>> next;
    for (const auto& c : out) {
      for (std::size_t v = 0; v < a.values.size(); ++v) {
        auto d = c;
        d.push_back(v);
        next.push_back(std::move(d));
      }
    }
    out = std::move(next);
  }
  return out;
}

std::vector<config::Override> overrides_for(const std::vector<Axis>& axes, const std::vector<std::size_t>& combination,
                                            VaryTarget target, const std::string& experiment_file) {
  std::vector<config::Override> out;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const Axis& a = axes[i];
    if (a.target != target) continue;
    const AxisValue& v = a.values[combination[i]];
    out.push_back({a.path, v.value, v.scale, "what-if: " + experiment_file + " vary " + a.key + " = " + v.label, v.at});
  }
  return out;
}

std::optional<config::Node> params_for(const std::vector<Axis>& axes, const std::vector<std::size_t>& combination,
                                       const std::optional<config::Node>& base) {
  std::vector<config::Node> layers;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const Axis& a = axes[i];
    if (a.target != VaryTarget::kWorkload) continue;
    const AxisValue& v = a.values[combination[i]];
    if (v.value) {
      layers.push_back(config::Node::with_entry(a.path, *v.value));
    } else {
      if (!base || !base->has(a.path)) {
        v.at.fail("scale needs workload.params." + a.path + " written in the experiment (its default is not scaled)");
      }
      layers.push_back(base->override_at(a.path, std::nullopt, v.scale, "", v.at));
    }
  }
  if (layers.empty()) return base;
  if (base) layers.push_back(*base);
  return config::Node::layered(layers);
}

std::string combination_label(const std::vector<Axis>& axes, const std::vector<std::size_t>& combination) {
  std::string out;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    out += (i ? " " : "") + axes[i].name + "=" + axes[i].values[combination[i]].label;
  }
  return out;
}

}  // namespace walksim::experiment
