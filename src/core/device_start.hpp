#pragma once
// Starting a device before a run needs it. The first CUDA call of a process creates the driver's
// context (a large part of a short run's time), so a file run asks for the device's check as its
// very first step, on a background thread, while it loads models and opens its inputs; sessions then
// take the answer (waiting only if it is not there yet). Also the start-up report
// (VQTWIN_REPORT_STARTUP=1: one line per step on stderr, with the time since the process started).
#include <atomic>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "backends/device.hpp"
#include "core/extractor.hpp"

namespace vqtwin {

// What a session needs of a device backend: the built-in CUDA one, or a test's stand-in that runs
// without a GPU (tests/unit/mixed_backend_test.cpp).
struct DeviceProvider {
  bool (*usable)(int device, std::string* why) = nullptr;
  std::unique_ptr<DevicePipeline> (*make_pipeline)(const PictureFormat& format, int device, unsigned slots) = nullptr;
  std::span<const ExtractorInfo* const> (*registry)() = nullptr;  // every implementation, CPU and twins
};

const DeviceProvider& device_provider();
// Replaces the provider (nullptr: the built-in one) and forgets earlier checks. Tests only, with no
// session open.
void set_device_provider(const DeviceProvider* provider);

// Starts checking device `device` on a background thread (once per process and device).
void start_device_probe(int device);
// The check's answer, waiting for it (it is started if it was not); nothing when `cancel` became true
// first.
std::optional<bool> device_probe(int device, std::string* why, const std::atomic<bool>* cancel = nullptr);
// Without waiting: whether device `device`'s check has answered (then `*usable` is its answer).
bool device_probe_known(int device, bool* usable);
// Whether a check is still running (a process may end without waiting for it).
bool device_probe_running();

// The start-up report: whether it is wanted, and one step's line (`ms` the step's own duration when
// it is known, else negative).
bool startup_report_wanted();
void startup_step(std::string_view what, double ms = -1);

}  // namespace vqtwin
