#pragma once
// float_motion's scalar math, shared by the CPU reference and the twins (spec: float_motion.md).
// Everything here is IEEE binary32/binary64 with each operation rounded once, in this order.
#include <cmath>

#include "core/hd.hpp"

namespace vqtwin::float_motion {

// The blur taps as libvmaf declares them: decimal double literals converted to float.
// 5-tap: the normalised Gaussian of sigma 1 (binary32 0x3D5F2F87, 0x3E7A0FEB, 0x3ECE2434).
inline constexpr float kTaps5[5] = {float(0.054488685), float(0.244201342), float(0.402619947),
                                    float(0.244201342), float(0.054488685)};
// 3-tap: Gaussian of sigma ~0.6.
inline constexpr float kTaps3[3] = {float(0.166378498), float(0.667243004), float(0.166378498)};

// motion_filter_size -> number of taps libvmaf reads: 1 is a 5-tap pass-through [0 0 1 0 0],
// 3 the 3-tap filter, anything else the 5-tap Gaussian.
VQTWIN_HD inline int taps_read(int filter_size) { return filter_size == 3 ? 3 : 5; }

// libvmaf's MIN(a, b) = a < b ? a : b (the order decides which operand a tie returns).
VQTWIN_HD inline double min_of(double a, double b) { return a < b ? a : b; }

// score * fps weight, clipped to the maximum (double).
VQTWIN_HD inline double weighted(double score, double fps_weight, double max_val) {
  return min_of(score * fps_weight, max_val);
}

// motion3's blend: m*f + (1 - f)*min(offset, m), in this order, never fused.
VQTWIN_HD inline double blend(double m, double factor, double offset) {
  const double kept = m * factor;
  const double rest = (1 - factor) * min_of(offset, m);
  return kept + rest;
}

// motion3 = the weighted score blended, then clipped.
VQTWIN_HD inline double blended(double score, double fps_weight, double factor, double offset, double max_val) {
  return min_of(blend(score * fps_weight, factor, offset), max_val);
}

// The SAD mean: the fp32 total divided by the pixel count converted to float (a float division).
VQTWIN_HD inline float sad_mean(float total, int w, int h) { return total / float(w * h); }

// One plane's score from its SAD totals: the full-size mean, plus the half-size mean with
// motion_add_scale1 (an fp32 sum, as libvmaf returns it from a float function).
VQTWIN_HD inline float plane_score(float total, int w, int h, bool add_half, float half_total, int dw, int dh) {
  float score = sad_mean(total, w, h);
  if (add_half) score = score + sad_mean(half_total, dw, dh);
  return score;
}

// motion_add_scale1's half size: C's round(n * 0.5), halves away from zero (853 -> 427).
VQTWIN_HD inline int half_size(int n) { return int(n * 0.5 + 0.5); }

// One axis of the half-size bilinear resampler: for output position x, the two source taps and the
// fractional weight of the second one. The position is (x + 0.5) * ratio - 0.5 evaluated in double
// (0.5 is a double literal there) from the float ratio src/dst, then stored as float.
struct BilinearTap {
  int i0, i1;
  float frac;
};
// The resampler's edge rule (reflect about the first/last sample, on float positions).
VQTWIN_HD inline float mirror_pos(float i, float last) { return i < 0 ? -i : i > last ? 2 * last - i : i; }
VQTWIN_HD inline BilinearTap bilinear_tap(int x, int src_n, int dst_n) {
  const float ratio = float(src_n) / float(dst_n);
  const float pos = float((x + 0.5) * double(ratio) - 0.5);
  const float last = float(src_n - 1);
  const int i0 = int(mirror_pos(float(std::floor(pos)), last));
  const int i1 = int(mirror_pos(float(std::ceil(pos)), last));
  return {i0, i1, pos - float(i0)};
}

}  // namespace vqtwin::float_motion
