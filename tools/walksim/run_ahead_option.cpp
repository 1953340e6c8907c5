#include "tools/walksim/run_ahead_option.hpp"

#include "models/config/units.hpp"
#include "models/exec/executor.hpp"

namespace walksim::cli {

namespace {
// The window, or the message CLI11 prints for a bad one.
std::string check(const std::string& text, sim::Picos& out) {
  if (text == "off") {
    out = exec::Executor::kRunAheadOff;
    return {};
  }
  try {
    out = config::parse_time(text);
  } catch (const config::UnitError& e) {
    return std::string(e.what()) + ", or 'off'";
  }
  if (out <= 0) {
    return "the run-ahead window must be longer than 0 (leave the option out for an exact run, or say 'off' to step "
           "without running ahead)";
  }
  if (out > kMaxRunAhead) return "the run-ahead window may be at most 1us, got '" + text + "'";
  return {};
}
}  // namespace

CLI::Option* add_run_ahead_option(CLI::App* cmd, std::string& text) {
  return cmd
      ->add_option("--run-ahead", text,
                   "Approximate: let a thread run up to this far (e.g. 20ns) past the next pending event over its own "
                   "cache hits and private work, for host speed; results then differ from the exact run "
                   "(docs/performance.md, \"Run-ahead\"). Without the option a thread runs ahead only within the "
                   "machine's shortest request leg, which changes nothing; 'off' steps without running ahead (the "
                   "same results, slower: a check of the exact run-ahead)")
      ->check(CLI::Validator(
          [](std::string& t) {
            sim::Picos w = 0;
            return check(t, w);
          },
          "TIME", "run-ahead window"));
}

sim::Picos run_ahead_window(const std::string& text) {
  if (text.empty()) return exec::Executor::kRunAheadExact;
  sim::Picos w = 0;
  if (const std::string error = check(text, w); !error.empty()) throw CLI::ValidationError("--run-ahead", error);
  return w;
}

}  // namespace walksim::cli
