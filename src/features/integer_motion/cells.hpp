#pragma once
// integer motion's SAD one output at a time (spec/integer_motion.md §3), for the device twin: the
// vertical pass of the difference at one sample, the horizontal pass at one sample of a row of those,
// and the row total. Plain int64 arithmetic with floor shifts; the unit tests compare these on the
// host with the CPU's SAD (sad_kernels.inc), whose loops are written for vector units.
#include <cstddef>
#include <cstdint>

#include "core/hd.hpp"
#include "features/integer_motion/math.hpp"

namespace vqtwin::integer_motion {

// Reflect-101: -1 -> 1, -2 -> 2, n -> n-2, n+1 -> n-3 (n >= 3).
VQTWIN_HD inline int reflect101(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - 2 - i : i); }

// The 5-tap filter as values (device code cannot index the host array kTaps).
struct Taps5 {
  std::int32_t f[5];
};
VQTWIN_HD inline Taps5 motion_taps() {
  constexpr Taps5 t = {{kTaps[0], kTaps[1], kTaps[2], kTaps[3], kTaps[4]}};
  return t;
}

// V at (x, y): the 5-tap vertical filter of prev - cur, + 2^(bpc-1), floor >> bpc.
template <class T>
VQTWIN_HD inline std::int32_t vertical_at(const T* prev, std::ptrdiff_t prev_stride, const T* cur,
                                          std::ptrdiff_t cur_stride, int h, int bpc, int x, int y) {
  const Taps5 taps = motion_taps();
  std::int64_t acc = 0;
  for (int k = 0; k < 5; ++k) {
    const std::ptrdiff_t r = reflect101(y - 2 + k, h);
    const std::int32_t d = std::int32_t(prev[r * prev_stride + x]) - std::int32_t(cur[r * cur_stride + x]);
    acc += std::int64_t(taps.f[k]) * d;
  }
  return std::int32_t((acc + (std::int64_t(1) << (bpc - 1))) >> bpc);
}

// |X| at column x of a row of V (w values): the 5-tap horizontal filter, + 2^15, floor >> 16.
VQTWIN_HD inline std::uint32_t horizontal_abs_at(const std::int32_t* v, int w, int x) {
  const Taps5 taps = motion_taps();
  std::int64_t acc = 0;
  for (int k = 0; k < 5; ++k) acc += std::int64_t(taps.f[k]) * v[reflect101(x - 2 + k, w)];
  const std::int32_t xv = std::int32_t((acc + 32768) >> 16);
  return std::uint32_t(xv < 0 ? -xv : xv);
}

// A row's |X| values are summed in uint32 (libvmaf's width): the exact sum modulo 2^32, whatever
// the order. The frame's SAD adds these row totals in uint64.
VQTWIN_HD inline std::uint64_t row_total(std::uint64_t exact_row_sum) { return std::uint32_t(exact_row_sum); }

}  // namespace vqtwin::integer_motion
