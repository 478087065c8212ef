#include "signals.hpp"

#include <signal.h>
#include <unistd.h>

#include <csignal>

namespace vqtwin_cli {
namespace {

std::atomic<bool> g_stop{false};  // lock-free: safe to set from a handler
volatile std::sig_atomic_t g_signal = 0;
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_stop_signal(int sig) {
  if (g_signal != 0) _exit(128 + sig);  // the second signal: at once, nothing more is written
  g_signal = sig;
  g_stop.store(true);
}

}  // namespace

const std::atomic<bool>* install_stop_signals() {
  struct sigaction sa{};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a read blocked on a pipe or FIFO returns (EINTR) and sees the flag
  for (int sig : {SIGINT, SIGTERM}) {
    struct sigaction old{};
    // A signal ignored when we start (a background job of a script ignores SIGINT) stays ignored.
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaction(sig, &sa, nullptr);
  }
  return &g_stop;
}

int received_signal() { return g_signal; }

const char* signal_name(int sig) {
  return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

}  // namespace vqtwin_cli
