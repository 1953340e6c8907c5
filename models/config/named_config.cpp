// Name lookup, `extends:` resolution beside the naming file, and the name-equals-stem rule.
#include "models/config/named_config.hpp"

#include <filesystem>
#include <optional>
#include <set>

namespace walksim::config {
namespace {

namespace fs = std::filesystem;
constexpr std::string_view kExtension = ".yaml";

std::string in_quotes(const std::string& s) { return "'" + s + "'"; }

bool looks_like_path(const std::string& s) {
  return s.find('/') != std::string::npos ||
         (s.size() > kExtension.size() && s.compare(s.size() - kExtension.size(), kExtension.size(), kExtension) == 0);
}

std::optional<std::string> find_named(const std::string& name, const std::vector<std::string>& dirs) {
  for (const std::string& dir : dirs) {
    const fs::path p = fs::path(dir) / (name + std::string(kExtension));
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) return p.string();
  }
  return std::nullopt;
}

std::string unknown_message(const std::string& kind, const std::string& name, const std::vector<std::string>& dirs) {
  const std::vector<std::string> known = list_named(dirs);
  std::string searched;
  for (const std::string& d : dirs) searched += (searched.empty() ? "" : ", ") + d;
  return "unknown " + kind + " " + in_quotes(name) + did_you_mean(name, known) + "; available " + kind +
         "s: " + (known.empty() ? std::string("none") : quoted_list(known)) +
         " (searched: " + (searched.empty() ? std::string("no directories") : searched) + ")";
}

}  // namespace

NamedConfig load_named(const std::string& kind, const std::string& name_or_path, const std::vector<std::string>& dirs,
                       const std::vector<Override>& overrides) {
  if (!overrides.empty()) {
    NamedConfig base = load_named(kind, name_or_path, dirs);
    std::vector<Node> layers;
    layers.reserve(overrides.size() + 1);
    for (const Override& o : overrides) {
      // Each override is found against a root of its own (looking keys up marks them asked).
      layers.push_back(load_named(kind, name_or_path, dirs).root.override_at(o.path, o.value, o.scale, o.source, o.at));
    }
    layers.push_back(base.root);
    Node root = Node::layered(layers);
    root.consume("extends");
    return {root, base.path};
  }
  std::string path = name_or_path;
  if (!looks_like_path(name_or_path)) {
    const std::optional<std::string> found = find_named(name_or_path, dirs);
    if (!found) throw ConfigError(SourceMark{}, "", unknown_message(kind, name_or_path, dirs));
    path = *found;
  }
  // A parent named in `extends:` is looked for beside the file naming it, then in the search dirs.
  const ExtendsResolver resolve = [&](const std::string& name, const Node& at) {
    std::vector<std::string> search{fs::path(at.file()).parent_path().string()};
    if (search.front().empty()) search.front() = ".";
    search.insert(search.end(), dirs.begin(), dirs.end());
    const std::optional<std::string> found = find_named(name, search);
    if (!found) at.fail(unknown_message(kind, name, search));
    return *found;
  };
  // Every file in the chain names itself, so that `extends: x` and `--KIND x` mean one file.
  const LayerCheck check_name = [](const Node& layer) {
    const Node name = layer.child("name");
    const std::string stem = fs::path(layer.file()).stem().string();
    if (name.as_string() != stem) {
      name.fail("name " + in_quotes(name.as_string()) + " must equal the file name stem " + in_quotes(stem));
    }
  };
  return {load_with_extends(path, resolve, check_name), path};
}

std::vector<std::string> list_named(const std::vector<std::string>& dirs) {
  std::set<std::string> names;
  for (const std::string& dir : dirs) {
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      if (it->is_regular_file(ec) && it->path().extension() == kExtension) names.insert(it->path().stem().string());
    }
  }
  return {names.begin(), names.end()};
}

}  // namespace walksim::config
