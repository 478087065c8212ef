#pragma once
// float_motion one output at a time, for the device twin (spec: float_motion.md): one sample of the
// vertical pass of the blur (from the raw samples, converted as libvmaf's picture_copy), one sample of
// the horizontal pass from a row of those, one half-size sample (motion_add_scale1), and a row's SAD in
// column order. Each is the CPU's loop body for one output (kernels.inc, blur.cpp) with the same fp32
// operations in the same order. tests/unit/float_motion_cells_test.cpp runs them on the host against
// the CPU's blur and scores.
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "common/luma_float.hpp"
#include "core/hd.hpp"
#include "features/float_motion/math.hpp"

namespace vqtwin::float_motion {

// The blur as values: taps_read(filter_size) taps (3 or 5), or the pass-through of filter size 1.
struct BlurTaps {
  float f[5];
  int n;
  bool identity;
};
inline BlurTaps blur_taps(int filter_size) {
  BlurTaps t{};
  t.n = taps_read(filter_size);
  for (int k = 0; k < t.n; ++k) t.f[k] = t.n == 3 ? kTaps3[k] : kTaps5[k];
  t.identity = filter_size == 1;
  return t;
}

// Reflect without repeating the edge sample (-1 -> 1, n -> n-2), libvmaf's convolution edges.
VQTWIN_HD inline int blur_reflect(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - 2 - i : i); }

// A sample as float, minus 128 (8 bits: v - 128; deeper: v / scale - 128).
template <class T>
VQTWIN_HD inline float sample_at(const T* plane, std::ptrdiff_t stride, float scale, int x, int y) {
  const T v = plane[std::ptrdiff_t(y) * stride + x];
  if constexpr (sizeof(T) == 1) return luma_to_float(v, 128.0f);
  else return luma_to_float(v, scale, 128.0f);
}

// f[0]*v[0] + f[1]*v[1] + ... added left to right (no leading 0, as the CPU's kernels).
VQTWIN_HD inline float taps_sum(const BlurTaps& t, const float v[5]) {
  if (t.n == 3) return (t.f[0] * v[0] + t.f[1] * v[1]) + t.f[2] * v[2];
  return (((t.f[0] * v[0] + t.f[1] * v[1]) + t.f[2] * v[2]) + t.f[3] * v[3]) + t.f[4] * v[4];
}

// The vertical pass at (x, y) of a w x h plane (stride in samples).
template <class T>
VQTWIN_HD inline float vertical_at(const T* plane, std::ptrdiff_t stride, int h, float scale, const BlurTaps& t, int x,
                                   int y) {
  const int r = t.n / 2;
  float v[5];
  for (int k = 0; k < t.n; ++k) v[k] = sample_at(plane, stride, scale, x, blur_reflect(y - r + k, h));
  return taps_sum(t, v);
}

// The horizontal pass at column x of a row of w vertical values.
VQTWIN_HD inline float horizontal_at(const float* row, int w, const BlurTaps& t, int x) {
  const int r = t.n / 2;
  float v[5];
  for (int k = 0; k < t.n; ++k) v[k] = row[blur_reflect(x - r + k, w)];
  return taps_sum(t, v);
}

// One half-size sample (x, y) of src (w x h packed) into a dw x dh plane.
VQTWIN_HD inline float half_at(const float* src, int w, int h, int dw, int dh, int x, int y) {
  const BilinearTap tx = bilinear_tap(x, w, dw), ty = bilinear_tap(y, h, dh);
  const float* r0 = src + std::ptrdiff_t(ty.i0) * w;
  const float* r1 = src + std::ptrdiff_t(ty.i1) * w;
  const float dx = tx.frac, dy = ty.frac;
  const int a = tx.i0, b = tx.i1;
  // Weight products first, then times the sample, the four terms added left to right.
  return (1 - dy) * (1 - dx) * r0[a] + (1 - dy) * dx * r0[b] + dy * (1 - dx) * r1[a] + dy * dx * r1[b];
}

// A row's SAD: |a - b| added left to right from 0, in fp32.
VQTWIN_HD inline float row_sad(const float* a, const float* b, int w) {
  float s = 0;
  for (int x = 0; x < w; ++x) s = s + fabsf(a[x] - b[x]);
  return s;
}

// Row totals added in row order into an fp32 total (from 0).
VQTWIN_HD inline float rows_in_order(const float* rows, int n) {
  float total = 0;
  for (int y = 0; y < n; ++y) total = total + rows[y];
  return total;
}

}  // namespace vqtwin::float_motion
