#pragma once
// Who computes a frame of a --backend auto run: the scheduling rules, apart from the session's threads
// so that a test can drive them on a simulated clock (tests/mixed/auto_policy_test.cpp).
//
// The device is the default home of every frame once it is ready. The CPU computes:
// - before the device is ready, every frame (the bridge over the device's start-up), except that once
//   the device's check has passed and its set-up is nearly done, a worker starts a frame only if it
//   would finish before the device is expected to be ready (a frame it would finish later is the
//   device's, sooner, and would slow the device's feeding);
// - after, nothing where the device is several times faster than all the CPU's workers together (their
//   work would slow the device's feeding, reading and uploading, by more than they add); elsewhere a
//   frame only where it finishes before the device would be done with every frame still to come
//   (frames are handed out in order, so the device, which takes the others, reaches the clip's end at
//   (frames after this one + frames in flight there) / its rate), at most `cpu_cap` frames at once, on
//   workers of their own: the device keeps its feeding workers.
// Rates are measured as the run goes: the CPU's seconds per frame on one worker (while the other
// workers compute too), the device's frames per second over its last completions.
#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <string_view>

namespace vqtwin::mixed {

// The CPU's estimate is taken as this much longer: a frame the CPU would finish just in time is the
// device's (the CPU's time varies frame to frame, and its work slows the device's feeding a little).
inline constexpr double kCpuSafety = 1.25;
// After the device is ready, the CPU takes frames only where its workers together compute at least
// this share of the device's frames per second.
inline constexpr double kCpuWorthwhile = 0.5;
// Device completions the device's rate is measured over (and needed before it is trusted).
inline constexpr unsigned kDeviceWindow = 8;

class Rates {
 public:
  // One frame computed on the CPU by one worker in `seconds` (wall time, beside the other workers).
  void cpu_frame(double seconds) {
    std::lock_guard lock(mutex_);
    // The mean of the frames so far, then an exponential average (the recent load counts most).
    cpu_ = cpu_n_ < 8 ? (cpu_ * cpu_n_ + seconds) / (cpu_n_ + 1) : 0.875 * cpu_ + 0.125 * seconds;
    ++cpu_n_;
  }
  // One frame finished on the device at `at` (seconds, any fixed origin).
  void device_frame(double at) {
    std::lock_guard lock(mutex_);
    done_[done_n_ % kDeviceWindow] = at;
    ++done_n_;
  }
  std::optional<double> cpu_seconds() const {
    std::lock_guard lock(mutex_);
    return cpu_n_ ? std::optional(cpu_) : std::nullopt;
  }
  // Frames per second over the last kDeviceWindow completions; nothing before there are twice that
  // many (the device's first frames load its kernels' modules: slower than it will be).
  std::optional<double> device_fps() const {
    std::lock_guard lock(mutex_);
    if (done_n_ < 2 * kDeviceWindow) return std::nullopt;
    const double newest = done_[(done_n_ - 1) % kDeviceWindow], oldest = done_[done_n_ % kDeviceWindow];
    return newest > oldest ? std::optional((kDeviceWindow - 1) / (newest - oldest)) : std::nullopt;
  }

