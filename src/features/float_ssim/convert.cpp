#include "features/float_ssim/convert.hpp"

#include <cstdint>
#include <string>

#include "vqtwin/error.hpp"

namespace vqtwin::float_ssim {

void luma_to_float(const Picture& pic, float* dst) {
  const int w = pic.width(0), h = pic.height(0);
  const int bpc = pic.format().bitdepth;
  if (bpc == 8) {
    for (int y = 0; y < h; ++y, dst += w) {
      const std::uint8_t* src = pic.row<std::uint8_t>(0, y);
      for (int x = 0; x < w; ++x) dst[x] = float(src[x]);
    }
    return;
  }
  // Multiplying by the exact reciprocal of a power of two equals libvmaf's division.
  const float inv = bpc == 10 ? 0.25f : bpc == 12 ? 0.0625f : 0.00390625f;
  for (int y = 0; y < h; ++y, dst += w) {
    const std::uint16_t* src = pic.row<std::uint16_t>(0, y);
    for (int x = 0; x < w; ++x) dst[x] = float(src[x]) * inv;
  }
}

}  // namespace vqtwin::float_ssim
