#pragma once
// Luma samples -> float with libvmaf's offset of -128 (float_vif.md §2; float ADM uses the same copy).
// 8 bit: v - 128; 10/12/16 bit: v / 4, 16, 256 then - 128 (all exact). Other bit depths are
// refused at init by the extractors, so they never reach this.
#include <cstdint>

#include "vqtwin/picture.hpp"

namespace vqtwin::float_vif {

inline void luma_to_float(const Picture& pic, float* dst) {
  const int w = pic.width(0);
  const int h = pic.height(0);
  const int depth = pic.format().bitdepth;
  if (depth == 8) {
    for (int y = 0; y < h; ++y) {
      const std::uint8_t* s = pic.row<std::uint8_t>(0, y);
      float* d = dst + std::ptrdiff_t(y) * w;
      for (int x = 0; x < w; ++x) d[x] = float(s[x]) + -128.0f;
    }
    return;
  }
  const float scale = depth == 10 ? 4.0f : depth == 12 ? 16.0f : 256.0f;
  for (int y = 0; y < h; ++y) {
    const std::uint16_t* s = pic.row<std::uint16_t>(0, y);
    float* d = dst + std::ptrdiff_t(y) * w;
    for (int x = 0; x < w; ++x) d[x] = float(s[x]) / scale + -128.0f;
  }
}

}  // namespace vqtwin::float_vif
