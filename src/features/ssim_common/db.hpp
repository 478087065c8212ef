#pragma once
// The dB form of an SSIM-like score, shared by float_ssim, float_ms_ssim and integer_ssim (and their
// twins): one rule, one implementation.
#include <math.h>

#include "core/hd.hpp"

namespace vqtwin::ssim_db {

// The enable_db ceiling: +inf without clip_db, else ceil(10 log10(peak^2 / (0.5 / (w h)))) with
// peak = 2^bpc - 1 of the raw bit depth and w x h the full-resolution luma size. Both products are
// unsigned 32-bit, as libvmaf computes them (65535^2 still fits).
VQTWIN_HD inline double max_db(unsigned bitdepth, unsigned width, unsigned height, bool clip_db) {
  if (!clip_db) return INFINITY;
  const unsigned peak = (1u << bitdepth) - 1u;
  const double mse = 0.5 / double(width * height);
  return ceil(10. * log10(double(peak * peak) / mse));
}

// min(-10 log10(1 - score), max_db) with libvmaf's macro operand order: when the dB value is NaN
// (a score above 1, or a NaN score) the comparison fails and max_db is the result. A score of
// exactly 1 gives +inf, hence max_db.
VQTWIN_HD inline double to_db(double score, double max_db) {
  const double db = -10. * log10(1. - score);
  return db < max_db ? db : max_db;
}

}  // namespace vqtwin::ssim_db
