#pragma once
// Close approximations of the C library's sin, cos, atan2, exp, pow(x, 7), pow(c, 1/3) and pow(x, 2.4) for
// ciede's batch path, written as straight-line double arithmetic the compiler vectorises. They are NOT used as results:
// batch.cpp rounds each approximate value to float only where libvmaf rounds the library's value to float,
// and only after checking that every double within a margin of the approximation rounds to the same float
// (`rounds_alike`). The margin (2^-36 of the expression's scale) is far larger than the distance between
// the approximation and the library's value (a few units in the last place of a double on each side:
// the approximations below are accurate to a few 2^-53 of their scale, glibc 2.36's functions to about
// one), so when the check passes the float is the one libvmaf's expression gives; when it fails (about one
// value in 2^12) the pixel is computed again by the scalar code with the library calls.
//
// Accuracy, over the arguments ciede reaches (|x| < 32 for sin/cos, -128 < x <= 0 for exp):
// - sin/cos: x - k pi/2 with pi/2 split in three parts (the first two of 33 bits, so k times them is exact
//   for |k| < 2^20 and the first subtraction is exact), then Taylor polynomials on |r| <= pi/4 whose
//   truncation error is below 2^-56; absolute error a few 2^-53, relative error as small for |x| < pi/4.
// - exp: x - k ln 2 with ln 2 in two parts (k times the first exact for |k| < 2^21), Taylor to r^13 on
//   |r| <= ln2 / 2 (truncation below 2^-57), then an exact scaling by 2^k; relative error a few 2^-53.
// - atan2: the ratio of the smaller to the larger magnitude, u in [0, 1]; above tan(pi/8) atan(u) =
//   pi/4 + atan((u - 1) / (u + 1)); one argument halving (atan(w) = 2 atan(w / (1 + sqrt(1 + w^2)))) brings
//   |w| below tan(pi/16) where the odd Taylor series to w^19 is accurate below 2^-51; then the octant's pi/2 - a,
//   pi - a, sign. Relative error a few 2^-53 (every offset added leaves a result of at least pi/8).
// - pow(x, 7): x^2, x^4, x^6, x^7 by products, relative error below 4 2^-53.
// - cbrt (for pow(c, 1/3)) and pow_2_4 (for pow(x, 2.4)): Newton's iterations for c^(-1/3) and (x^3)^(-1/5)
//   without division; a few 2^-53 (see each).
//
// Shared with the CUDA twin (cuda.cu, through cells.hpp): every function is __host__ __device__ (VQTWIN_HD), the
// device build never contracts a*b+c (-fmad=false, as -ffp-contract=off here), and the bit casts and square root
// below are the same exact operations on both sides, so the device computes the same doubles as the CPU.
#include <cstdint>

#include "common/isa.hpp"
#include "core/hd.hpp"

#if !defined(__CUDA_ARCH__)
#include <bit>
#endif

// Inline on both sides (always_inline on the host, where the batch loops must vectorise; nvcc inlines
// device functions itself).
#if defined(__CUDACC__)
#define VQTWIN_CIEDE_INLINE VQTWIN_HD inline
#else
#define VQTWIN_CIEDE_INLINE VQTWIN_ALWAYS_INLINE
#endif

