#include "common/luma_float.hpp"

#include <cstddef>

namespace vqtwin {

void luma_to_float(const Picture& pic, float offset, float* dst) {
  const int w = pic.width(0), h = pic.height(0);
  const int bpc = pic.format().bitdepth;
  for (int y = 0; y < h; ++y, dst += std::ptrdiff_t(w)) {
    if (bpc == 8) luma_row_to_float(pic.row<std::uint8_t>(0, y), w, offset, dst);
    else luma_row_to_float(pic.row<std::uint16_t>(0, y), w, luma_scale(bpc), offset, dst);
  }
}

}  // namespace vqtwin
