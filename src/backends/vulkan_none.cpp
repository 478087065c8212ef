// Built when vqtwin has no Vulkan backend: no twins, and no Vulkan device is ever usable.
#include "backends/device.hpp"
#include "core/registry.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {

std::span<const ExtractorInfo* const> vulkan_twins() { return {}; }

int vulkan_device_count(std::string* why) {
  if (why) *why = "this vqtwin was built without Vulkan";
  return 0;
}

bool vulkan_device_usable(int, std::string* why, bool) {
  if (why) *why = "this vqtwin was built without Vulkan";
  return false;
}

std::unique_ptr<DevicePipeline> make_vulkan_pipeline(const PictureFormat&, int, unsigned) {
  throw Error("this vqtwin was built without Vulkan");
}

std::string vulkan_device_listing() { return "Vulkan: this vqtwin was built without Vulkan\n"; }

}  // namespace vqtwin
