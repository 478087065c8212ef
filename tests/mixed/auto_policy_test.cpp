// --backend auto's scheduling (src/core/mixed_policy.hpp) on a simulated clock: workers, a CPU that
// takes `cpu_s` a frame on one worker, a device that starts after `probe_s + setup_s` and then serves
// frames one after the other (`service_s` each, slowed by the CPU's frames when `contention` > 0) with
// `latency_s` of upload and read-back around each, fed by as many workers and slots as --backend cuda
// has (a frame the CPU computes after the switch holds a device slot too). The policy's own functions
// decide every frame, with rates measured as the session measures them. Its makespan must stay within
// a small margin of the better of the CPU alone and the device alone, on every clip length; the
// planted old policy (VQTWIN_PLANT=auto_greedy_cpu) must break that bound.
// Milliseconds of CPU time in all: no threads, no sleeping.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <queue>
#include <string>
#include <vector>

#include "core/mixed_policy.hpp"

namespace vqtwin {
namespace {

struct Machine {
  const char* name;
  unsigned threads;
  double cpu_s;       // one frame on one worker, all workers busy
  double probe_s;     // the device's check (driver context)
  double setup_s;     // from the check to ready (slots, buffers)
  double setup_est;   // what the session estimates for it
  double service_s;   // one frame on the device, once it is fed
  double latency_s;   // upload and read-back around it (frames in flight hide it)
  double contention;  // the device's service is (1 + contention * CPU frames / threads) times slower
  double warmup = 1;  // the device's first 8 frames take this many times longer (modules loading)
};

// Shaped on measurements of an H200 host with 16 cores (1080p: the CPU 410 frames/s on 16 workers, the
// device about 2600; 4K: 91 and 750), and on a small machine.
const Machine kMachines[] = {
    {"1080p, 16 threads", 16, 16 / 410.0, 0.30, 0.05, 0.036, 1 / 2600.0, 0.004, 0.0},
    {"1080p, 16 threads, contention", 16, 16 / 410.0, 0.30, 0.05, 0.036, 1 / 2600.0, 0.004, 1.0},
    {"1080p, slow first device frames", 16, 16 / 410.0, 0.30, 0.05, 0.036, 1 / 2600.0, 0.004, 0.5, 20},
    {"4K, 16 threads", 16, 16 / 91.0, 0.30, 0.12, 0.115, 1 / 750.0, 0.010, 0.5},
    {"4K, set-up twice the estimate", 16, 16 / 91.0, 0.30, 0.24, 0.115, 1 / 750.0, 0.010, 0.5},
    {"1080p, 4 threads", 4, 4 / 110.0, 0.30, 0.03, 0.02, 1 / 2000.0, 0.004, 0.5},
    {"a slow device", 8, 8 / 200.0, 0.10, 0.02, 0.02, 1 / 300.0, 0.002, 0.3},
    {"a device slower than the CPU", 16, 16 / 400.0, 0.30, 0.05, 0.036, 1 / 300.0, 0.004, 0.0},
};

enum class Mode { kCpu, kDevice, kAuto };

// The makespan of `frames` frames (seconds from the session's start to the last frame done).
double simulate(const Machine& m, unsigned frames, Mode mode, unsigned* cpu_after = nullptr) {
  const double ready = m.probe_s + m.setup_s;
  const unsigned feeders = std::max(m.threads, 4u);
  bool forced = false;
  const unsigned slots = mixed::device_slots(m.threads);
  const unsigned cap = mixed::cpu_cap(m.threads, slots, &forced);
  mixed::Rates rates;
  // A worker's next wake-up, and what it finished then (recorded in the rates at that time).
  struct Wake {
    double at;
    unsigned worker;
    int finished;  // 0 nothing, 1 a CPU frame before the device was ready, 2 a CPU frame after, 3 a device frame
    bool operator>(const Wake& o) const { return at > o.at || (at == o.at && worker > o.worker); }
  };
  std::priority_queue<Wake, std::vector<Wake>, std::greater<>> events;
  unsigned workers = 0;
  auto add_worker = [&](double at) { events.push({at, workers++, 0}); };
  if (mode == Mode::kDevice) {
    for (unsigned i = 0; i < feeders; ++i) add_worker(ready);
  } else {
    for (unsigned i = 0; i < m.threads; ++i) add_worker(0);
  }
  bool switched = mode == Mode::kDevice, cpu_workers = false;
  unsigned next = 0, retire = 0, cpu_busy = 0, in_flight = 0, host_busy = 0, device_frames = 0;
  double device_free = 0, end = 0;
  if (cpu_after) *cpu_after = 0;
  while (!events.empty()) {
    Wake w = events.top();
    events.pop();
    // The device becomes ready: feeders replace the workers still computing (they retire when done).
    if (mode == Mode::kAuto && !switched && w.at >= ready) {
      switched = true;
      for (unsigned i = 0; i < host_busy + (feeders - m.threads); ++i) add_worker(ready);
      retire = host_busy;
      events.push(w);
      continue;
    }
    end = std::max(end, w.at);
    if (w.finished == 1) {
      rates.cpu_frame(m.cpu_s);
      --host_busy;
    } else if (w.finished == 2) {
      rates.cpu_frame(m.cpu_s);
      --cpu_busy;
    } else if (w.finished == 3) {
      rates.device_frame(w.at);
      --in_flight;
    }
    if (w.finished == 1 && retire > 0 && switched) {  // a worker that computed a frame of a host slot
      --retire;
      continue;
    }
    if (next == frames) continue;
    if (mode == Mode::kCpu || (mode == Mode::kAuto && !switched)) {
      const std::optional<double> ready_at =
          mode == Mode::kAuto && w.at >= m.probe_s ? std::optional(m.probe_s + m.setup_est) : std::nullopt;
      if (mode == Mode::kAuto && !mixed::start_on_cpu(w.at, rates.cpu_seconds(), ready_at, m.setup_est)) {
        events.push({std::min(ready, w.at + 0.002), w.worker, 0});  // held back for the device
        continue;
      }
      ++next;
      ++host_busy;
      events.push({w.at + m.cpu_s, w.worker, 1});
      continue;
    }
    if (in_flight + cpu_busy >= slots) {  // every device slot holds a frame: wait for one
      events.push({w.at + 0.0002, w.worker, 0});
      continue;
    }
    mixed::AfterReady a;
    a.index = next;
    a.expected = frames;
    a.cpu_busy = cpu_busy;
    a.device_in_flight = in_flight;
    a.cpu_cap = cap;
    a.threads = m.threads;
    a.forced = forced;
    a.cpu_seconds = rates.cpu_seconds();
    a.device_fps = rates.device_fps();
    ++next;
    if (mode == Mode::kAuto && mixed::cpu_takes(a)) {
      if (!cpu_workers) {  // the session's add_cpu_workers()
        cpu_workers = true;
        for (unsigned i = 0; i < cap; ++i) add_worker(w.at);
      }
      ++cpu_busy;
      if (cpu_after) ++*cpu_after;
      events.push({w.at + m.cpu_s, w.worker, 2});
      continue;
    }
    const double arrives = w.at + m.latency_s / 2;
    const double start = std::max(arrives, device_free);
    device_free = start + m.service_s * (1 + m.contention * cpu_busy / m.threads) * (device_frames++ < 8 ? m.warmup : 1);
    ++in_flight;
    events.push({device_free + m.latency_s / 2, w.worker, 3});
  }
  return end;
}

const unsigned kLengths[] = {10, 30, 60, 100, 150, 200, 300, 450, 600, 1200, 2400};

// The margin auto may lose to the better backend: a frame the CPU started before the device's check
// had passed (nothing is known of the device then) can end after the device, started at the same
// time, would have finished the clip: at most one CPU frame past the set-up; the first frames the
// device's workers take before its rate is known (one per worker) can make a slow device the last to
// finish, and the device's slower first frames count where the CPU alone would have been as fast; and
// 3 %.
double margin(const Machine& m, double best) {
  return std::max(0.0, m.cpu_s - m.setup_s) + std::max(m.threads, 4u) * m.service_s + 8 * m.service_s * (m.warmup - 1) +
         0.03 * best + 1e-3;
}

// Every machine, every length: the makespan bound; returns the cases that break it.
std::vector<std::string> violations(bool print) {
  std::vector<std::string> out;
  for (const Machine& m : kMachines)
    for (unsigned n : kLengths) {
      unsigned cpu_after = 0;
      const double cpu = simulate(m, n, Mode::kCpu), dev = simulate(m, n, Mode::kDevice),
                   mix = simulate(m, n, Mode::kAuto, &cpu_after);
      const double best = std::min(cpu, dev);
      char line[200];
      std::snprintf(line, sizeof line, "%-32s %5u frames: cpu %.3f s, device %.3f s, auto %.3f s (%u CPU frames after the switch)",
                    m.name, n, cpu, dev, mix, cpu_after);
      if (print) std::printf("  %s\n", line);
      if (mix > best + margin(m, best)) out.push_back(line);
    }
  return out;
}

TEST(AutoPolicy, NeverSlowerThanEitherBackend) {
  const std::vector<std::string> bad = violations(std::getenv("VQTWIN_TEST_SHOW_SIM") != nullptr);
  for (const std::string& b : bad) ADD_FAILURE() << "auto slower than the better backend: " << b;
}

// Where the CPU adds much (a slow device) it takes frames after the switch, none near the clip's end;
// where the device is several times faster than all the CPU's workers, none.
TEST(AutoPolicy, CpuHelpsOnlyWhereItFinishesInTime) {
  unsigned cpu_after = 0;
  simulate(kMachines[6], 2400, Mode::kAuto, &cpu_after);
  EXPECT_GT(cpu_after, 0u);
  simulate(kMachines[0], 2400, Mode::kAuto, &cpu_after);
  EXPECT_EQ(cpu_after, 0u);
  mixed::AfterReady a;
  a.expected = 1000;
  a.cpu_cap = 4;
  a.threads = 16;
  a.cpu_seconds = 0.04;
  a.device_fps = 2500;
  a.index = 100;
  EXPECT_FALSE(mixed::cpu_takes(a));  // 16 workers: 400 frames/s, less than half the device's
  a.forced = true;
  EXPECT_TRUE(mixed::cpu_takes(a));  // 899 frames left: 0.36 s on the device
  a.index = 960;
  EXPECT_FALSE(mixed::cpu_takes(a));  // 39 frames left: 16 ms on the device, the CPU needs 40
  a.index = 100;
  a.cpu_busy = 4;
  EXPECT_FALSE(mixed::cpu_takes(a));  // its places are taken: the other workers feed the device
  a.cpu_busy = 0;
  a.expected = 0;
  EXPECT_FALSE(mixed::cpu_takes(a));  // a clip of unknown length: the device takes every frame
  // Before the device is ready: the CPU starts a frame only if it ends before the device is expected.
  EXPECT_TRUE(mixed::start_on_cpu(0.30, 0.04, std::nullopt, 0.06));
  EXPECT_TRUE(mixed::start_on_cpu(0.30, 0.04, 0.36, 0.06));
  EXPECT_FALSE(mixed::start_on_cpu(0.30, 0.17, 0.36, 0.06));
  EXPECT_FALSE(mixed::start_on_cpu(0.50, 0.17, 0.36, 0.06));
  EXPECT_TRUE(mixed::start_on_cpu(0.55, 0.17, 0.36, 0.06));  // four times as late as expected: the CPU goes on
}

// The planted bug: the policy this one replaced (the CPU whenever one of --threads places is free and
// eight device frames are in flight) breaks the bound.
TEST(AutoPolicy, PlantedGreedyCpuIsCaught) {
  ::setenv("VQTWIN_PLANT", "auto_greedy_cpu", 1);
  const std::vector<std::string> bad = violations(false);
  ::unsetenv("VQTWIN_PLANT");
  EXPECT_FALSE(bad.empty());
  if (!bad.empty()) std::printf("  caught, e.g.: %s\n", bad.front().c_str());
}

}  // namespace
}  // namespace vqtwin
