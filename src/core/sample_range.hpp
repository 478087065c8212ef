#pragma once
// libvmaf accepts samples of 2^bpc or more in 10- and 12-bit pictures (a 16-bit word holds them) and
// computes on them with its own integer widths. Kernels here that assume in-range samples (wider SIMD
// lanes, narrower sums) check a frame first and take their exact path for such frames.
#include <cstdint>

#include "vqtwin/picture.hpp"

namespace vqtwin {

// True when plane `p` of `a` or `b` holds a sample of 2^bitdepth or more (never at 8 or 16 bits).
inline bool has_out_of_range_samples(const Picture& a, const Picture& b, int p = 0) {
  const int bpc = a.format().bitdepth;
  if (bpc <= 8 || bpc >= 16) return false;
  std::uint32_t any = 0;
  for (const Picture* pic : {&a, &b})
    for (int y = 0; y < pic->height(p); ++y) {
      const std::uint16_t* row = pic->row<std::uint16_t>(p, y);
      for (int x = 0; x < pic->width(p); ++x) any |= row[x];
    }
  return (any >> bpc) != 0;
}

}  // namespace vqtwin
