#pragma once
// What the device twins expose to their device tests (tests/twins).
#include <vector>

#include "vqtwin/picture.hpp"

namespace vqtwin::float_ssim {

// The luma plane as the twin computes it on the device: converted to float (scale 1) or
// box-decimated by `scale` (1..128), packed. The CPU's is luma_to_float (+ box_decimate).
std::vector<float> device_luma_plane(const Picture& pic, int scale);
// The same from the Vulkan twin's decimation shader (built with Vulkan only).
std::vector<float> vulkan_luma_plane(const Picture& pic, int scale);

}  // namespace vqtwin::float_ssim
