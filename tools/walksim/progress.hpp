// Whether stderr is a terminal, and how wide: the progress line redraws itself only there.
#pragma once

#include <cstddef>

namespace walksim::cli {

bool stderr_is_terminal();
// The terminal's columns (TIOCGWINSZ), or $COLUMNS, or 100.
std::size_t terminal_width();

}  // namespace walksim::cli
