#pragma once
// Single-scale SSIM of two float planes (spec float_ssim.md §5-§9), shared by float_ssim and every
// level of float_ms_ssim.
#include "features/float_ssim/math.hpp"

namespace vqtwin::float_ssim {

// `ref` and `dist` are packed w x h planes, w and h >= kWindow. The 11x11 Gaussian is applied on
// the "valid" region only: the SSIM map is (w-10) x (h-10). Returns the four means, each the
// raster-order double sum divided by the map size and rounded to float.
// Thread-safe (scratch buffers are per thread).
Means ssim_means(const float* ref, const float* dist, int w, int h);

}  // namespace vqtwin::float_ssim
