#pragma once
// Luma samples -> float in the 8-bit range, as libvmaf's picture_copy makes them: 8-bit v as is,
// 10/12/16-bit v / 4, 16, 256 (exact: a power of two), then minus an offset (exact for these
// values): 0 for the SSIM features, 128 for VIF, ADM and float motion (spec: float_vif.md §2).
// One rule for every float feature and, through VQTWIN_HD, their device twins.
#include <cstdint>

#include "common/isa.hpp"
#include "core/hd.hpp"
#include "vqtwin/picture.hpp"

namespace vqtwin {

// What a sample of depth `bitdepth` (8..16) is divided by: 2^(bitdepth - 8).
VQTWIN_HD inline float luma_scale(int bitdepth) { return float(1u << (bitdepth - 8)); }

VQTWIN_HD inline float luma_to_float(std::uint8_t v, float offset) { return float(v) - offset; }
VQTWIN_HD inline float luma_to_float(std::uint16_t v, float scale, float offset) { return float(v) / scale - offset; }

// One row; inline, so that a kernel variant built for a wider set vectorises its own copy.
VQTWIN_ALWAYS_INLINE void luma_row_to_float(const std::uint8_t* src, int w, float offset, float* __restrict dst) {
  for (int x = 0; x < w; ++x) dst[x] = luma_to_float(src[x], offset);
}
VQTWIN_ALWAYS_INLINE void luma_row_to_float(const std::uint16_t* src, int w, float scale, float offset,
                                            float* __restrict dst) {
  for (int x = 0; x < w; ++x) dst[x] = luma_to_float(src[x], scale, offset);
}

// The luma plane of `pic` as width x height packed floats.
void luma_to_float(const Picture& pic, float offset, float* dst);

}  // namespace vqtwin
