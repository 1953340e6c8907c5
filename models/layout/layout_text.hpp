// `walksim layout show` and `walksim layout diff`: a kernel variant's layouts as 64-byte lines and
// the fields on each (like `pahole --hex`), and which fields two variants put on different lines.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/kernel/kernel_spec.hpp"

namespace walksim::layout {

std::string show_layout(const kernel::ObjectLayout& layout);

struct LineChange {
  std::string type;
  std::string field;
  std::optional<std::uint32_t> from_line, to_line;      // nullopt: not in that layout
  std::optional<std::uint32_t> from_offset, to_offset;  // with byte offsets
};

// Every field on a different line in `b` than in `a`, in `a`'s line order, then those only in `b`;
// `type`, when given, limits it to one object type.
std::vector<LineChange> diff_layouts(const kernel::KernelSpec& a, const kernel::KernelSpec& b,
                                     const std::optional<std::string>& type);
std::string show_diff(const std::vector<LineChange>& changes, const std::string& a, const std::string& b);

}  // namespace walksim::layout
