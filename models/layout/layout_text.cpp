#include "models/layout/layout_text.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <numeric>

namespace walksim::layout {

std::string show_layout(const kernel::ObjectLayout& l) {
  std::string out;
  if (l.slab_packed()) {
    out += fmt::format("struct {} {{  /* size: {:#x} ({}), stride: {:#x} ({}), {} lines of 64 bytes */\n", l.type,
                       l.size, l.size, l.stride, l.stride, (l.size + 63) / 64);
  } else {
    out += fmt::format("struct {} {{  /* {} lines of 64 bytes{}, fields by line (no byte offsets) */\n", l.type,
                       l.lines.size(), l.aligned ? ", each its own machine line" : "");
  }
  for (std::size_t i = 0; i < l.lines.size(); ++i) {
    const std::uint32_t begin = static_cast<std::uint32_t>(64 * i), end = begin + 64;
    out += fmt::format("    /* --- line {} ({:#x}) --- */\n", i, begin);
    std::uint32_t bytes = 0;  // of the line's 64, in sized fields (a field running on counts where it lies)
    if (l.slab_packed()) {
      for (const auto& [f, off] : l.offsets) {
        if (!l.sizes.count(f) || off >= begin) continue;
        const std::uint32_t stop = off + l.sizes.at(f);
        if (stop > begin) {
          out += fmt::format("    /* {} runs on to {:#x} */\n", f, stop);
          bytes += std::min(stop, end) - begin;
        }
      }
    }
    for (const auto& f : l.lines[i]) {
      const bool sized = l.sizes.count(f) > 0;
      if (sized) {
        bytes += l.slab_packed() ? std::min(l.offsets.at(f) + l.sizes.at(f), end) - l.offsets.at(f) : l.sizes.at(f);
      }
      const std::string size = sized ? fmt::format("{:#6x}", l.sizes.at(f)) : std::string("     ?");
      if (l.slab_packed()) {
        out += fmt::format("    {:<24} /* {:#6x} {} */\n", f + ";", l.offsets.at(f), size);
      } else {
        out += fmt::format("    {:<24} /*        {} */\n", f + ";", size);
      }
    }
    if (l.lines[i].empty() && bytes == 0)
      out += "    /* no field the model knows */\n";
    else if (!l.sizes.empty())
      out += fmt::format("    /* {} of 64 bytes in fields the model knows */\n", bytes);
  }
  out += "};\n";
  if (l.slab_packed() && l.stride % 64 != 0) {
    out += fmt::format(
        "/* objects {} bytes apart: only every {}th starts on a line; lines above count from the object's start */\n",
        l.stride, 64 / std::gcd(l.stride, 64u));
  }
  if (!l.source.empty()) out += "/* source: " + l.source + " */\n";
  return out;
}

std::vector<LineChange> diff_layouts(const kernel::KernelSpec& a, const kernel::KernelSpec& b,
                                     const std::optional<std::string>& type) {
  std::vector<LineChange> out;
  for (const auto& [t, la] : a.layouts) {
    if (type && t != *type) continue;
    const auto lb_it = b.layouts.find(t);
    if (lb_it == b.layouts.end()) continue;
    const kernel::ObjectLayout& lb = lb_it->second;
    auto offset = [](const kernel::ObjectLayout& l, const std::string& f) -> std::optional<std::uint32_t> {
      if (!l.slab_packed()) return std::nullopt;
      return l.offsets.at(f);
    };
    for (const auto& line : la.lines) {
      for (const auto& f : line) {
        LineChange c{t, f, la.line_of.at(f), std::nullopt, offset(la, f), std::nullopt};
        if (lb.line_of.count(f)) {
          c.to_line = lb.line_of.at(f);
          c.to_offset = offset(lb, f);
          if (c.to_line == c.from_line) continue;
        }
        out.push_back(c);
      }
    }
    for (const auto& line : lb.lines) {
      for (const auto& f : line) {
        if (!la.line_of.count(f)) out.push_back({t, f, std::nullopt, lb.line_of.at(f), std::nullopt, offset(lb, f)});
      }
    }
  }
  return out;
}

std::string show_diff(const std::vector<LineChange>& changes, const std::string& a, const std::string& b) {
  if (changes.empty()) return fmt::format("no field is on a different line in {} than in {}\n", b, a);
  auto place = [](const std::optional<std::uint32_t>& line, const std::optional<std::uint32_t>& off) {
    if (!line) return std::string("(absent)");
    return off ? fmt::format("line {} ({:#x})", *line, *off) : fmt::format("line {}", *line);
  };
  std::string out = fmt::format("{:<28} {:<20} {:<20}\n", "field", a, b);
  for (const auto& c : changes) {
    out += fmt::format("{:<28} {:<20} {:<20}\n", c.type + "." + c.field, place(c.from_line, c.from_offset),
                       place(c.to_line, c.to_offset));
  }
  return out;
}

}  // namespace walksim::layout
