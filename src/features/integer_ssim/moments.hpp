#pragma once
// integer_ssim's frame compute: exact integer Gaussian moments of every window, the double window
// term, their raster-order double sum (the front divides it by the total weight).
#include "vqtwin/picture.hpp"

namespace vqtwin::integer_ssim {

// Luma of ref and dist (same format, bit depth 8..16); peak_sq = (2^bpc - 1)^2. Thread-safe.
double frame_term_sum(const Picture& ref, const Picture& dist, double peak_sq);

}  // namespace vqtwin::integer_ssim
