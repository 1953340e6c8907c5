// A signal handler can reach only static storage: the flag and the signal number live here.
#include "tools/walksim/signals.hpp"

#include <csignal>

namespace walksim::cli {
namespace {
std::atomic<bool> g_cancel{false};
volatile std::sig_atomic_t g_signal = 0;
extern "C" void on_signal(int sig) {
  g_signal = sig;
  g_cancel = true;
}
}  // namespace

std::atomic<bool>& install_cancel_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_RESETHAND;  // the next one gets the default action: walksim ends at once
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  return g_cancel;
}

int cancel_exit_code() { return 128 + (g_signal ? static_cast<int>(g_signal) : SIGINT); }

void ignore_sigpipe() { std::signal(SIGPIPE, SIG_IGN); }

}  // namespace walksim::cli
