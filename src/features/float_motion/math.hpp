#pragma once
// float_motion's scalar math, shared by the CPU reference and the twins (spec: float_motion.md).
// Everything here is IEEE binary32/binary64 with each operation rounded once, in this order.
#include <cmath>

#include "core/hd.hpp"

namespace vqtwin::float_motion {

// The blur taps as libvmaf declares them: decimal double literals converted to float.
// 5-tap: the normalised Gaussian of sigma 1 (binary32 0x3D5F2F87, 0x3E7A0FEB, 0x3ECE2434).
// 3-tap: Gaussian of sigma ~0.6. (Functions too: device code cannot read namespace-scope arrays.)
struct BlurTaps {
  float v[5];
};
VQTWIN_HD constexpr BlurTaps taps5() {
  return {{float(0.054488685), float(0.244201342), float(0.402619947), float(0.244201342), float(0.054488685)}};
}
VQTWIN_HD constexpr BlurTaps taps3() { return {{float(0.166378498), float(0.667243004), float(0.166378498), 0, 0}}; }
inline constexpr float kTaps5[5] = {taps5().v[0], taps5().v[1], taps5().v[2], taps5().v[3], taps5().v[4]};
inline constexpr float kTaps3[3] = {taps3().v[0], taps3().v[1], taps3().v[2]};

// One blur output from its taps' samples x[0..N-1] (N = 3 or 5): f[0]*x[0] + f[1]*x[1] + ... added
// left to right in fp32 from the first product (kernels.inc: the CPU's row and column loops).
VQTWIN_HD inline float blur_dot(const BlurTaps& f, int n, const float* x) {
  if (n == 3) return (f.v[0] * x[0] + f.v[1] * x[1]) + f.v[2] * x[2];
  return (((f.v[0] * x[0] + f.v[1] * x[1]) + f.v[2] * x[2]) + f.v[3] * x[3]) + f.v[4] * x[4];
}

// Reflect without repeating the edge sample (-1 -> 1, n -> n-2), libvmaf's convolution edges.
VQTWIN_HD inline int reflect101(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - 2 - i : i); }

// picture_copy with offset -128: v - 128 in 8-bit units; `recip` is 1, 1/4, 1/16 or 1/256, the exact
// reciprocal of libvmaf's divisor (v * recip == v / divisor bit for bit).
VQTWIN_HD inline float motion_sample(unsigned v, float recip) { return float(v) * recip - 128.0f; }

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
// One half-size output from its two rows and two columns: the weight products first, then times
// the sample, the four terms added left to right (fp32, each operation rounded once).
VQTWIN_HD inline float bilinear_at(const float* r0, const float* r1, int a, int b, float dx, float dy) {
  return (1 - dy) * (1 - dx) * r0[a] + (1 - dy) * dx * r0[b] + dy * (1 - dx) * r1[a] + dy * dx * r1[b];
}
// motion_add_scale1 on chroma with motion_add_uv. libvmaf 3.2's float_motion.c keeps every plane's blur
// at the luma plane's float row stride, but vmaf_image_sad_c (motion.c) resamples its input with the
// stride it derives from the width it is handed, ALIGN_CEIL(w * 4) / 4 floats (32-byte rows). For a
// subsampled chroma plane that is a shorter stride than the one the rows were written with: the
// resampler's row r, column c is the float at flat offset r * read + c of the buffer, i.e. stored row
// (r * read + c) / stored, column (r * read + c) % stored. Columns at or past the plane's width there are
// the rows' unwritten padding (never written by libvmaf's blur; zero in a fresh mapping, which is what
// every golden shows), read here as 0. With equal strides (luma, 4:4:4) this is the plane itself.
VQTWIN_HD inline int libvmaf_float_stride(int w) {
  const int bytes = w * 4;
  return (bytes + (bytes % 32 ? 32 - bytes % 32 : 0)) / 4;
}
struct ResampleView {
  int stored = 0, read = 0;  // row strides in floats: the one written, the one the resampler reads with
  VQTWIN_HD bool identity() const { return stored == read; }
};
// The float the resampler sees at (r, c) of a w-wide plane held densely (row stride w) in `plane`.
VQTWIN_HD inline float resample_input_at(const float* plane, int w, ResampleView v, int r, int c) {
  const long k = long(r) * v.read + c;
  const long row = k / v.stored, col = k % v.stored;
  return col < w ? plane[row * w + col] : 0.0f;
}

inline BilinearTap bilinear_tap(int x, int src_n, int dst_n) {
  const float ratio = float(src_n) / float(dst_n);
  const float pos = float((x + 0.5) * double(ratio) - 0.5);
  const float last = float(src_n - 1);
  const int i0 = int(mirror_pos(float(std::floor(pos)), last));
  const int i1 = int(mirror_pos(float(std::ceil(pos)), last));
  return {i0, i1, pos - float(i0)};
}

}  // namespace vqtwin::float_motion
