#pragma once
// Luma samples -> float in the 8-bit range (libvmaf's picture_copy with offset 0), shared by
// float_ssim and float_ms_ssim.
#include "vqtwin/picture.hpp"

namespace vqtwin::float_ssim {

// Writes the luma plane as width x height packed floats: 8-bit as is, 10/12/16-bit divided by
// 4/16/256 (exact: a power of two).
void luma_to_float(const Picture& pic, float* dst);

}  // namespace vqtwin::float_ssim
