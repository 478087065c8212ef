#pragma once
// One output row of integer ADM's 2-D Daubechies-2 DWT: the vertical pass over the four mirrored
// source rows, the mirror padding of the intermediate lines, and the horizontal pass.
#include <cstddef>
#include <cstdint>

#include "features/integer_adm/math.hpp"
#include "features/integer_adm/rows.hpp"

namespace vqtwin::integer_adm {

// DWT rounding of scales 1-3 (index 0 unused): vertical and horizontal (shift, rounding term).
inline constexpr int kDwtVShift[4] = {0, 0, 16, 16};
inline constexpr int64_t kDwtVRound[4] = {0, 0, 32768, 32768};
inline constexpr int kDwtHShift[4] = {0, 15, 16, 15};
inline constexpr int64_t kDwtHRound[4] = {0, 16384, 32768, 16384};

// The intermediate line p[0..n) gets its mirrored neighbours p[-1] = p[1], p[n] = p[n-1],
// p[n+1] = p[n-2] (dwt_source), so the horizontal pass reads p[2k-1 .. 2k+2] unchecked.
template <class T>
inline void pad_dwt_line(T* p, int n) {
  p[-1] = p[1];
  p[n] = p[n - 1];
  p[n + 1] = p[n - 2];
}

// Scale 0 from samples: row y of a, and band = {h, v, d}. lo/hi: scratch of in_w + 3 values.
template <class Pixel>
inline void dwt0_row(const Pixel* plane, std::ptrdiff_t stride, int in_w, int in_h, int bitdepth, int y,
                     int16_t* lo, int16_t* hi, int16_t* a, int16_t* const band[3], const RowKernels& k) {
  const Pixel* rows[4];
  for (int t = 0; t < 4; ++t) rows[t] = plane + std::ptrdiff_t(dwt_source(2 * y - 1 + t, in_h)) * stride;
  if constexpr (sizeof(Pixel) == 1) k.dwt0_vertical_u8(rows, in_w, bitdepth, lo + 1, hi + 1);
  else k.dwt0_vertical_u16(rows, in_w, bitdepth, lo + 1, hi + 1);
  pad_dwt_line(lo + 1, in_w);
  pad_dwt_line(hi + 1, in_w);
  k.dwt0_horizontal(lo + 1, hi + 1, (in_w + 1) / 2, a, band[1], band[0], band[2]);
}

// The scalar vertical pass of scales 1-3 over int16 or int32 rows (the reference's, and the vector
// kernels' row tails).
template <class In>
void dwt_vertical_rows(const In* const rows[4], int n, int shift, int64_t round, int32_t* lo, int32_t* hi) {
  for (int x = 0; x < n; ++x) {
    int64_t l = 0, h = 0;
    for (int t = 0; t < 4; ++t) {
      l += int64_t(kLo[t]) * rows[t][x];
      h += int64_t(kHi[t]) * rows[t][x];
    }
    lo[x] = int32_t((l + round) >> shift);
    hi[x] = int32_t((h + round) >> shift);
  }
}

// RowKernels::dwt123 / dwt1 from a set's two passes: the vertical one into lo/hi (padded by one value
// before and two after), the horizontal one from them.
template <auto Vertical, auto Horizontal, class In>
void dwt123_by_passes(const In* const rows[4], int n, int scale, int32_t* lo, int32_t* hi, int32_t* a, int32_t* v,
                      int32_t* h, int32_t* d) {
  Vertical(rows, n, kDwtVShift[scale], kDwtVRound[scale], lo + 1, hi + 1);
  pad_dwt_line(lo + 1, n);
  pad_dwt_line(hi + 1, n);
  Horizontal(lo + 1, hi + 1, (n + 1) / 2, kDwtHShift[scale], kDwtHRound[scale], a, v, h, d);
}

// Scales 1-3 from the previous a band (in_w x in_h, stride in_w; int16 for scale 1 in the pipeline).
// lo/hi: scratch of in_w + 3 values.
template <class In>
inline void dwt123_row(int scale, const In* plane, int in_w, int in_h, int y, int32_t* lo, int32_t* hi, int32_t* a,
                       int32_t* const band[3], const RowKernels& k) {
  const In* rows[4];
  for (int t = 0; t < 4; ++t) rows[t] = plane + std::ptrdiff_t(dwt_source(2 * y - 1 + t, in_h)) * in_w;
  if constexpr (sizeof(In) == 2) k.dwt1(rows, in_w, scale, lo, hi, a, band[1], band[0], band[2]);
  else k.dwt123(rows, in_w, scale, lo, hi, a, band[1], band[0], band[2]);
}

}  // namespace vqtwin::integer_adm
