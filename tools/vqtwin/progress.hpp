#pragma once
// Progress on a terminal: frames, percentage and ETA when the total is known, fps; redrawn at most
// ten times a second. Warnings and notes clear the line first.
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>

namespace vqtwin_cli {

class Progress {
 public:
  explicit Progress(bool on) : on_(on), start_(std::chrono::steady_clock::now()) {}
  void update(unsigned done, unsigned total) {
    if (!on_) return;
    std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(100) && done != total) return;
    last_ = now;
    const double s = std::chrono::duration<double>(now - start_).count();
    const double fps = s > 0 ? done / s : 0.0;
    if (total >= done && total > 0) {
      const double eta = fps > 0 ? (total - done) / fps : 0.0;
      std::fprintf(stderr, "\r%u/%u frames (%.0f%%), %.1f fps, ETA %d:%02d\033[K", done, total, 100.0 * done / total,
                   fps, int(eta) / 60, int(eta) % 60);
    } else {
      std::fprintf(stderr, "\r%u frames, %.1f fps\033[K", done, fps);
    }
    shown_ = true;
  }
  // "vqtwin: KIND TEXT" on its own line.
  void line(const char* kind, const std::string& text) {
    std::lock_guard lock(mutex_);
    if (shown_) std::fprintf(stderr, "\r\033[K");
    std::fprintf(stderr, "vqtwin: %s%s\n", kind, text.c_str());
  }
  void finish() {
    std::lock_guard lock(mutex_);
    if (shown_) std::fprintf(stderr, "\n");
    shown_ = false;
  }

 private:
  bool on_;
  bool shown_ = false;
  std::mutex mutex_;
  std::chrono::steady_clock::time_point start_, last_{};
};

}  // namespace vqtwin_cli
