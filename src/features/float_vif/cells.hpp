#pragma once
// float_vif one output at a time, for the device twin (spec: float_vif.md §4, §5, §7): the five
// vertical moments at one sample, the horizontal pass at one column of a row, one decimated sample,
// one pixel's statistic (math.hpp's pixel_num_den) and the in-order float sum of a row. Each is the
// CPU's scalar loop body for one output (scale_rows.inc), with the same operations in the same
// order: accumulators from 0.0f, taps ascending, products rounded before the add, reflect-101 edges
// applied once. tests/unit/float_vif_cells_test.cpp runs them on the host against the CPU's sums.
#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

#include "core/hd.hpp"
#include "features/float_vif/math.hpp"
#include "features/float_vif/prescale.hpp"

namespace vqtwin::float_vif {

// The widest kernel (ks = 360/97 at scale 0: 65 taps).
inline constexpr int kMaxKernelTaps = 65;

// A kernel as a value (passed to device kernels as an argument).
struct Taps {
  float k[kMaxKernelTaps];
  int n;
};

inline Taps taps_of(std::span<const float> kernel) {
  Taps t{};
  t.n = int(kernel.size());
  for (int i = 0; i < t.n && i < kMaxKernelTaps; ++i) t.k[i] = kernel[std::size_t(i)];
  return t;
}

// libvmaf's reflect-101, applied once: -q for q < 0, 2n - q - 2 for q >= n.
VQTWIN_HD inline int reflect101(int q, int n) { return q < 0 ? -q : (q >= n ? 2 * n - q - 2 : q); }

// The five vertical moments of planes a (ref) and b (dis), w x h packed, at column j of row i:
// per moment acc = 0, then acc += k[t] * S for t ascending, S = x, y, x*x, y*y, x*y.
struct Moments5 {
  float m[5];
};
VQTWIN_HD inline Moments5 vertical_moments_at(const float* a, const float* b, int w, int h, const Taps& k, int i,
                                              int j) {
  const int r = k.n / 2;
  float s1 = 0.0f, s2 = 0.0f, sxx = 0.0f, syy = 0.0f, sxy = 0.0f;
  for (int t = 0; t < k.n; ++t) {
    const std::ptrdiff_t q = reflect101(i - r + t, h);
    const float kt = k.k[t];
    const float x = a[q * w + j];
    const float y = b[q * w + j];
    s1 += kt * x;
    s2 += kt * y;
    sxx += kt * (x * x);
    syy += kt * (y * y);
    sxy += kt * (x * y);
  }
  return {{s1, s2, sxx, syy, sxy}};
}

// The horizontal pass at output j of a row of w values: acc = 0, acc += k[t] * in[step*j - r + t]
// for t ascending (reflect-101 on the row). step 1 filters every column, step 2 decimates.
VQTWIN_HD inline float horizontal_at(const float* in, int w, const Taps& k, int j, int step) {
  const int r = k.n / 2;
  float acc = 0.0f;
  for (int t = 0; t < k.n; ++t) acc += k.k[t] * in[reflect101(step * j - r + t, w)];
  return acc;
}

// The plain vertical pass of src (w x h packed) at column j of row i: out = 0, out += k[t] * a.
VQTWIN_HD inline float vertical_plain_at(const float* src, int w, int h, const Taps& k, int i, int j) {
  const int r = k.n / 2;
  float out = 0.0f;
  for (int t = 0; t < k.n; ++t) out += k.k[t] * src[std::ptrdiff_t(reflect101(i - r + t, h)) * w + j];
  return out;
}

// One sample (i, j) of the blurred and decimated plane (floor(w/2) x floor(h/2)): the horizontal
// pass at column 2j of the vertical pass at row 2i (each vertical value recomputed, same bits).
VQTWIN_HD inline float blur_decimate_at(const float* src, int w, int h, const Taps& k, int i, int j) {
  const int r = k.n / 2;
  float acc = 0.0f;
  for (int t = 0; t < k.n; ++t) acc += k.k[t] * vertical_plain_at(src, w, h, k, 2 * i, reflect101(2 * j - r + t, w));
  return acc;
}

// ---- vif_prescale, one output sample at a time: prescale.cpp (CPU) and the twin both call these ----

// Reflect-101 on float positions, applied once: -v below 0, 2(n-1) - v above n-1.
VQTWIN_HD inline float prescale_mirror(float v, int n) {
  const float right = float(n - 1);
  return v < 0.0f ? -v : (v > right ? 2.0f * right - v : v);
}
VQTWIN_HD inline int prescale_mirror_index(int v, int n) { return int(prescale_mirror(float(v), n)); }

// Centre-aligned source coordinate: ((x + 0.5) * ratio - 0.5) in double, rounded to float.
VQTWIN_HD inline float prescale_centre(int x, float ratio) { return float((double(x) + 0.5) * double(ratio) - 0.5); }

// src is sw x sh packed; rx = sw / dw, ry = sh / dh in float.
VQTWIN_HD inline float nearest_at(const float* src, int sw, float rx, float ry, int x, int y) {
  return src[std::ptrdiff_t(int(float(y) * ry)) * sw + int(float(x) * rx)];
}

VQTWIN_HD inline float bilinear_at(const float* src, int sw, int sh, float rx, float ry, int x, int y) {
  const float xx = prescale_centre(x, rx);
  const int x1 = int(prescale_mirror(floorf(xx), sw));
  const int x2 = int(prescale_mirror(ceilf(xx), sw));
  const float dx = xx - float(x1);  // from the mirrored index, as libvmaf
  const float yy = prescale_centre(y, ry);
  const int y1 = int(prescale_mirror(floorf(yy), sh));
  const int y2 = int(prescale_mirror(ceilf(yy), sh));
  const float dy = yy - float(y1);
  const float* r1 = src + std::ptrdiff_t(y1) * sw;
  const float* r2 = src + std::ptrdiff_t(y2) * sw;
  return (1.0f - dy) * (1.0f - dx) * r1[x1] + (1.0f - dy) * dx * r1[x2] + dy * (1.0f - dx) * r2[x1] + dy * dx * r2[x2];
}

VQTWIN_HD inline float bicubic_weight(float t) {
  const float a = -0.75f;
  if (t < 0.0f) t = -t;
  if (t < 1.0f) return ((a + 2.0f) * t - (a + 3.0f)) * t * t + 1.0f;
  if (t < 2.0f) return (((t - 5.0f) * t + 8.0f) * t - 4.0f) * a;
  return 0.0f;
}

VQTWIN_HD inline float bicubic_at(const float* src, int sw, int sh, float rx, float ry, int x, int y) {
  const float xx = prescale_centre(x, rx), yy = prescale_centre(y, ry);
  const int x0 = int(floorf(xx));
  const int y0 = int(floorf(yy));
  const float dx = xx - float(x0);
  const float dy = yy - float(y0);
  float wx[4], wy[4];
  for (int i = -1; i <= 2; ++i) {
    wx[i + 1] = bicubic_weight(float(i) - dx);
    wy[i + 1] = bicubic_weight(float(i) - dy);
  }
  float v = 0.0f;
  for (int j = -1; j <= 2; ++j)
    for (int i = -1; i <= 2; ++i) {
      const float weight = wx[i + 1] * wy[j + 1];
      v += src[std::ptrdiff_t(prescale_mirror_index(y0 + j, sh)) * sw + prescale_mirror_index(x0 + i, sw)] * weight;
    }
  return v;
}

// Lanczos-4: its weights use the C library's double sin, so the host computes them once per output
// column and row (they depend on nothing else) and the device only applies them.
inline constexpr int kLanczosTaps = 9;
struct LanczosAxis {
  int start;                // floor of the centred source coordinate
  float w[kLanczosTaps];    // weights of start - 4 .. start + 4
};

// Host: the axis of output index x for a source/destination ratio (libvmaf's per-pixel weights depend on x alone).
inline LanczosAxis lanczos_axis(int x, float ratio) {
  LanczosAxis a{};
  const float c = prescale_centre(x, ratio);
  a.start = int(std::floor(c));
  const float d = c - float(a.start);
  for (int i = -4; i <= 4; ++i) a.w[i + 4] = lanczos4_weight(float(i) - d);
  return a;
}

// Host: the axes of output indices 0 .. n-1 (the CPU's resize and the twins' tables alike).
inline std::vector<LanczosAxis> lanczos_axes(int n, float ratio) {
  std::vector<LanczosAxis> axes(static_cast<std::size_t>(n));
  for (int x = 0; x < n; ++x) axes[std::size_t(x)] = lanczos_axis(x, ratio);
  return axes;
}

VQTWIN_HD inline float lanczos_at(const float* src, int sw, int sh, const LanczosAxis& ax, const LanczosAxis& ay) {
  float v = 0.0f;
  float weight_sum = 0.0f;
  for (int iy = 0; iy < kLanczosTaps; ++iy)
    for (int ix = 0; ix < kLanczosTaps; ++ix) {
      const float weight = ax.w[ix] * ay.w[iy];
      weight_sum += weight;
      v += src[std::ptrdiff_t(prescale_mirror_index(ay.start + iy - 4, sh)) * sw +
               prescale_mirror_index(ax.start + ix - 4, sw)] *
           weight;
    }
  return v / weight_sum;
}

// Output (x, y) of the resampled plane (dw x dh) by `method`; `ax`/`ay` the Lanczos axes (lanczos4 only).
VQTWIN_HD inline float prescaled_at(PrescaleMethod method, const float* src, int sw, int sh, float rx, float ry,
                                    const LanczosAxis* ax, const LanczosAxis* ay, int x, int y) {
  switch (method) {
    case PrescaleMethod::kNearest: return nearest_at(src, sw, rx, ry, x, y);
    case PrescaleMethod::kBilinear: return bilinear_at(src, sw, sh, rx, ry, x, y);
    case PrescaleMethod::kBicubic: return bicubic_at(src, sw, sh, rx, ry, x, y);
    case PrescaleMethod::kLanczos4: return lanczos_at(src, sw, sh, ax[x], ay[y]);
  }
  return 0.0f;
}

// A row's (or the rows') values added in order from 0.0f, in float.
VQTWIN_HD inline float sum_in_order(const float* v, int n) {
  float acc = 0.0f;
  for (int j = 0; j < n; ++j) acc += v[j];
  return acc;
}

}  // namespace vqtwin::float_vif
