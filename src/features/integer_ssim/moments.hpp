#pragma once
// integer_ssim's frame score: exact integer Gaussian moments of every window, the double window
// term, the W-weighted raster-order mean.
#include "vqtwin/picture.hpp"

namespace vqtwin::integer_ssim {

// Luma of ref and dist (same format, bit depth 8..16). Thread-safe.
double frame_score(const Picture& ref, const Picture& dist);

}  // namespace vqtwin::integer_ssim
