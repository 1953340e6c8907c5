#include "models/layout/layout_move.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>

#include "models/config/strict_yaml.hpp"
#include "models/kernel/kernel_loader.hpp"
#include "models/kernel/object_fields.hpp"
#include "models/layout/btf_file.hpp"

namespace walksim::layout {
namespace {

// Natural alignment from the size alone (the type is not known): the largest power of two that
// divides it, at most a word. A 16-byte qstr aligns to 8, a 4-byte int to 4, a 24-byte array to 8.
std::uint32_t alignment_of(std::uint32_t size) {
  std::uint32_t a = 1;
  while (a < 8 && size % (a * 2) == 0) a *= 2;
  return a;
}

std::uint32_t round_up(std::uint32_t v, std::uint32_t to) { return (v + to - 1) / to * to; }

void need_size(const kernel::ObjectLayout& l, const std::string& f) {
  if (!l.sizes.count(f)) {
    throw LayoutError("the layout of " + l.type + " gives no size for '" + f +
                      "', so whether a line has room cannot be checked: add it under `sizes:` (walksim layout "
                      "import writes every field's size)");
  }
}

void need_field(const kernel::ObjectLayout& l, const std::string& f) {
  if (l.line_of.count(f)) return;
  std::vector<std::string> names;
  for (const auto& [name, line] : l.line_of) names.push_back(name);
  throw LayoutError("the layout of " + l.type + " has no field '" + f + "'" + config::did_you_mean(f, names) +
                        "; its fields: " + config::quoted_list(names),
                    "--field");
}

std::string occupancy(const kernel::ObjectLayout& l, std::uint32_t line) {
  std::string s;
  if (line >= l.lines.size()) return "nothing";
  for (const auto& f : l.lines[line]) {
    s += (s.empty() ? "" : ", ") + f;
    if (l.slab_packed())
      s += fmt::format(" {}+{}", l.offsets.at(f), l.sizes.at(f));
    else
      s += fmt::format(" ({})", l.sizes.at(f));
  }
  return s.empty() ? "nothing" : s;
}

bool overlaps_any(const kernel::ObjectLayout& l, std::uint32_t at, std::uint32_t size,
                  const std::set<std::string>& skip) {
  for (const auto& [f, o] : l.offsets) {
    if (skip.count(f) || !l.sizes.count(f)) continue;
    if (at < o + l.sizes.at(f) && o < at + size) return true;
  }
  return false;
}

// The stride the layout's cache gives a struct grown to `size`, by the rule its present stride
// shows: SLUB's 8-byte rounding, that plus an outside free pointer, or the 64-byte line. Where two
// rules give the present stride (56 bytes in 64), the caller's --stride decides.
std::uint32_t grown_stride(const kernel::ObjectLayout& l, std::uint32_t size) {
  if (l.stride == round_up(l.size, 8)) return round_up(size, 8);
  if (l.stride == round_up(l.size, 8) + 8) return round_up(size, 8) + 8;
  if (l.stride == round_up(l.size, 64)) return round_up(size, 64);
  return round_up(size, 8) + (l.stride - round_up(l.size, 8));
}

// The lines a field can go to: those of the struct's bytes, or (lines only) one new line after the last.
void need_line_in_struct(const kernel::ObjectLayout& l, std::uint32_t to_line) {
  const std::uint32_t lines = l.slab_packed() ? (l.size + 63) / 64 : static_cast<std::uint32_t>(l.lines.size()) + 1;
  if (to_line >= lines || to_line >= kernel::kMaxLayoutLines) {
    throw LayoutError(fmt::format("line {} is beyond {} ({}: lines 0..{}{})", to_line, l.type,
                                  l.slab_packed() ? fmt::format("{} bytes", l.size) : "a layout of lines", lines - 1,
                                  l.slab_packed() ? "" : ", the last a new one"));
  }
}

// What a refusal for want of room suggests instead.
std::string other_ways(const kernel::ObjectLayout& l) {
  return l.slab_packed() ? "swap it with fields of that line (--swap-with) or let the struct grow (--grow)"
                         : "swap it with fields of that line (--swap-with)";
}

// A layout of lines: the field joins the target line's list if the sizes there leave it room.
kernel::ObjectLayout move_in_lines(const kernel::ObjectLayout& layout, const std::string& field,
                                   std::uint32_t from_line, std::uint32_t to_line) {
  const std::uint32_t size = layout.sizes.at(field);
  std::uint32_t used = 0;
  if (to_line < layout.lines.size()) {
    for (const auto& f : layout.lines[to_line]) used += layout.sizes.at(f);
  }
  if (used + size > 64) {
    throw LayoutError(fmt::format("line {} of {} has {} of the {} bytes {} needs (it holds {}): {}", to_line,
                                  layout.type, 64 - used, size, field, occupancy(layout, to_line), other_ways(layout)));
  }
  kernel::ObjectLayout moved = layout;
  auto& from = moved.lines[from_line];
  from.erase(std::find(from.begin(), from.end(), field));
  if (to_line == moved.lines.size()) moved.lines.emplace_back();
  moved.lines[to_line].push_back(field);
  moved.line_of[field] = to_line;
  moved.index();
  return moved;
}

// With byte offsets: the first place on the line, at the field's alignment, that no other field covers.
std::optional<std::uint32_t> free_place(const kernel::ObjectLayout& l, const std::string& field,
                                        std::uint32_t to_line) {
  const std::uint32_t size = l.sizes.at(field);
  const std::uint32_t align = alignment_of(size);
  const std::uint32_t begin = 64 * to_line;
  const std::uint32_t end = std::min(begin + 64, l.size);
  for (std::uint32_t at = begin; at + size <= end; at += align) {
    if (!overlaps_any(l, at, size, {field})) return at;
  }
  return std::nullopt;
}

// --grow, when the line has no free place: the field inserted on it, the bytes after it moved down
// by its size (rounded to 8), the struct and its stride larger.
kernel::ObjectLayout grow_into_line(const kernel::ObjectLayout& layout, const std::string& field, std::uint32_t to_line,
                                    std::optional<std::uint32_t> stride, Move& done) {
  const std::uint32_t size = layout.sizes.at(field);
  const std::uint32_t align = alignment_of(size);
  const std::uint32_t begin = 64 * to_line;
  // The last boundary on the line where the field still ends on it: fields from there on move down.
  std::optional<std::uint32_t> at;
  for (const auto& [f, o] : layout.offsets) {
    if (f == field || kernel::continues_previous_field(f) || o < begin || o + size > begin + 64 || o % align != 0)
      continue;
    if (!at || o > *at) at = o;
  }
  if (!at) {
    throw LayoutError(fmt::format("line {} of {} has no field boundary where {} bytes fit before the line ends",
                                  to_line, layout.type, size));
  }
  kernel::ObjectLayout moved = layout;
  const std::uint32_t shift = round_up(size, 8);
  moved.size = layout.size + shift;
  moved.stride = stride ? *stride : grown_stride(layout, moved.size);
  if (moved.stride < moved.size || moved.stride % 8 != 0 || moved.stride > 64 * kernel::kMaxLayoutLines) {
    throw LayoutError(fmt::format("a stride of {} bytes does not hold the grown {}-byte struct (a multiple of 8, at "
                                  "most {})",
                                  moved.stride, moved.size, 64 * kernel::kMaxLayoutLines),
                      "--stride");
  }
  for (auto& [f, o] : moved.offsets) {
    if (f != field && o >= *at) o += shift;
  }
  moved.offsets[field] = *at;
  done.to_offset = *at;
  done.grew_by = shift;
  done.new_stride = moved.stride;
  moved.line_of.clear();
  moved.index();
  return moved;
}

}  // namespace

std::string Move::summary() const {
  std::string s = fmt::format("{} from line {}", field, from_line);
  if (from_offset || to_offset) s += fmt::format(" (offset {})", from_offset);
  s += fmt::format(" to line {}", to_line);
  if (from_offset || to_offset) s += fmt::format(" (offset {})", to_offset);
  if (!swapped.empty()) {
    std::string w;
    for (const auto& f : swapped) w += (w.empty() ? "" : " and ") + f;
    s += ", swapped with " + w;
  }
  if (grew_by) s += fmt::format(", the struct {} bytes larger (stride {})", grew_by, new_stride);
  return s;
}

kernel::ObjectLayout move_field(const kernel::ObjectLayout& layout, const std::string& field, std::uint32_t to_line,
                                bool grow, std::optional<std::uint32_t> stride, Move& done) {
  need_field(layout, field);
  need_line_in_struct(layout, to_line);
  if (grow && !layout.slab_packed()) {
    throw LayoutError(
        "--grow needs byte offsets (a layout of lines has no bytes to move down): import the "
        "kernel's layout from its BTF first");
  }
  done = Move{field, layout.line_of.at(field), to_line, 0, 0, {}, 0, 0};
  if (done.from_line == to_line)
    throw LayoutError(layout.type + "." + field + " is already on line " + std::to_string(to_line));
  need_size(layout, field);
  if (to_line < layout.lines.size()) {
    for (const auto& f : layout.lines[to_line]) need_size(layout, f);
  }
  if (!layout.slab_packed()) return move_in_lines(layout, field, done.from_line, to_line);
  done.from_offset = layout.offsets.at(field);
  if (const auto at = free_place(layout, field, to_line)) {
    done.to_offset = *at;
    kernel::ObjectLayout moved = layout;
    moved.offsets[field] = *at;
    moved.line_of.clear();
    moved.index();
    return moved;
  }
  if (!grow) {
    const std::uint32_t size = layout.sizes.at(field);
    throw LayoutError(fmt::format("line {} of {} has no free {}-byte place aligned to {} for {} (it holds {}): {}",
                                  to_line, layout.type, size, alignment_of(size), field, occupancy(layout, to_line),
                                  other_ways(layout)));
  }
  return grow_into_line(layout, field, to_line, stride, done);
}

kernel::ObjectLayout swap_fields(const kernel::ObjectLayout& layout, const std::string& field,
                                 const std::vector<std::string>& with, Move& done) {
  need_field(layout, field);
  if (with.empty()) throw LayoutError("--swap-with names no field");
  need_size(layout, field);
  std::set<std::string> seen;
  std::uint32_t total = 0;
  const std::uint32_t line = layout.line_of.count(with.front()) ? layout.line_of.at(with.front()) : 0;
  for (const auto& g : with) {
    need_field(layout, g);
    need_size(layout, g);
    if (g == field || !seen.insert(g).second)
      throw LayoutError("'" + g + "' is named twice or is the field itself", "--swap-with");
    if (layout.line_of.at(g) != line) {
      throw LayoutError("--swap-with: " + with.front() + " is on line " + std::to_string(line) + " and " + g +
                        " on line " + std::to_string(layout.line_of.at(g)) +
                        ": the fields swapped in must share a line");
    }
    total += layout.sizes.at(g);
  }
  const std::uint32_t size = layout.sizes.at(field);
  done = Move{field, layout.line_of.at(field), line, 0, 0, with, 0, 0};
  if (done.from_line == line)
    throw LayoutError(layout.type + "." + field + " is already on line " + std::to_string(line));
  if (total != size) {
    throw LayoutError(
        fmt::format("{} is {} bytes and {} together {}: a swap keeps every byte in place, so they must be "
                    "the same size",
                    field, size, fmt::join(with, ", "), total));
  }
  kernel::ObjectLayout moved = layout;
  if (!layout.slab_packed()) {
    auto& from = moved.lines[done.from_line];
    auto& to = moved.lines[line];
    from.erase(std::find(from.begin(), from.end(), field));
    for (const auto& g : with) {
      to.erase(std::find(to.begin(), to.end(), g));
      from.push_back(g);
      moved.line_of[g] = done.from_line;
    }
    to.push_back(field);
    moved.line_of[field] = line;
    moved.index();
    return moved;
  }
  // With offsets the fields swapped in must sit together: field goes to their first byte, and
  // they, in their order, to its old place.
  std::vector<std::string> ordered = with;
  std::sort(ordered.begin(), ordered.end(),
            [&](const auto& a, const auto& b) { return layout.offsets.at(a) < layout.offsets.at(b); });
  const std::uint32_t start = layout.offsets.at(ordered.front());
  std::uint32_t next = start;
  for (const auto& g : ordered) {
    if (layout.offsets.at(g) != next) {
      throw LayoutError(
          fmt::format("--swap-with: {} at {} does not follow on from the field before it (the bytes {}..{} "
                      "must be those fields alone)",
                      g, layout.offsets.at(g), start, start + total));
    }
    next += layout.sizes.at(g);
  }
  const std::uint32_t old = layout.offsets.at(field);
  if (old % alignment_of(layout.sizes.at(ordered.front())) != 0 || start % alignment_of(size) != 0) {
    throw LayoutError("--swap-with: the places are not aligned for the fields that would take them");
  }
  done.from_offset = old;
  done.to_offset = start;
  moved.offsets[field] = start;
  std::uint32_t at = old;
  for (const auto& g : ordered) {
    moved.offsets[g] = at;
    at += layout.sizes.at(g);
  }
  moved.line_of.clear();
  moved.index();
  return moved;
}

}  // namespace walksim::layout
