// The version written into results.
#pragma once

namespace walksim::cli {
inline constexpr const char* kVersion = "0.1.0";
}
