// twin_device_time's Vulkan clock: timestamp queries around the twin's dispatches in the slot's command
// buffer (backends/vulkan/timestamps.hpp), on device 0.
#include "backends/vulkan/device.hpp"
#include "backends/vulkan/timestamps.hpp"
#include "twin_timer.hpp"

namespace vqtwin::bench_support {
namespace {

class VulkanTimer final : public TwinTimer {
 public:
  explicit VulkanTimer(FrameSlot& slot) : stamps_(vulkan::vulkan_slot(slot)) {}
  bool available() const { return stamps_.available(); }
  const std::string& why() const { return stamps_.why(); }
  void start() override { stamps_.start(); }
  void stop() override { stamps_.stop(); }
  double elapsed_ms() override { return stamps_.elapsed_ms(); }

 private:
  vulkan::FrameTimestamps stamps_;
};

std::string describe(std::string* why) {
  if (!vulkan_device_usable(0, why)) return {};
  const vulkan::Device& d = vulkan::device(0);
  const vulkan::DeviceFeatures& f = d.features();
  return f.name + " (" + f.type + ", " + (f.driver.empty() ? "?" : f.driver) + "), timestamps: " +
         (d.timestamp_bits() ? std::to_string(d.timestamp_bits()) + " bits, " + std::to_string(f.timestamp_period) +
                                   " ns a tick"
                             : std::string("none"));
}

std::unique_ptr<TwinTimer> timer(FrameSlot& slot, std::string* why) {
  auto t = std::make_unique<VulkanTimer>(slot);
  if (t->available()) return t;
  *why = t->why();
  return nullptr;
}

const char* float_path() { return vulkan::use_fp64(vulkan::device(0).features()) ? "fp64" : "fp64-free"; }

}  // namespace

const TimedBackend& vulkan_timing() {
  static const TimedBackend b{"vulkan", Backend::kVulkan, describe, timer, float_path, nullptr};
  return b;
}

}  // namespace vqtwin::bench_support
