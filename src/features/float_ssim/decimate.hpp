#pragma once
// float_ssim's box low-pass + decimation (spec: float_ssim.md §4), a separate function because the
// CUDA twin is tested against it, at scales beyond the option's range too.
namespace vqtwin::float_ssim {

// `src` is a packed w x h plane, `dst` receives decimated_size(w, scale) x
// decimated_size(h, scale) packed samples; dst must not overlap src. 1 <= scale <= kMaxScale
// (float_ssim itself never decimates at scale 1, where the size rule would add a mirrored sample to
// an odd dimension). Output (x, y) is the s x s box centred on source (x*s, y*s) (taps -s/2 ..
// s-1-s/2, rows outer, columns inner, mirrored edges): each tap the float product
// sample * box_weight(s) added to a double sum in that order, the sum rounded to float once. For
// samples on the 2^-8 grid in [0, 256) and s <= 128 the double sum is exact, which is what lets a
// device reproduce it with integer arithmetic.
void box_decimate(const float* src, int w, int h, int scale, float* dst);

}  // namespace vqtwin::float_ssim
