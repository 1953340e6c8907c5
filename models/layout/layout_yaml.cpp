#include "models/layout/layout_yaml.hpp"

#include <fmt/core.h>

#include <algorithm>

namespace walksim::layout {
namespace {

std::string quoted(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    if (c == '\n' || c == '\r' || c == '\t') {
      q += ' ';
      continue;
    }
    q += c;
  }
  return q + "\"";
}

// The version words of a banner ("Linux version 6.1.0-57-amd64 (...)" -> "6.1.0-57-amd64").
std::string version_of(const std::string& banner) {
  const std::string prefix = "Linux version ";
  if (banner.rfind(prefix, 0) != 0) return banner;
  const std::size_t end = banner.find(' ', prefix.size());
  return banner.substr(prefix.size(), end == std::string::npos ? std::string::npos : end - prefix.size());
}

std::string member_note(const ImportedField& f) {
  std::string note = f.member;
  if (f.part == Part::kFirstWord) note += " bytes 0-7";
  if (f.part == Part::kAfterFirstWord) note += " bytes 8-" + std::to_string(f.size + 7);
  if (f.in_anonymous) note += " (in an anonymous struct or union)";
  note += fmt::format(", {} byte{}", f.size, f.size == 1 ? "" : "s");
  if (f.member != f.field || f.since != "2.6.20") note += "; " + f.since;
  return note;
}

void sizes_line(std::string& out, const std::vector<std::pair<std::string, std::uint32_t>>& sizes) {
  out += "    sizes: {";
  std::size_t col = 13;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const std::string item = fmt::format("{}: {}", sizes[i].first, sizes[i].second);
    if (i > 0) {
      if (col + item.size() + 2 > 110) {
        out += ",\n            ";
        col = 12;
      } else {
        out += ", ";
        col += 2;
      }
    }
    out += item;
    col += item.size();
  }
  out += "}\n";
}

}  // namespace

std::string imported_kernel_yaml(const ImportedKernel& k, const std::string& name, const std::string& command) {
  const std::string version = version_of(k.kernel);
  std::string out;
  out += "# The struct layouts of " + k.kernel + ",\n";
  out += "# read from its BTF (" + k.btf_path + ") by:\n#   " + command + "\n";
  out += "# Only `layouts:` differs from " + k.base +
         ": every offset and size is the compiler's, as the BTF records it; the\n"
         "# comment after each names the member it came from. Rerun the command rather than editing by hand.\n";
  out += "name: " + name + "\n";
  out += "extends: " + k.base + "\n";
  out +=
      "description: " + quoted("Linux " + version + " struct layouts (from its BTF) on " + k.base + "'s model") + "\n";
  out += "references:\n  - " + quoted("BTF of " + k.kernel) + "\n";
  out += "layouts:\n";
  for (const auto& t : k.types) {
    out += "  " + t.type + ":\n";
    out += fmt::format("    size: {}\n", t.size);
    out += fmt::format("    stride: {}\n", t.stride);
    out += "    source: " +
           quoted("struct " + t.struct_name + " of Linux " + version +
                  " (BTF), x86-64 offsets by the compiler; stride: " + t.stride_source) +
           "\n";
    out += "    offsets:\n";
    std::vector<std::pair<std::string, std::uint32_t>> sizes;
    for (const auto& f : t.fields) {
      out += fmt::format("      {:<22} # {:#5x} line {}: {}\n", fmt::format("{}: {}", f.field, f.offset), f.offset,
                         f.offset / 64, member_note(f));
      sizes.emplace_back(f.field, f.size);
    }
    sizes_line(out, sizes);
    for (const auto& [field, why] : t.left_out) out += "    # left out: " + field + ": " + why + "\n";
  }
  return out;
}

std::string moved_kernel_yaml(const std::string& base, const kernel::ObjectLayout& l, const Move& m,
                              const std::string& name, const std::string& command) {
  std::string out;
  const std::string what = l.type + "." + m.summary();
  out += "# " + base + " with " + what + ", by:\n#   " + command + "\n";
  out +=
      "# A what-if layout: no kernel was built with it. Only the layout of " + l.type + " differs from " + base + ".\n";
  out += "name: " + name + "\n";
  out += "extends: " + base + "\n";
  out += "description: " + quoted(base + " with " + what) + "\n";
  out += "layouts:\n  " + l.type + ":\n";
  std::vector<std::pair<std::string, std::uint32_t>> sizes;
  if (l.slab_packed()) {
    out += fmt::format("    size: {}\n    stride: {}\n", l.size, l.stride);
    out += "    source: " + quoted(l.source + "; what-if (walksim layout move): " + what) + "\n";
    out += "    offsets:\n";
    for (const auto& line : l.lines) {
      for (const auto& f : line) {
        out += fmt::format("      {:<22} # {:#5x} line {}{}\n", fmt::format("{}: {}", f, l.offsets.at(f)),
                           l.offsets.at(f), l.offsets.at(f) / 64,
                           f == m.field                                                          ? " (moved)"
                           : std::find(m.swapped.begin(), m.swapped.end(), f) != m.swapped.end() ? " (swapped)"
                                                                                                 : "");
        if (l.sizes.count(f)) sizes.emplace_back(f, l.sizes.at(f));
      }
    }
  } else {
    if (l.aligned) out += "    aligned: true\n";
    out += "    lines:\n";
    for (std::size_t i = 0; i < l.lines.size(); ++i) {
      std::string fields;
      for (const auto& f : l.lines[i]) {
        fields += (fields.empty() ? "" : ", ") + f;
        if (l.sizes.count(f)) sizes.emplace_back(f, l.sizes.at(f));
      }
      const bool here = std::find(l.lines[i].begin(), l.lines[i].end(), m.field) != l.lines[i].end();
      const bool swapped_here = std::any_of(m.swapped.begin(), m.swapped.end(), [&](const auto& g) {
        return std::find(l.lines[i].begin(), l.lines[i].end(), g) != l.lines[i].end();
      });
      out += fmt::format("      - [{}]{}\n", fields,
                         here           ? "   # " + m.field + " moved here"
                         : swapped_here ? "   # swapped here"
                                        : "");
    }
  }
  if (!sizes.empty()) sizes_line(out, sizes);
  return out;
}

}  // namespace walksim::layout
