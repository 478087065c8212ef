#pragma once
// One backend's clock for twin_device_time: the device time of the work a twin records on a frame
// slot, the frame's upload excluded (CUDA: events on the slot's stream; Vulkan: timestamp queries in
// the slot's command buffer, backends/vulkan/timestamps.hpp). twin_timer_cuda.cpp and
// twin_timer_vulkan.cpp implement it where this build has the backend.
#include <memory>
#include <string>

#include "backends/device.hpp"

namespace vqtwin::bench_support {

class TwinTimer {
 public:
  virtual ~TwinTimer() = default;
  virtual void start() = 0;            // after the slot's upload(), before the twin's submit()
  virtual void stop() = 0;             // after the twin's submit()
  virtual double elapsed_ms() = 0;     // after the slot's wait()
};

struct TimedBackend {
  const char* name;  // as --backend spells it
  Backend backend;
  // Device 0's name and what the table needs to know of it; empty with `why` when there is none.
  std::string (*describe)(std::string* why);
  // A clock on `slot` (nullptr with `why` when the device keeps no time: the rows print n/a).
  std::unique_ptr<TwinTimer> (*timer)(FrameSlot& slot, std::string* why);
  // The float twins' path on this device now ("fp64", "fp64-free"), or nullptr: one path only.
  const char* (*float_path)();
  // The backend's own extra figures after its table (CUDA: the ordered double sum), or nullptr.
  void (*extras)();
};

#if VQTWIN_BENCH_CUDA
const TimedBackend& cuda_timing();
#endif
#if VQTWIN_BENCH_VULKAN
const TimedBackend& vulkan_timing();
#endif

}  // namespace vqtwin::bench_support
