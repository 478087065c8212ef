#pragma once
// float_moment's scalar math, shared by the CPU reference and the twins.
//
// libvmaf converts the luma plane to float (v / scale, scale 1, 4, 16, 256 for 8, 10, 12, 16 bits),
// adds the samples (1st moment) or their fp32 squares (2nd moment) into a double in raster order, and
// divides by w*h.
#include <cstdint>

#include "core/hd.hpp"

namespace vqtwin::float_moment {

// 1, 4, 16, 256 for 8, 10, 12, 16 bits; 0 for a depth libvmaf does not define.
VQTWIN_HD inline float scale_of(int bitdepth) {
  switch (bitdepth) {
    case 8: return 1.0f;
    case 10: return 4.0f;
    case 12: return 16.0f;
    case 16: return 256.0f;
    default: return 0.0f;
  }
}

// Every fp32 square (v / scale)^2 is exact below 2^24, i.e. up to 12 bits; so is every partial double sum
// of the exact terms while the integer sum of v^2 stays below 2^53. Then the double libvmaf computes
// equals sum(v^2) / scale^2 in any order. The 1st moment's terms v / scale are always exact and sum
// exactly while sum(v) < 2^53 (any picture under 2^37 pixels).
inline bool exact_integer_path(int bitdepth, int w, int h) {
  if (bitdepth > 12) return false;
  const double max_square = double((1u << bitdepth) - 1) * double((1u << bitdepth) - 1);
  return max_square * double(w) * double(h) < 9007199254740992.0;
}

// The moment from its double sum, as libvmaf divides: by the int product w*h.
VQTWIN_HD inline double moment_of(double sum, int w, int h) { return sum / double(w * h); }

}  // namespace vqtwin::float_moment
