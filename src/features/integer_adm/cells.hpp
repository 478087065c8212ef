#pragma once
// integer ADM one output at a time, for the device twin (spec/integer_adm.md §4, §6-§9): one cell of
// the 2-D DWT (its four vertical sums and the horizontal one, with the CPU's int16 / int32 stores in
// between), the decouple and CSF of one cell, and the contrast-masked and denominator terms of one
// pool cell, plus the per-row rounding of the sums. Each composes math.hpp's per-cell rules exactly
// as the CPU's scalar row kernels do (rows_scalar.cpp); the unit tests run them on the host against
// the CPU's sums. Planes are w x h with row stride w.
#include <cstddef>
#include <cstdint>

#include "core/hd.hpp"
#include "features/integer_adm/dwt.hpp"
#include "features/integer_adm/math.hpp"
#include "features/integer_adm/setup.hpp"

namespace vqtwin::integer_adm {

// ---- DWT ----

// The db2 taps as values (device code cannot index the host arrays kLo / kHi).
struct DwtTaps {
  int32_t lo[4], hi[4];
};
VQTWIN_HD inline DwtTaps dwt_taps() {
  constexpr DwtTaps t = {{kLo[0], kLo[1], kLo[2], kLo[3]}, {kHi[0], kHi[1], kHi[2], kHi[3]}};
  return t;
}

// One DWT output cell: the a band (the next scale's input) and the detail bands {h, v, d}.
template <class Band>
struct DwtCell {
  int32_t a;
  Band band[3];
};

// Scale 0 from the samples (in_w x in_h, stride in samples): cell (x, y).
template <class Pixel>
VQTWIN_HD inline DwtCell<int16_t> dwt0_at(const Pixel* plane, std::ptrdiff_t stride, int in_w, int in_h, int bitdepth,
                                          int x, int y) {
  const DwtTaps k = dwt_taps();
  // The vertical sums modulo 2^32, as rows_scalar.cpp's dwt0_vertical takes them (out-of-range 10/12-bit
  // samples can pass int32; libvmaf's int32 sums wrap).
  const uint32_t offset = uint32_t(kLoSum) << (bitdepth - 1);
  const uint32_t round = 1u << (bitdepth - 1);
  int32_t sa = 0, sv = 0, sh = 0, sd = 0;
  for (int u = 0; u < 4; ++u) {
    const int col = dwt_source(2 * x - 1 + u, in_w);
    uint32_t l = 0u - offset, g = 0;  // the vertical pass of column col, as dwt0_vertical
    for (int t = 0; t < 4; ++t) {
      const uint32_t p = uint32_t(plane[std::ptrdiff_t(dwt_source(2 * y - 1 + t, in_h)) * stride + col]);
      l += uint32_t(k.lo[t]) * p;
      g += uint32_t(k.hi[t]) * p;
    }
    const int32_t lo = int16_t(int32_t(l + round) >> bitdepth);
    const int32_t hi = int16_t(int32_t(g + round) >> bitdepth);
    sa += k.lo[u] * lo;
    sv += k.hi[u] * lo;
    sh += k.lo[u] * hi;
    sd += k.hi[u] * hi;
  }
  return {int16_t((sa + 32768) >> 16),
          {int16_t((sh + 32768) >> 16), int16_t((sv + 32768) >> 16), int16_t((sd + 32768) >> 16)}};
}

// The rounding of scales 1-3 (dwt.hpp's tables), passed to the device by value.
struct DwtShifts {
  int v_shift;
  int64_t v_round;
  int h_shift;
  int64_t h_round;
};
inline DwtShifts dwt_shifts(int scale) {
  return {kDwtVShift[scale], kDwtVRound[scale], kDwtHShift[scale], kDwtHRound[scale]};
}

// Scales 1-3 from the previous a band (in_w x in_h, stride in_w): cell (x, y).
VQTWIN_HD inline DwtCell<int32_t> dwt123_at(const int32_t* plane, int in_w, int in_h, const DwtShifts& s, int x,
                                            int y) {
  const DwtTaps k = dwt_taps();
  int64_t sa = 0, sv = 0, sh = 0, sd = 0;
  for (int u = 0; u < 4; ++u) {
    const int col = dwt_source(2 * x - 1 + u, in_w);
    int64_t l = 0, g = 0;
    for (int t = 0; t < 4; ++t) {
      const int64_t p = plane[std::ptrdiff_t(dwt_source(2 * y - 1 + t, in_h)) * in_w + col];
      l += int64_t(k.lo[t]) * p;
      g += int64_t(k.hi[t]) * p;
    }
    const int64_t lo = int32_t((l + s.v_round) >> s.v_shift);
    const int64_t hi = int32_t((g + s.v_round) >> s.v_shift);
    sa += k.lo[u] * lo;
    sv += k.hi[u] * lo;
    sh += k.lo[u] * hi;
    sd += k.hi[u] * hi;
  }
  return {int32_t((sa + s.h_round) >> s.h_shift),
          {int32_t((sh + s.h_round) >> s.h_shift), int32_t((sv + s.h_round) >> s.h_shift),
           int32_t((sd + s.h_round) >> s.h_shift)}};
}

// ---- one scale's planes ----

// The bands of ref and dis, the decoupled parts of dis and the CSF mask/centre planes of q (numerator)
// and rst (AIM). T is int16_t at scale 0, int32_t at scales 1-3.
template <class T>
struct ScalePlanes {
  const T* ref[3];
  const T* dis[3];
  T* rst[3];
  T* q[3];
  int32_t* mask_q;
  int32_t* centre_q;
  int32_t* mask_r;
  int32_t* centre_r;
  int w, h;
};

// The CSF factors of a scale in fixed point (scale 0: R0 of CsfFactors::r0; scales 1-3: rs[scale]).
struct Csf0 {
  uint16_t r[3];
};
struct Csf123 {
  uint32_t r[3];
};

VQTWIN_HD inline Restored16 decouple_one(int16_t o, int16_t t, bool angle, double egl, const int32_t* div) {
  return decouple_scale0(o, t, angle, egl, div);
}
VQTWIN_HD inline Restored32 decouple_one(int32_t o, int32_t t, bool angle, double egl, const int32_t* div) {
  return decouple_scale123(o, t, angle, egl, div);
}

struct MaskCentre {
  int32_t mask, centre;
};
// Sums over the orientations of |csf|/30 (mask) and |csf|/15 (centre), as csf0 / csf123.
VQTWIN_HD inline MaskCentre csf_at(const int16_t p[3], const Csf0& f) {
  int32_t m = 0, c = 0;
  for (int t = 0; t < 3; ++t) {
    const int16_t v = csf_scale0(p[t], f.r[t], t);
    m += mask_scale0(v);
    c += centre_scale0(v);
  }
  return {m, c};
}
VQTWIN_HD inline MaskCentre csf_at(const int32_t p[3], const Csf123& f) {
  uint32_t m = 0, c = 0;  // int32 sums that wrap like libvmaf's
  for (int t = 0; t < 3; ++t) {
    const int32_t v = csf_scale123(p[t], f.r[t]);
    m += uint32_t(mask_scale123(v));
    c += uint32_t(centre_scale123(v));
  }
  return {int32_t(m), int32_t(c)};
}

// Decouple and CSF of cell (x, y) of the needed rect: rst and q of every orientation, the mask and
// centre of q and (for AIM) of rst.
template <class T, class F>
VQTWIN_HD inline void prepare_cell(const ScalePlanes<T>& p, const F& f, double egl, const int32_t* div, bool aim,
                                   int x, int y) {
  const std::size_t i = std::size_t(y) * std::size_t(p.w) + std::size_t(x);
  const bool angle = angle_within_1deg(p.ref[0][i], p.ref[1][i], p.dis[0][i], p.dis[1][i]);
  T rst[3], q[3];
  for (int t = 0; t < 3; ++t) {
    const auto r = decouple_one(p.ref[t][i], p.dis[t][i], angle, egl, div);
    rst[t] = p.rst[t][i] = r.rst;
    q[t] = p.q[t][i] = r.q;
  }
  const MaskCentre mq = csf_at(q, f);
  p.mask_q[i] = mq.mask;
  p.centre_q[i] = mq.centre;
  if (aim) {
    const MaskCentre mr = csf_at(rst, f);
    p.mask_r[i] = mr.mask;
    p.centre_r[i] = mr.centre;
  }
}

// The masking threshold of pool cell (x, y): the 3x3 window's mask sum (reflect at the start,
// replicate at the end, as the CPU's box sums), less the cell's own mask, plus its centre term;
// uint32 sums, so any order gives the CPU's int32 wrap.
VQTWIN_HD inline int32_t threshold_at(const int32_t* mask, const int32_t* centre, int w, int h, int x, int y) {
  const int rows[3] = {mask_before(y), y, mask_after(y, h)};
  const int cols[3] = {mask_before(x), x, mask_after(x, w)};
  uint32_t s = 0;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) s += uint32_t(mask[std::size_t(rows[r]) * std::size_t(w) + std::size_t(cols[c])]);
  const std::size_t i = std::size_t(y) * std::size_t(w) + std::size_t(x);
  return int32_t(s - uint32_t(mask[i]) + uint32_t(centre[i]));
}

