// Ctrl-C and SIGTERM while walksim simulates: the first signal sets the cancel flag — points in
// flight stop at their next system call, nothing is written, walksim exits 128 + the signal — and
// restores the default action, so that a second signal ends walksim at once (its temporary
// directory is then swept by the next run). SIGPIPE is ignored: a closed stdout must not lose
// results that are already on disk.
#pragma once

#include <atomic>

namespace walksim::cli {

// Installs the handlers; returns the flag they set.
std::atomic<bool>& install_cancel_handlers();
// 130 after SIGINT, 143 after SIGTERM (128 + the signal, as shells report a death by signal).
int cancel_exit_code();
void ignore_sigpipe();

}  // namespace walksim::cli
