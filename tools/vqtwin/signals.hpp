#pragma once
// SIGINT and SIGTERM: the first asks the run to stop (the frames already computed are finished,
// written, and the exit status is 128 + the signal: 130, 143); the second exits at once.
#include <atomic>

namespace vqtwin_cli {

// Installs the handlers; returns the flag they set (RunConfig::stop).
const std::atomic<bool>* install_stop_signals();
// The signal received (0: none).
int received_signal();
const char* signal_name(int sig);

}  // namespace vqtwin_cli