namespace vqtwin::ciede::approx {

// Bit casts and the correctly rounded square root, on either side.
VQTWIN_CIEDE_INLINE std::uint64_t bits(double x) {
#if defined(__CUDA_ARCH__)
  return std::uint64_t(__double_as_longlong(x));
#else
  return std::bit_cast<std::uint64_t>(x);
#endif
}
VQTWIN_CIEDE_INLINE double from_bits(std::uint64_t b) {
#if defined(__CUDA_ARCH__)
  return __longlong_as_double((long long)b);
#else
  return std::bit_cast<double>(b);
#endif
}
VQTWIN_CIEDE_INLINE std::uint32_t bits(float x) {
#if defined(__CUDA_ARCH__)
  return std::uint32_t(__float_as_uint(x));
#else
  return std::bit_cast<std::uint32_t>(x);
#endif
}
VQTWIN_CIEDE_INLINE float float_from_bits(std::uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(b);
#else
  return std::bit_cast<float>(b);
#endif
}
VQTWIN_CIEDE_INLINE double sqrt_rn(double x) {
#if defined(__CUDA_ARCH__)
  return __dsqrt_rn(x);
#else
  return __builtin_sqrt(x);
#endif
}

inline constexpr double kShifter = 0x1.8p52;  // adding it rounds a |value| < 2^51 to an integer in the low bits

// The polynomials below are evaluated by Estrin's scheme (pairs c0 + c1 x, then pairs of those with x^2,
// x^4, ...) rather than Horner's: the same terms, summed in a tree a few operations deep instead of one chain
// of two operations per term, so the vector units overlap the work of a stage's elements (Horner's chains
// left them waiting on each other's latency). Every term is below the one before it in magnitude, so the
// roundings of the tree add a few 2^-53 of the result, as Horner's did.
VQTWIN_CIEDE_INLINE double pair(double c0, double c1, double x) { return c0 + c1 * x; }

// Taylor polynomials of sin and cos on |r| <= pi/4 (+ the reduction's rounding). kCrude: the planted bug
// ciede_cpu_short_sin, sin's series cut after r^7 (error up to 2^-25 times r: far beyond the margin).
template <bool kCrude = false>
VQTWIN_CIEDE_INLINE double sin_poly(double r) {
  const double z = r * r;
  if constexpr (kCrude) return r + r * (z * (-1.0 / 6.0 + z * (1.0 / 120.0 + z * (-1.0 / 5040.0))));
  const double z2 = z * z, z4 = z2 * z2;
  const double p = (pair(-1.0 / 6.0, 1.0 / 120.0, z) + pair(-1.0 / 5040.0, 1.0 / 362880.0, z) * z2) +
                   (pair(-1.0 / 39916800.0, 1.0 / 6227020800.0, z) + (-1.0 / 1307674368000.0) * z2) * z4;
  return r + r * (z * p);
}
VQTWIN_CIEDE_INLINE double cos_poly(double r) {
  const double z = r * r;
  const double z2 = z * z, z4 = z2 * z2;
  const double p = (pair(-0.5, 1.0 / 24.0, z) + pair(-1.0 / 720.0, 1.0 / 40320.0, z) * z2) +
                   (pair(-1.0 / 3628800.0, 1.0 / 479001600.0, z) + pair(-1.0 / 87178291200.0, 1.0 / 20922789888000.0, z) * z2) * z4;
  return 1.0 + z * p;
}

// r = x - k pi/2 and the quadrant k mod 4, |x| < 2^20.
VQTWIN_CIEDE_INLINE double reduce_half_pi(double x, unsigned& quadrant) {
  const double kd = x * 0x1.45f306dc9c883p-1 + kShifter;  // x * 2/pi, rounded to an integer
  quadrant = unsigned(bits(kd)) & 3u;
  const double k = kd - kShifter;
  return ((x - k * 0x1.921fb54400000p+0) - k * 0x1.0b4611a600000p-34) - k * 0x1.3198a2e037073p-69;
}

// sin(x); sin(+-0) is +-0 exactly, as the library's.
template <bool kCrude = false>
VQTWIN_CIEDE_INLINE double sin(double x) {
  unsigned q;
  const double r = reduce_half_pi(x, q);
  const double s = sin_poly<kCrude>(r), c = cos_poly(r);
  const double v = (q & 1u) ? c : s;
  const double signed_v = (q & 2u) ? -v : v;
  return x == 0 ? x : signed_v;
}

VQTWIN_CIEDE_INLINE double cos(double x) {
  unsigned q;
  const double r = reduce_half_pi(x, q);
  const double s = sin_poly(r), c = cos_poly(r);
  const double v = (q & 1u) ? s : c;
  return ((q + 1u) & 2u) ? -v : v;  // quadrants 1 and 2 negative
}

// sin(x) and cos(x) from one reduction (the two polynomials are computed by sin() and cos() anyway).
VQTWIN_CIEDE_INLINE void sincos(double x, double& s, double& c) {
  unsigned q;
  const double r = reduce_half_pi(x, q);
  const double sr = sin_poly(r), cr = cos_poly(r);
  const double sv = (q & 1u) ? cr : sr, cv = (q & 1u) ? sr : cr;
  s = (q & 2u) ? -sv : sv;
  c = ((q + 1u) & 2u) ? -cv : cv;
}

// exp(x) for -1000 < x < 700.
VQTWIN_CIEDE_INLINE double exp(double x) {
  const double kd = x * 0x1.71547652b82fep+0 + kShifter;  // x / ln 2, rounded to an integer
  const double k = kd - kShifter;
  const double r = (x - k * 0x1.62e42fee00000p-1) - k * 0x1.a39ef35793c76p-33;
  const double r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
  const double p = ((pair(1.0, 1.0, r) + pair(1.0 / 2.0, 1.0 / 6.0, r) * r2) +
                    (pair(1.0 / 24.0, 1.0 / 120.0, r) + pair(1.0 / 720.0, 1.0 / 5040.0, r) * r2) * r4) +
                   ((pair(1.0 / 40320.0, 1.0 / 362880.0, r) + pair(1.0 / 3628800.0, 1.0 / 39916800.0, r) * r2) +
                    pair(1.0 / 479001600.0, 1.0 / 6227020800.0, r) * r4) *
                       r8;
  // 2^k from the integer in kd's low bits (two's complement, so k < 0 works too).
  const std::uint64_t scale_bits = (bits(kd) + 1023u) << 52;
  return p * from_bits(scale_bits);
}

// atan(w) for |w| <= tan(pi/8) + a little: one argument halving (atan(w) = 2 atan(w / (1 + sqrt(1 + w^2))))
// brings |w| below tan(pi/16) < 0.19893, where the odd series to w^19 leaves a remainder below
// |w|^21 / 21 < 2^-51 |w|.
VQTWIN_CIEDE_INLINE double atan_small(double w) {
  w = w / (1.0 + sqrt_rn(1.0 + w * w));
  const double z = w * w;
  const double z2 = z * z, z4 = z2 * z2, z8 = z4 * z4;
  const double p = ((pair(-1.0 / 3.0, 1.0 / 5.0, z) + pair(-1.0 / 7.0, 1.0 / 9.0, z) * z2) +
                    (pair(-1.0 / 11.0, 1.0 / 13.0, z) + pair(-1.0 / 15.0, 1.0 / 17.0, z) * z2) * z4) +
                   (-1.0 / 19.0) * z8;
  return 2.0 * (w + w * (z * p));
}

// atan2(y, x) for finite, non-zero x and y. With s <= l the smaller and larger magnitude, the reduced
// argument is s / l, or above tan(pi/8) (s / l - 1) / (s / l + 1) = (s - l) / (s + l) (one division either
// way; s - l and s + l of floats widened to double are exact or within half a unit).
VQTWIN_CIEDE_INLINE double atan2(double y, double x) {
  const double ax = x < 0 ? -x : x, ay = y < 0 ? -y : y;
  const bool swap = ay > ax;
  const double s = swap ? ax : ay, l = swap ? ay : ax;
  const bool big = s > 0.41421356237309503 * l;  // either side of the boundary is accurate
  const double w = (big ? s - l : s) / (big ? s + l : l);
  const double base = big ? 0x1.921fb54442d18p-1 : 0.0;  // pi/4
  double a = base + atan_small(w);
  a = swap ? 0x1.921fb54442d18p+0 - a : a;  // pi/2 - a
  a = x < 0 ? 0x1.921fb54442d18p+1 - a : a;  // pi - a
  return y < 0 ? -a : a;
}

// c^(1/3) for normal c from 2^-8 to 2^100 (lab_f's arguments above its branch point 216/24389: up to 7 for
// in-range samples, up to 5e5 for the 16-bit words 10-bit pictures may hold), for lab_f's pow(c, 1.0 / 3.0):
// Newton's iteration for c^(-1/3), r <- r (4 - c r^3) / 3 (no division), from a first guess of relative error
// below 2^-4.8 (the float bit pattern 0x54a21d2a - bits(c) / 3; its largest error over the floats of
// [2^-8, 16], found by trying them all, is 0.0346). The guess's relative error repeats with every factor 8 of
// c: bits(8 c) = bits(c) + 3 2^23, so the integer quotient by 3 grows by exactly 2^23 and the guess halves;
// [2^-8, 16] spans four such periods, so the bound holds for every normal float from 2^-8 up to where the
// pattern stays a normal float (far beyond 2^100). The error e becomes about -2 e^2 a step, so four steps
// leave 2^-62 and the roundings a few 2^-53, and c r^2 adds two more. The library's pow(c, 1.0 / 3.0) uses
// the double nearest 1/3, which moves its value by at most |ln c| 2^-55.6 < 2^-53 relative: the difference
// from this cube root stays a few 2^-53, as approx::pow's was.
VQTWIN_CIEDE_INLINE double cbrt(double c) {
  double r = double(float_from_bits(0x54a21d2au - bits(float(c)) / 3u));
  for (int k = 0; k < 4; ++k) r = (r * (4.0 - c * ((r * r) * r))) * (1.0 / 3.0);
  return c * (r * r);
}

// x^2.4 for x from 0.089 to 2^30 (linearize()'s pow((c + 0.055) / 1.055, 2.4) above its branch point: up to
// 2.24 for in-range samples, up to 218 for the 16-bit words 10-bit pictures may hold): b^(4/5) = b r with
// b = x^3 and r = b^(-1/5) by Newton's iteration r <- r (6 - b r^5) / 5 (no division), from the guess
// 0x4c2ffc00 - bits(b) / 5 (largest relative error over the floats of [2^-11, 16], found by trying them all:
// 0.0553; as cbrt's, it repeats with every factor 32 of b, and [2^-11, 16] spans three periods, so the
// bound holds for every b from 2^-11 to 2^90); the error e becomes about -3 e^2 a step, so
// five steps leave 2^-83 and the roundings (b's two, the last step's, the product's) a few 2^-53. The
// library's pow(x, 2.4) uses the double nearest 2.4, which moves its value by at most |ln x| 2^-53.3 < 2^-52
// relative: the difference stays a few 2^-53, as approx::pow's was.
VQTWIN_CIEDE_INLINE double pow_2_4(double x) {
  const double b = (x * x) * x;
  double r = double(float_from_bits(0x4c2ffc00u - bits(float(b)) / 5u));
  for (int k = 0; k < 5; ++k) {
    const double r2 = r * r;
    r = (r * (6.0 - b * ((r2 * r2) * r))) * 0.2;
  }
  return b * r;
}

// pow(x, 7) for finite x.
VQTWIN_CIEDE_INLINE double pow7(double x) {
  const double x2 = x * x, x4 = x2 * x2;
  return (x4 * x2) * x;
}

// Whether every double within m of v rounds to the float v rounds to (m >= 0; m == 0: v is exact).
VQTWIN_CIEDE_INLINE bool rounds_alike(double v, double m) {
  // (No short-circuit: the loops calling this stay free of branches, so they vectorise.)
  return (m == 0) | (bits(float(v - m)) == bits(float(v + m)));
}

// The margin: 2^-36 of the scale of the expression (a bound of its terms' magnitudes).
VQTWIN_CIEDE_INLINE double margin(double scale) { return scale * 0x1p-36; }

}  // namespace vqtwin::ciede::approx