 private:
  mutable std::mutex mutex_;
  double cpu_ = 0;
  unsigned cpu_n_ = 0;
  double done_[kDeviceWindow] = {};
  unsigned done_n_ = 0;
};

// The planted bug the policy's tests must catch (VQTWIN_PLANT=auto_greedy_cpu): the CPU takes a frame
// whenever one of `--threads` CPU places is free and the device only what overflows eight turns (the
// policy this one replaced, which made long clips slower than the device alone).
inline bool plant_greedy_cpu() {
  const char* v = std::getenv("VQTWIN_PLANT");
  return v && std::string_view(v) == "auto_greedy_cpu";
}

// Before the device is ready: whether a worker starts a frame on the CPU at `now`. `ready_at`: when the
// device is expected to be ready (known once its check has passed, `setup` seconds before that),
// nothing before.
inline bool start_on_cpu(double now, std::optional<double> cpu_seconds, std::optional<double> ready_at,
                         double setup) {
  if (!ready_at || !cpu_seconds || plant_greedy_cpu()) return true;
  // Four times as late as expected: something else holds the device up, the CPU goes on bridging.
  // (Up to then a late device costs the CPU's idle time, never more than the device alone would take.)
  if (now > *ready_at + 3 * setup) return true;
  // Only a frame that ends before then: a CPU frame still running when the device takes over holds a
  // core its feeding workers need (4K on an H100 and 16 cores: the bridge's frames that ended after
  // the device was ready made the run 40 ms slower than --backend cuda, more than they saved).
  return now + kCpuSafety * *cpu_seconds <= *ready_at;
}

struct AfterReady {
  unsigned index = 0;             // the frame to place
  unsigned expected = 0;          // frames in the run (0: unknown: every frame to the device)
  unsigned cpu_busy = 0;          // frames being computed on the CPU now (after the device was ready)
  unsigned device_in_flight = 0;  // frames on the device now
  unsigned cpu_cap = 0;           // at most this many frames on the CPU at once
  unsigned threads = 0;           // --threads
  bool forced = false;            // cpu_cap was set (VQTWIN_AUTO_CPU_FRAMES): no worthwhile test
  std::optional<double> cpu_seconds, device_fps;
};

// After the device is ready: whether frame `a.index` is computed on the CPU.
inline bool cpu_takes(const AfterReady& a) {
  if (plant_greedy_cpu()) return a.device_in_flight >= 8 && a.cpu_busy < a.threads;
  if (a.cpu_busy >= a.cpu_cap || a.expected == 0 || a.index + 1 >= a.expected || !a.cpu_seconds || !a.device_fps)
    return false;
  // Worth it only where the CPU adds much: its frames slow the device's feeding, and where the device
  // is several times faster than all the CPU's workers the little they add is easily lost that way.
  if (!a.forced && a.threads / *a.cpu_seconds < kCpuWorthwhile * *a.device_fps) return false;
  const double device_left = double(a.expected - a.index - 1 + a.device_in_flight) / *a.device_fps;
  return kCpuSafety * *a.cpu_seconds <= device_left;
}

// Seconds from the device's check passing to its being ready to take frames (the pipeline's slots,
// whose pinned host memory is most of it, and the twins' buffers): an estimate, from `bytes` of host
// memory to pin at about 4 GB/s beside the CPU's work, plus 10 ms. VQTWIN_AUTO_SETUP_MS=N sets it
// (VQTWIN_REPORT_STARTUP=1 shows what it took).
inline double setup_estimate(double bytes) {
  const char* v = std::getenv("VQTWIN_AUTO_SETUP_MS");
  if (v && *v) return std::max(0.0, std::atof(v)) / 1000;
  return 0.010 + bytes / 4e9;
}

// The CPU frames at once after the device is ready, where the CPU is worth it at all (kCpuWorthwhile);
// the session then starts as many more workers, beside those that feed the device. A frame after the
// split is read into a device slot whoever computes it (the temporal twins need every frame there), and
// the device keeps as many slots as --backend cuda has (`slots`, pinned before anything is known of the
// rates): the CPU holds at most half of them. VQTWIN_AUTO_CPU_FRAMES=N (0..1024) sets it (within that
// half), and the worthwhile test is then skipped (0: after its start-up the device computes every
// frame); `forced` says so.
inline unsigned cpu_cap(unsigned threads, unsigned slots, bool* forced = nullptr) {
  const char* v = std::getenv("VQTWIN_AUTO_CPU_FRAMES");
  const long n = v && *v ? std::strtol(v, nullptr, 10) : -1;
  if (forced) *forced = n >= 0 && n <= 1024;
  return std::min(n >= 0 && n <= 1024 ? unsigned(n) : threads, slots / 2);
}

// VQTWIN_AUTO_SPLIT=N (0..2^30), to check mixed runs: the CPU takes at most the first N frames of a run
// read by the session's workers (a file, a pipe; fewer where the device is ready sooner), then every
// frame waits for the device (its set-up failing ends the wait: the CPU then computes the rest). With
// VQTWIN_AUTO_FRAMES_PER_THREAD=0 it makes a split at frame N on a clip of any length.
inline std::optional<unsigned> forced_split() {
  const char* v = std::getenv("VQTWIN_AUTO_SPLIT");
  if (!v || !*v) return std::nullopt;
  const long n = std::strtol(v, nullptr, 10);
  return n >= 0 && n <= (1L << 30) ? std::optional(unsigned(n)) : std::nullopt;
}

// The device's slots in a mixed run: --backend cuda's, one per feeding worker (at least four) and one.
inline unsigned device_slots(unsigned threads) { return std::max(threads, 4u) + 1; }

}  // namespace vqtwin::mixed
