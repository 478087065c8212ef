#pragma once
// integer ADM's scalar math, shared by the CPU reference and its twins (per-cell rules marked
// VQTWIN_HD). Every rule here is exact integer arithmetic with libvmaf's widths and wraps, except
// the angle test and the gain limit (fixed per-cell float/double formulas) and the float tails.
// The C++20 conversions to narrower signed types and `>>` on negative values are defined as the
// two's-complement wrap and the arithmetic shift that libvmaf's GCC build performs.
#include <bit>
#include <cstdint>

#include "core/hd.hpp"

namespace vqtwin::integer_adm {

// Daubechies-2 analysis taps (Q15) and the sum of the low-pass ones.
inline constexpr int32_t kLo[4] = {15826, 27411, 7345, -4240};
inline constexpr int32_t kHi[4] = {-4240, -7345, 27411, -15826};
inline constexpr int32_t kLoSum = 46342;

// Source position of DWT tap p = 2k - 1 + t in a line of n samples: whole-sample reflection at
// the start (only p = -1 happens), half-sample reflection at the end (n -> n-1, n+1 -> n-2).
VQTWIN_HD constexpr int dwt_source(int p, int n) { return p < 0 ? -p : (p >= n ? 2 * n - 1 - p : p); }

// Neighbour of the masking window: reflect at the start (-1 -> 1), replicate at the end.
VQTWIN_HD constexpr int mask_before(int i) { return i == 0 ? 1 : i - 1; }
VQTWIN_HD constexpr int mask_after(int i, int n) { return i == n - 1 ? n - 1 : i + 1; }

// cos(1 deg)^2 rounded to float: float(cos(pi/180) * cos(pi/180)) (a unit test recomputes it).
inline constexpr float kCos1DegSq = std::bit_cast<float>(0x3f7fec0au);

// DIV[m] = 2^30 / m (m = 1..32768): the reciprocal table of the decouple step; DIV[0] unused.
struct ReciprocalTable {
  int32_t div[32769];
};
constexpr ReciprocalTable make_reciprocal_table() {
  ReciprocalTable t{};
  for (int m = 1; m <= 32768; ++m) t.div[m] = int32_t((int64_t(1) << 30) / m);
  return t;
}
inline constexpr ReciprocalTable kReciprocal = make_reciprocal_table();

// ---- Decouple (per cell) ----

// Is the angle between the (h, v) detail vectors of ref (o) and dis (t) below 1 degree? The int64
// moments go through float, then double, in libvmaf's order. The moments are summed in uint64 and
// converted back (C++20: modulo 2^64), so the one sum that exceeds int64 (every input INT32_MIN,
// unreachable from 8-16-bit pictures) wraps as the AVX-512 kernel (and x86 for libvmaf's int64 sum) does, and
// is defined behaviour (constexpr proves it: a unit test evaluates the extremes at compile time).
VQTWIN_HD constexpr int64_t wrapping_moment(int64_t a, int64_t b, int64_t c, int64_t d) {
  return int64_t(uint64_t(a) * uint64_t(b) + uint64_t(c) * uint64_t(d));
}
VQTWIN_HD constexpr bool angle_within_1deg(int64_t oh, int64_t ov, int64_t th, int64_t tv) {
  const int64_t dot = wrapping_moment(oh, th, ov, tv);
  const int64_t o_mag = wrapping_moment(oh, oh, ov, ov);
  const int64_t t_mag = wrapping_moment(th, th, tv, tv);
  const double x = double(float(dot)) / 4096.0;
  if (!(x >= 0.0)) return false;
  return x * x >= double(kCos1DegSq) * (double(float(o_mag)) / 4096.0) * (double(float(t_mag)) / 4096.0);
}

// Restoration gain k = clamp(t / o, 0, 1) in Q15, scale 0 (int16 bands).
VQTWIN_HD inline int32_t gain_scale0(int32_t o, int32_t t, const int32_t* div) {
  if (o == 0) return 32768;
  const int64_t recip = o > 0 ? div[o] : -int64_t(div[-o]);
  const int32_t k = int32_t((recip * t + 16384) >> 15);
  return k < 0 ? 0 : (k > 32768 ? 32768 : k);
}

// Scales 1-3 (int32 bands): |o| >= 2^15 is first rounded to 15 significant bits.
VQTWIN_HD inline int32_t gain_scale123(int32_t o, int32_t t, const int32_t* div) {
  if (o == 0) return 32768;
  uint32_t m = o < 0 ? 0u - uint32_t(o) : uint32_t(o);
  int e = 0;
  if (m >= 32768u) {
    e = 17 - std::countl_zero(m);
    m = (m + (1u << (e - 1))) >> e;
  }
  const int64_t sign = o < 0 ? -1 : 1;
  const int64_t k = ((int64_t(div[m]) * t) * sign + (int64_t(1) << (14 + e))) >> (15 + e);
  return int32_t(k < 0 ? 0 : (k > 32768 ? 32768 : k));
}

// The gain limit: with the angle test passed and k*o != 0, the restored value is pulled to
// min/max(rst * egl, t) in double and truncated back to the band type.
VQTWIN_HD inline double limit_gain(double rst, int32_t o, int32_t t, double egl) {
  const double scaled = rst * egl;
  const double td = double(t);
  if (o > 0) return scaled < td ? scaled : td;
  return scaled > td ? scaled : td;
}

struct Restored16 {
  int16_t rst, q;
};
VQTWIN_HD inline Restored16 decouple_scale0(int16_t o, int16_t t, bool angle, double egl, const int32_t* div) {
  const int32_t k = gain_scale0(o, t, div);
  int16_t rst = int16_t((k * int32_t(o) + 16384) >> 15);
  if (angle && k > 0 && o != 0) rst = int16_t(int32_t(limit_gain(rst, o, t, egl)));
  return {rst, int16_t(int32_t(t) - int32_t(rst))};
}

struct Restored32 {
  int32_t rst, q;
};
VQTWIN_HD inline Restored32 decouple_scale123(int32_t o, int32_t t, bool angle, double egl, const int32_t* div) {
  const int64_t k = gain_scale123(o, t, div);
  int32_t rst = int32_t((k * o + 16384) >> 15);
  if (angle && k > 0 && o != 0) rst = int32_t(int64_t(limit_gain(rst, o, t, egl)));
  return {rst, int32_t(uint32_t(t) - uint32_t(rst))};
}

// ---- CSF and masking (per cell; theta 0 = h, 1 = v, 2 = d) ----

// Scale 0: CSF value of p in Q16 (h, v: R0 in Q21, shift 15; d: R0 in Q23, shift 17 with 65535).
VQTWIN_HD inline int16_t csf_scale0(int16_t p, uint16_t r0, int theta) {
  const int32_t prod = int32_t(r0) * int32_t(p);
  return theta == 2 ? int16_t((prod + 65535) >> 17) : int16_t((prod + 16384) >> 15);
}
// |c| / 30 (neighbour mask) and |c| / 15 (centre term), Q12 with int16 wrap.
VQTWIN_HD inline int16_t mask_scale0(int16_t c) {
  const int32_t a = c < 0 ? -int32_t(c) : int32_t(c);
  return int16_t((4369 * a + 2048) >> 12);
}
VQTWIN_HD inline int16_t centre_scale0(int16_t c) {
  const int32_t a = c < 0 ? -int32_t(c) : int32_t(c);
  return int16_t((8738 * a + 2048) >> 12);
}

// Scales 1-3: R in Q32, shift 28. The masks round with -2^31 (libvmaf stores 1u<<31 in an int32).
VQTWIN_HD inline int32_t csf_scale123(int32_t p, uint32_t r) {
  return int32_t((int64_t(r) * p + (int64_t(1) << 27)) >> 28);
}
VQTWIN_HD inline int64_t abs64(int32_t c) { return c < 0 ? -int64_t(c) : int64_t(c); }
VQTWIN_HD inline int32_t mask_scale123(int32_t c) {
  return int32_t((int64_t(143165577) * abs64(c) - (int64_t(1) << 31)) >> 32);
}
VQTWIN_HD inline int32_t centre_scale123(int32_t c) {
  return int32_t((int64_t(286331153) * abs64(c) - (int64_t(1) << 31)) >> 32);
}

// ---- Contrast masking: one orientation's cube term ----

// Scale 0: x = R0 * rst (int32), minus the threshold (Q10 for h/v, Q12 for d; int32 wrap), floored
// at 0; x^2 is rounded and truncated to int32; then x^2 * x rounded down by `cube_shift`.
VQTWIN_HD inline int64_t cube_term_scale0(int16_t src, uint16_t r0, int32_t thr, int theta, uint32_t cube_shift,
                                          int64_t cube_round) {
  int32_t x = int32_t(r0) * int32_t(src);
  x = x < 0 ? -x : x;  // |R0 * src| < 2^31
  const int sub_shift = theta == 2 ? 12 : 10;
  x = int32_t(uint32_t(x) - (uint32_t(thr) << sub_shift));
  if (x < 0) x = 0;
  const int32_t x_sq = theta == 2 ? int32_t((int64_t(x) * x + (int64_t(1) << 29)) >> 30)
                                  : int32_t((int64_t(x) * x + (int64_t(1) << 28)) >> 29);
  return (int64_t(x_sq) * x + cube_round) >> cube_shift;
}

// Scales 1-3: x = CSF of src, minus the threshold (int32 wrap), floored at 0.
VQTWIN_HD inline int64_t cube_term_scale123(int32_t src, uint32_t r, int32_t thr, uint32_t cube_shift,
                                            int64_t cube_round) {
  int32_t x = csf_scale123(src, r);
  x = int32_t(uint32_t(x < 0 ? 0u - uint32_t(x) : uint32_t(x)) - uint32_t(thr));
  if (x < 0) x = 0;
  const int32_t x_sq = int32_t((int64_t(x) * x + (int64_t(1) << 29)) >> 30);
  return (int64_t(x_sq) * x + cube_round) >> cube_shift;
}

// ---- Denominator: one ref value's cube term ----

VQTWIN_HD inline uint64_t den_cube_scale0(int16_t o) {
  const uint64_t a = uint64_t(o < 0 ? -int32_t(o) : int32_t(o));
  return a * a * a;
}
// Scales 1-3: the square rounds with a FULL unit 2^qs (libvmaf's quirk), the cube by cw.
VQTWIN_HD inline uint64_t den_cube_scale123(int32_t o, uint32_t sq_shift, uint32_t cube_shift, uint64_t cube_round) {
  const uint64_t a = o < 0 ? uint64_t(0u - uint32_t(o)) : uint64_t(uint32_t(o));
  return ((((a * a) + (uint64_t(1) << sq_shift)) >> sq_shift) * a + cube_round) >> cube_shift;
}

}  // namespace vqtwin::integer_adm
