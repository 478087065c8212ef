#include "core/device_start.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <system_error>
#include <mutex>
#include <thread>

#include "core/registry.hpp"

namespace vqtwin {
namespace {

using Clock = std::chrono::steady_clock;
// The library's load: close to the process's start for the CLI (its start-up is the loader's).
const Clock::time_point g_loaded = Clock::now();

const DeviceProvider kBuiltIn{cuda_device_usable, make_cuda_pipeline, all_extractors};

struct Probe {
  bool done = false;
  bool usable = false;
  std::string why;
};

// Never destroyed: a check may still run on its detached thread while the process ends.
struct Probes {
  std::mutex mutex;
  std::condition_variable cv;
  const DeviceProvider* provider = &kBuiltIn;
  std::map<int, std::shared_ptr<Probe>> by_device;
  unsigned running = 0;
};

Probes& probes() {
  static Probes* p = new Probes;
  return *p;
}

std::shared_ptr<Probe> start(int device) {
  Probes& ps = probes();
  std::lock_guard lock(ps.mutex);
  auto& slot = ps.by_device[device];
  if (slot) return slot;
  slot = std::make_shared<Probe>();
  auto probe = slot;
  const DeviceProvider* provider = ps.provider;
  ++ps.running;
  auto check = [probe, provider, device] {
    const auto t0 = Clock::now();
    std::string why;
    bool ok = false;
    try {
      ok = provider->usable(device, &why);
    } catch (const std::exception& e) {
      why = e.what();
    }
    startup_step("device check (driver context, a kernel run)",
                 std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    Probes& all = probes();
    {
      std::lock_guard done_lock(all.mutex);
      probe->usable = ok;
      probe->why = why;
      probe->done = true;
      --all.running;
    }
    all.cv.notify_all();
  };
  try {
    std::thread(check).detach();
  } catch (const std::system_error&) {
    --ps.running;
    probe->why = "no thread could be started to check the device";
    probe->done = true;
  }
  return probe;
}

}  // namespace

const DeviceProvider& device_provider() {
  std::lock_guard lock(probes().mutex);
  return *probes().provider;
}

void set_device_provider(const DeviceProvider* provider) {
  Probes& ps = probes();
  std::lock_guard lock(ps.mutex);
  ps.provider = provider ? provider : &kBuiltIn;
  ps.by_device.clear();
}

void start_device_probe(int device) { (void)start(device); }

std::optional<bool> device_probe(int device, std::string* why, const std::atomic<bool>* cancel) {
  const std::shared_ptr<Probe> probe = start(device);
  Probes& ps = probes();
  std::unique_lock lock(ps.mutex);
  while (!probe->done) {
    if (cancel && cancel->load()) return std::nullopt;
    ps.cv.wait_for(lock, std::chrono::milliseconds(2));
  }
  if (why) *why = probe->why;
  return probe->usable;
}

bool device_probe_known(int device, bool* usable) {
  Probes& ps = probes();
  std::lock_guard lock(ps.mutex);
  const auto it = ps.by_device.find(device);
  if (it == ps.by_device.end() || !it->second->done) return false;
  *usable = it->second->usable;
  return true;
}

bool device_probe_running() {
  std::lock_guard lock(probes().mutex);
  return probes().running > 0;
}

bool startup_report_wanted() {
  static const bool wanted = [] {
    const char* v = std::getenv("VQTWIN_REPORT_STARTUP");
    return v && *v && *v != '0';
  }();
  return wanted;
}

void startup_step(std::string_view what, double ms) {
  if (!startup_report_wanted()) return;
  const double at = std::chrono::duration<double, std::milli>(Clock::now() - g_loaded).count();
  static std::mutex print_mutex;
  std::lock_guard lock(print_mutex);
  if (ms >= 0)
    std::fprintf(stderr, "vqtwin: start-up: %8.1f ms  %.*s (%.1f ms)\n", at, int(what.size()), what.data(), ms);
  else
    std::fprintf(stderr, "vqtwin: start-up: %8.1f ms  %.*s\n", at, int(what.size()), what.data());
}

}  // namespace vqtwin
