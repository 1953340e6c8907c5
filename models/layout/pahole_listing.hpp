// Test helper: the members of one `pahole -C NAME` listing, by dotted path (members of an anonymous
// union or struct under their own name, those of a named one as "union_name.member"), with the
// offset and size pahole prints. The oracle the BTF reader is checked against.
#pragma once

#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace walksim::layout::testing {

struct PaholeMember {
  unsigned offset = 0;
  unsigned size = 0;
  bool bitfield = false;
};

inline std::map<std::string, PaholeMember> read_pahole(const std::string& path) {
  std::ifstream in(path);
  const std::regex member(R"(^\s*(.+?)\s+\**(\w+)(\[\d+\])?(:\d+)?;\s*/\*\s*(\d+)(:\s*\d+)?\s+(\d+)\s*\*/)");
  const std::regex closing(R"(^\s*\}\s*(\w*);(\s*/\*\s*(\d+)\s+(\d+)\s*\*/)?)");
  std::map<std::string, PaholeMember> out;
  std::vector<std::vector<std::string>> frames;  // the names found inside each open inner aggregate
  std::string line;
  bool first = true;
  while (std::getline(in, line)) {
    if (first) {  // "struct NAME {"
      first = false;
      continue;
    }
    std::smatch m;
    if (std::regex_search(line, m, closing)) {
      if (frames.empty()) break;  // the struct's own "};"
      std::vector<std::string> names = std::move(frames.back());
      frames.pop_back();
      const std::string name = m[1];
      if (!name.empty()) {  // a named union or struct: its members are reached through its name
        std::vector<std::string> renamed{name};
        for (const auto& f : names) {
          auto node = out.extract(f);
          node.key() = name + "." + f;
          renamed.push_back(node.key());
          out.insert(std::move(node));
        }
        if (m[3].matched)
          out[name] = {static_cast<unsigned>(std::stoul(m[3])), static_cast<unsigned>(std::stoul(m[4])), false};
        names = std::move(renamed);
      }
      if (!frames.empty()) frames.back().insert(frames.back().end(), names.begin(), names.end());
      continue;
    }
    if (line.find('{') != std::string::npos) {
      frames.emplace_back();
      continue;
    }
    if (!std::regex_search(line, m, member)) continue;
    const std::string name = m[2];
    out[name] = {static_cast<unsigned>(std::stoul(m[5])), static_cast<unsigned>(std::stoul(m[7])), m[4].matched};
    if (!frames.empty()) frames.back().push_back(name);
  }
  return out;
}

}  // namespace walksim::layout::testing
