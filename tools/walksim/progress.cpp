#include "tools/walksim/progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace walksim::cli {

bool stderr_is_terminal() { return isatty(STDERR_FILENO) != 0; }

std::size_t terminal_width() {
  winsize w{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 0) return w.ws_col;
  if (const char* c = std::getenv("COLUMNS")) {
    try {
      const long n = std::stol(c);
      if (n > 0 && n < 10000) return static_cast<std::size_t>(n);
    } catch (const std::exception&) {
      // not a number: the default
    }
  }
  return 100;
}

}  // namespace walksim::cli
