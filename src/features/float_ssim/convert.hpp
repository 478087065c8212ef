#pragma once
// Moved to common/luma_float.hpp (one conversion rule for every float feature); this forward stays
// until float_ssim/cpu.cpp calls it there.
#include "common/luma_float.hpp"

namespace vqtwin::float_ssim {

// The luma plane as width x height packed floats in the 8-bit range (offset 0).
inline void luma_to_float(const Picture& pic, float* dst) { vqtwin::luma_to_float(pic, 0.0f, dst); }

}  // namespace vqtwin::float_ssim
