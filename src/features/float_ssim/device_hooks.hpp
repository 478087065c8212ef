#pragma once
// What the CUDA twin exposes to its device tests (built with CUDA only; tests/twins).
#include <vector>

#include "vqtwin/picture.hpp"

namespace vqtwin::float_ssim {

// The luma plane as the twin computes it on the device: converted to float (scale 1) or
// box-decimated by `scale` (1..128), packed. The CPU's is luma_to_float (+ box_decimate).
std::vector<float> device_luma_plane(const Picture& pic, int scale);

}  // namespace vqtwin::float_ssim
