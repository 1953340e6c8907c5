// `walksim layout move`: one field of one object type put on another 64-byte line, checked, in one
// of three ways a kernel developer would edit the struct:
//  - into free room: the first aligned place on the line no field covers (with byte offsets), or
//    the line's list (lines only), if the line's fields leave room for it in its 64 bytes;
//  - growing the struct (`grow`, byte offsets only): inserted at the last field boundary of the line
//    where it fits, every byte from there on moved down by its size (rounded to 8), the hole it
//    leaves kept, the struct and its stride larger (the stride by the rule the present one shows,
//    or as given);
//  - swapped with fields of the target line that together fill exactly its size and sit together
//    (d_name for d_op and d_sb), the struct unchanged.
// Every check needs the fields' sizes (`sizes:`, written by `layout import`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/kernel/kernel_spec.hpp"

namespace walksim::layout {

struct Move {
  std::string field;
  std::uint32_t from_line = 0;
  std::uint32_t to_line = 0;
  std::uint32_t from_offset = 0;  // bytes, in a layout of offsets
  std::uint32_t to_offset = 0;
  std::vector<std::string> swapped;  // the fields it changed places with
  std::uint32_t grew_by = 0;         // bytes the struct grew (grow)
  std::uint32_t new_stride = 0;      // its stride then
  std::string summary() const;       // one line: what moved where
};

// Throws LayoutError: unknown field (did-you-mean), a line beyond the struct, already there, sizes
// missing, or no room (naming what fills the line and the other two ways).
kernel::ObjectLayout move_field(const kernel::ObjectLayout& layout, const std::string& field, std::uint32_t to_line,
                                bool grow, std::optional<std::uint32_t> stride, Move& done);
kernel::ObjectLayout swap_fields(const kernel::ObjectLayout& layout, const std::string& field,
                                 const std::vector<std::string>& with, Move& done);

}  // namespace walksim::layout
