#include "features/psnr/sse.hpp"

namespace vqtwin::psnr {
namespace {

template <class T>
std::uint64_t sse_rows(const Picture& ref, const Picture& dist, int p) {
  const int w = ref.scored_width(p), h = ref.scored_height(p);
  std::uint64_t sse = 0;
  for (int y = 0; y < h; ++y) {
    const T* a = ref.row<T>(p, y);
    const T* b = dist.row<T>(p, y);
    // The magnitude squared as unsigned: 65535^2 < 2^32, where a signed square of a difference
    // overflows past 46340 (16-bit content, or out-of-range samples at 10/12 bits).
    // Per-row 64-bit sum: exact for any width (libvmaf's 8-bit 32-bit row sum agrees below 66052 px).
    std::uint64_t row = 0;
    for (int x = 0; x < w; ++x) {
      const std::uint32_t e = a[x] > b[x] ? std::uint32_t(a[x] - b[x]) : std::uint32_t(b[x] - a[x]);
      row += e * e;
    }
    sse += row;
  }
  return sse;
}

}  // namespace

std::uint64_t plane_sse(const Picture& ref, const Picture& dist, int plane) {
  return ref.format().bitdepth > 8 ? sse_rows<std::uint16_t>(ref, dist, plane)
                                   : sse_rows<std::uint8_t>(ref, dist, plane);
}

}  // namespace vqtwin::psnr