// One orientation's contrast-masked cube term of src (rst for the numerator, q for AIM).
VQTWIN_HD inline int64_t cube_term(int16_t src, const Csf0& f, int32_t thr, int t, const ScaleGeometry& g) {
  return cube_term_scale0(src, f.r[t], thr, t, g.cube_shift[t], g.cube_round[t]);
}
VQTWIN_HD inline int64_t cube_term(int32_t src, const Csf123& f, int32_t thr, int t, const ScaleGeometry& g) {
  return cube_term_scale123(src, f.r[t], thr, g.cube_shift[0], g.cube_round[0]);
}
// One ref value's denominator term.
VQTWIN_HD inline uint64_t den_term(int16_t o, const ScaleGeometry&) { return den_cube_scale0(o); }
VQTWIN_HD inline uint64_t den_term(int32_t o, const ScaleGeometry& g) {
  return den_cube_scale123(o, g.den_sq_shift, g.den_cube_shift, g.den_cube_round);
}

// The terms of pool cell (x, y), per orientation: numerator (rst against the masks of q), AIM (q
// against the masks of rst; zero without AIM) and denominator (the ref band).
struct CellTerms {
  int64_t num[3], aim[3];
  uint64_t den[3];
};
template <class T, class F>
VQTWIN_HD inline CellTerms masked_cell(const ScalePlanes<T>& p, const F& f, const ScaleGeometry& g, bool aim, int x,
                                       int y) {
  const std::size_t i = std::size_t(y) * std::size_t(p.w) + std::size_t(x);
  CellTerms c{};
  const int32_t thr_q = threshold_at(p.mask_q, p.centre_q, p.w, p.h, x, y);
  for (int t = 0; t < 3; ++t) c.num[t] = cube_term(p.rst[t][i], f, thr_q, t, g);
  if (aim) {
    const int32_t thr_r = threshold_at(p.mask_r, p.centre_r, p.w, p.h, x, y);
    for (int t = 0; t < 3; ++t) c.aim[t] = cube_term(p.q[t][i], f, thr_r, t, g);
  }
  for (int t = 0; t < 3; ++t) c.den[t] = den_term(p.ref[t][i], g);
  return c;
}

// A pool row's exact sums, rounded by the per-row shift before they join the scale's total.
VQTWIN_HD inline int64_t num_row_total(int64_t row_sum, const ScaleGeometry& g) {
  return (row_sum + g.row_round) >> g.row_shift;
}
VQTWIN_HD inline uint64_t den_row_total(uint64_t row_sum, const ScaleGeometry& g) {
  return (row_sum + g.den_row_round) >> g.den_row_shift;
}

}  // namespace vqtwin::integer_adm
