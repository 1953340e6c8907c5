// Loading a config file: one YAML document, no key written twice, and the `extends:` chain merged
// into layers (the reading side is strict_yaml.cpp).
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "models/config/strict_yaml.hpp"
#include "models/config/strict_yaml_state.hpp"

namespace walksim::config {

using yaml_detail::child_path;
using yaml_detail::in_quotes;
using yaml_detail::make_root;
using yaml_detail::to_source_mark;

namespace {

// The line (1-based) at which a second YAML document starts, or 0. yaml-cpp's LoadAll would tell,
// but in the Debian version (0.7) it loops forever, allocating, on some malformed streams (a
// leading ',': jbeder/yaml-cpp#1040, fixed upstream by #1319), so the markers are found in the
// text instead. By the YAML spec a line starting with "---" or "..." followed by a space or the
// end of the line is a document marker wherever it stands (scalars cannot contain one), so after
// the first document's content such a line, or any content after a "...", starts another.
std::size_t second_document_line(const std::string& text) {
  bool content = false, ended = false;
  std::size_t line = 0;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view l(text.data() + at, end - at);
    ++line;
    at = end + 1;
    const bool marker = (l.starts_with("---") || l.starts_with("...")) &&
                        (l.size() == 3 || l[3] == ' ' || l[3] == '\t' || l[3] == '\r');
    const auto first = l.find_first_not_of(" \t\r");
    const bool blank = first == std::string_view::npos || l[first] == '#';
    if (marker) {
      if (l.starts_with("---") && (content || ended)) return line;
      if (l.starts_with("...")) ended = content || ended;
      // "--- value" puts content on the marker's own line
      const auto rest = l.find_first_not_of(" \t\r", 3);
      if (rest != std::string_view::npos && l[rest] != '#') {
        if (ended) return line;
        content = true;
      }
    } else if (!blank && !(l[0] == '%' && !content)) {  // a directive before the content is not content
      if (ended) return line;
      content = true;
    }
  }
  return 0;
}

// Every mapping of the document, however deep and whether or not a loader reads it: a key written
// twice is an error naming both places (yaml-cpp keeps both and a lookup would take one silently).
void check_duplicate_keys(const YAML::Node& node, const std::string& file, const std::string& path) {
  if (node.IsSequence()) {
    for (std::size_t i = 0; i < node.size(); ++i) {
      check_duplicate_keys(node[i], file, path + "[" + std::to_string(i) + "]");
    }
    return;
  }
  if (!node.IsMap()) return;
  std::map<std::string, YAML::Mark> seen;
  for (auto it = node.begin(); it != node.end(); ++it) {
    if (!it->first.IsScalar()) continue;  // finish() names a non-scalar key
    const std::string& k = it->first.Scalar();
    const auto [first, inserted] = seen.emplace(k, it->first.Mark());
    if (!inserted) {
      const SourceMark was = to_source_mark(file, first->second);
      throw ConfigError(to_source_mark(file, it->first.Mark()), child_path(path, k),
                        "duplicate key " + in_quotes(k) + ": it is also written at line " + std::to_string(was.line) +
                            ", column " + std::to_string(was.column) + " (write each key once)");
    }
    check_duplicate_keys(it->second, file, child_path(path, k));
  }
}

}  // namespace

Node load_string(const std::string& text, const std::string& file_name) {
  YAML::Node document;
  try {
    document = YAML::Load(text);
  } catch (const YAML::DeepRecursion& e) {
    // yaml-cpp's own guard against stack exhaustion; its message is only "bad file".
    throw ConfigError(to_source_mark(file_name, e.mark), "",
                      "lists and mappings are nested too deeply (" + std::to_string(e.depth()) +
                          " levels; a config file needs a handful)");
  } catch (const YAML::ParserException& e) {
    throw ConfigError(to_source_mark(file_name, e.mark), "", "YAML syntax error: " + e.msg);
  } catch (const std::bad_alloc&) {
    throw ConfigError(SourceMark{file_name, 0, 0}, "",
                      "out of memory while parsing the YAML (" + std::to_string(text.size()) + " bytes)");
  }
  // Everything after a second `---` would otherwise be ignored without a word.
  if (const std::size_t line = second_document_line(text)) {
    throw ConfigError(SourceMark{file_name, static_cast<int>(line), 1}, "",
                      "a second YAML document starts here; a config file holds one document: remove the '---' "
                      "line that starts it (or merge the two)");
  }
  check_duplicate_keys(document, file_name, "");
  return Node(make_root(document, file_name));
}

Node load_file(const std::string& path) {
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::is_regular_file(st)) {
    std::string why = "not a regular file";
    if (ec == std::errc::too_many_symbolic_link_levels) {
      why = "too many levels of symbolic links (a symbolic link loop?)";
    } else if (ec == std::errc::no_such_file_or_directory || st.type() == std::filesystem::file_type::not_found) {
      why = "file not found";
    } else if (ec) {
      why = "cannot read: " + ec.message();
    }
    throw ConfigError(SourceMark{path, 0, 0}, "", why);
  }
  std::ifstream in(path);
  if (!in) throw ConfigError(SourceMark{path, 0, 0}, "", "cannot open file for reading");
  std::ostringstream text;
  text << in.rdbuf();
  return load_string(text.str(), path);
}

Node load_with_extends(const std::string& path, const ExtendsResolver& resolve, const LayerCheck& check_layer) {
  namespace fs = std::filesystem;
  std::vector<Node> layers;
  std::vector<std::string> chain_files;  // canonical, to detect cycles however a file is named
  std::vector<std::string> chain_names;  // stems, for the message
  std::string current = path;
  while (true) {
    Node layer = load_file(current);
    if (!layer.is_map()) layer.fail("expected a mapping at the top of the file");
    if (check_layer) check_layer(layer);
    layers.push_back(layer);
    chain_files.push_back(fs::weakly_canonical(current).string());
    chain_names.push_back(fs::path(current).stem().string());
    const std::optional<Node> ext = layer.optional("extends");
    if (!ext) break;
    const std::string next = resolve(ext->as_string(), *ext);
    const std::string canonical = fs::weakly_canonical(next).string();
    const auto seen = std::find(chain_files.begin(), chain_files.end(), canonical);
    if (seen != chain_files.end()) {
      std::string cycle;
      for (auto i = static_cast<std::size_t>(seen - chain_files.begin()); i < chain_names.size(); ++i) {
        cycle += chain_names[i] + " -> ";
      }
      ext->fail("cyclic extends: " + cycle + fs::path(next).stem().string());
    }
    current = next;
  }
  Node root = Node::layered(layers);
  root.consume("extends");
  return root;
}

}  // namespace walksim::config
