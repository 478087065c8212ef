#pragma once
// One step of float_ms_ssim's pyramid (spec float_ms_ssim.md §4).
namespace vqtwin::float_ms_ssim {

// `src` is a packed w x h plane; `dst` receives half_size(w) x half_size(h) packed samples, each the
// 9x9 low-pass centred on source (2x, 2y): rows outer, columns inner, both ascending, the float
// product sample * weight added to a double sum, edges mirrored (-1 -> 0, n -> n-1), the sum rounded
// to float once. Needs w, h >= 5 (one reflection reaches at most 4 samples in); dst must not overlap src.
void lpf_decimate(const float* src, int w, int h, float* dst);

}  // namespace vqtwin::float_ms_ssim
