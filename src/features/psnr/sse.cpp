#include "features/psnr/sse.hpp"

namespace vqtwin::psnr {
namespace {

template <class T>
std::uint64_t sse_rows(const Picture& ref, const Picture& dist, int p) {
  const int w = ref.width(p), h = ref.height(p);
  std::uint64_t sse = 0;
  for (int y = 0; y < h; ++y) {
    const T* a = ref.row<T>(p, y);
    const T* b = dist.row<T>(p, y);
    // Per-row 64-bit sum: exact for any width (libvmaf's 32-bit row sum agrees below 66052 px).
    std::uint64_t row = 0;
    for (int x = 0; x < w; ++x) {
      const std::int32_t e = std::int32_t(a[x]) - std::int32_t(b[x]);
      row += std::uint32_t(e * e);
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
