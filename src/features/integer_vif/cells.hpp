#pragma once
// integer VIF one output at a time, for the device twin (spec/integer_vif.md §4, §9): the vertical
// moments at one sample, the local statistics at one sample of a row of moments, and the two passes
// of the downsampling filter. Each is the CPU's portable loop body (kernels_scalar.cpp) for one output,
// in uint64 with the same rounding shifts and uint32 stores; the per-pixel statistic is math.hpp's
// accumulate_pixel itself. The unit tests run these on the host against the CPU's sums.
#include <cstddef>
#include <cstdint>

#include "core/hd.hpp"
#include "features/integer_vif/math.hpp"

namespace vqtwin::integer_vif {

// A kernel's taps as values (device code cannot index the host arrays kKernel0..3).
struct Taps {
  std::uint32_t f[kMaxTaps];
  int size;
  int half;
};

inline Taps taps_of(int scale) {
  const Kernel k = kernel_of(scale);
  Taps t{};
  for (int i = 0; i < k.size; ++i) t.f[i] = k.taps[i];
  t.size = k.size;
  t.half = k.half;
  return t;
}

// The vertical pass at (col, row) of planes x (ref) and y (dist), h rows, strides in samples.
struct Moments {
  std::uint32_t mx, my, mxx, myy, mxy;
};

template <class T>
VQTWIN_HD inline Moments vertical_moments_at(const T* x, std::ptrdiff_t stride_x, const T* y, std::ptrdiff_t stride_y,
                                             int h, const Taps& k, MomentShifts sh, int col, int row) {
  std::uint64_t sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
  for (int t = 0; t < k.size; ++t) {
    const std::ptrdiff_t r = mirror(row - k.half + t, h);
    const std::uint64_t f = k.f[t];
    const std::uint64_t a = x[r * stride_x + col], b = y[r * stride_y + col];
    sx += f * a;
    sy += f * b;
    sxx += f * (a * a);
    syy += f * (b * b);
    sxy += f * (a * b);
  }
  // The means in 16 bits as libvmaf keeps them (a no-op for samples below 2^bpc, a wrap above).
  return {std::uint16_t((sx + sh.mean.round) >> sh.mean.shift), std::uint16_t((sy + sh.mean.round) >> sh.mean.shift),
          std::uint32_t((sxx + sh.square.round) >> sh.square.shift),
          std::uint32_t((syy + sh.square.round) >> sh.square.shift),
          std::uint32_t((sxy + sh.square.round) >> sh.square.shift)};
}

// One row of the five moment planes (w values each).
struct MomentRow {
  const std::uint32_t* mx;
  const std::uint32_t* my;
  const std::uint32_t* mxx;
  const std::uint32_t* myy;
  const std::uint32_t* mxy;
};

struct Sigmas {
  std::int32_t s1, s2, s12;
};

// The horizontal pass at column col (reflect-101 on the row) and the local variances/covariance.
VQTWIN_HD inline Sigmas sigmas_at(const MomentRow& m, int w, const Taps& k, int col) {
  std::uint64_t mx = 0, my = 0, exx = 0, eyy = 0, exy = 0;
  for (int t = 0; t < k.size; ++t) {
    const int c = mirror(col - k.half + t, w);
    const std::uint64_t f = k.f[t];
    mx += f * m.mx[c];
    my += f * m.my[c];
    exx += f * m.mxx[c];
    eyy += f * m.myy[c];
    exy += f * m.mxy[c];
  }
  exx = (exx + 32768) >> 16;
  eyy = (eyy + 32768) >> 16;
  exy = (exy + 32768) >> 16;
  const std::uint64_t pxx = (mx * mx + 0x80000000u) >> 32;
  const std::uint64_t pyy = (my * my + 0x80000000u) >> 32;
  const std::uint64_t pxy = (mx * my + 0x80000000u) >> 32;
  return {std::int32_t(std::int64_t(exx) - std::int64_t(pxx)), std::int32_t(std::int64_t(eyy) - std::int64_t(pyy)),
          std::int32_t(std::int64_t(exy) - std::int64_t(pxy))};
}

// Downsampling to the next scale, vertical pass: column col of output row out_row (source row
// 2 * out_row), from a plane of h rows filtered with the next scale's taps.
template <class T>
VQTWIN_HD inline std::uint32_t downsample_vertical_at(const T* x, std::ptrdiff_t stride, int h, const Taps& k,
                                                      Shift sh, int col, int out_row) {
  std::uint64_t sum = 0;
  for (int t = 0; t < k.size; ++t)
    sum += std::uint64_t(k.f[t]) * x[std::ptrdiff_t(mirror(2 * out_row - k.half + t, h)) * stride + col];
  return std::uint16_t((sum + sh.round) >> sh.shift);  // 16 bits, as libvmaf keeps it
}

// Horizontal pass: output column out_col from a vertically filtered row of w values.
VQTWIN_HD inline std::uint16_t downsample_horizontal_at(const std::uint32_t* v, int w, const Taps& k, int out_col) {
  std::uint64_t sum = 0;
  for (int t = 0; t < k.size; ++t) sum += std::uint64_t(k.f[t]) * v[mirror(2 * out_col - k.half + t, w)];
  return std::uint16_t((sum + 32768) >> 16);
}

}  // namespace vqtwin::integer_vif
