// `--run-ahead WINDOW|off`, shared by run, validate and bench: the executor's run-ahead
// (exec::Executor::set_run_ahead). Left out, a run is exact (it runs ahead only within the
// machine's exact window); a window is an approximation; "off" steps without running ahead.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "sim/time.hpp"

namespace walksim::cli {

// The longest window accepted: past a few transactions' time an approximation stops resembling the
// machine, and nothing is gained (docs/performance.md, "Run-ahead").
inline constexpr sim::Picos kMaxRunAhead = 1'000'000;  // 1 us

// Adds the option to `cmd`, its text kept in `text` and checked at parse time ("off", or a time with
// its unit, more than 0 and at most kMaxRunAhead).
CLI::Option* add_run_ahead_option(CLI::App* cmd, std::string& text);
// The window the option's text gives: Executor::kRunAheadExact when the option was not given,
// kRunAheadOff for "off".
sim::Picos run_ahead_window(const std::string& text);

}  // namespace walksim::cli
