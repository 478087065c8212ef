#pragma once
// ciede's certified cells: one pixel's (or one colour's) step of the fast path, declared once for the CPU's
// batch loops (batch.cpp, which runs each cell over 64 pixels a stage at a time, vectorised) and the CUDA twin
// (cuda.cu, one pixel per thread). Each cell performs math.hpp's operations in the same precision and order,
// with the library calls replaced by approx.hpp's approximations; a float the cell returns is math.hpp's
// float wherever `good` stays 1, because its rounding was checked to be certain (approx::rounds_alike). A
// `good` of 0 sends the pixel or colour to math.hpp's scalar code (the library calls).
//
// pow(x, 2) of math.hpp (libvmaf's) is written x * x here: the argument is always a float widened to double,
// whose square is exact in double, so the library's pow and the product give the same double (and both
// compilers turn pow(x, 2) into the product anyway). powf(d, 2) is the float product d * d for the same reason
// in float: GCC and clang fold powf(x, 2) into it; powf(25.f, 7) is folded to the float nearest 25^7.
#include <cstdint>

#include "core/hd.hpp"
#include "features/ciede/approx.hpp"
#include "features/ciede/math.hpp"

namespace vqtwin::ciede::cells {

inline constexpr double kPow25_7 = 6103515625.0;   // pow(25.0, 7), exact
inline constexpr float kPow25_7f = 6103515648.0f;  // powf(25.f, 7): 25^7 rounded to float

VQTWIN_CIEDE_INLINE double sq(double x) { return x * x; }

// A step whose float is decided by a margin: the approximate double v and the margin m within which the
// library's double lies (m == 0: v is exact).
struct Approx {
  double v, m;
};

// The float, with good = 0 where the rounding is uncertain (the batch's use).
VQTWIN_CIEDE_INLINE float certain(Approx a, int& good) {
  good &= int(approx::rounds_alike(a.v, a.m));
  return float(a.v);
}

// Every float the library's value can round to: one where the rounding is certain, else the two adjacent
// floats v - m and v + m round to (the library's double lies between, and rounding is monotonic). good = 0
// where they are further apart (never, with margins far below a float's spacing; checked anyway).
struct Choices {
  float f[2];
  int n;
};
VQTWIN_CIEDE_INLINE Choices choices(Approx a, int& good) {
  if (approx::rounds_alike(a.v, a.m)) return {{float(a.v), float(a.v)}, 1};
  const float lo = float(a.v - a.m), hi = float(a.v + a.m);
  const std::uint32_t bl = approx::bits(lo), bh = approx::bits(hi);
  const bool same_sign = (bl >> 31) == (bh >> 31);
  good &= int(same_sign && (bl + 1u == bh || bh + 1u == bl));
  return {{lo, hi}, 2};
}


// ---- the conversion (to_lab) ----

// (Y, Cb, Cr) samples to BT.709 R'G'B' (limited range), `scale` = 2^(bpc - 8).
VQTWIN_CIEDE_INLINE void ycc_to_rgb(double y, double u, double v, double scale, double& r, double& g, double& b) {
  const double ys = (y - 16. * scale) * (1. / (219. * scale));
  const double us = (u - 128. * scale) * (1. / (224. * scale));
  const double vs = (v - 128. * scale) * (1. / (224. * scale));
  r = ys + 1.28033 * vs;
  g = ys - 0.21482 * us - 0.38059 * vs;
  b = ys + 2.12798 * us;
}

// linearize() with its pow approximated by approx::pow_2_4 (the value is checked later, through lab_f's margin).
VQTWIN_CIEDE_INLINE double linear(double c) {
  const double A = 0.055, D = 1.0 / 1.055, Dl = 1.0 / 12.92;
  const bool curve = c > 10. / 255.;
  const double p = approx::pow_2_4(curve ? (c + A) * D : 1.0);
  return curve ? p : c * Dl;
}

// lab_f(c) from an approximate c, |c - exact c| <= 2^-40 scale: the approximate value and its margin, and
// good = 0 where c is too near the branch point to know the branch. Its pow(c, 1/3) is approx::cbrt (relative
// error a few 2^-53 against the library's one).
VQTWIN_CIEDE_INLINE Approx lab_f_value(double c, double scale, int& good) {
  const double kappa = 24389.0 / 27.0;
  const double epsilon = 216.0 / 24389.0;
  const double dc = scale * 0x1p-40;
  const bool cube = c > epsilon;
  const double root = approx::cbrt(cube ? c : 1.0);
  const double line = (kappa * c + 16.0) * (1.0 / 116.0);
  const double v = cube ? root : line;
  const double m = cube ? approx::margin(v * (1.0 + scale / c)) : approx::margin(8.0 * scale + fabs(v));
  good &= int(fabs(c - epsilon) > dc);
  return {v, m};
}
// The float, good = 0 where it is uncertain.
VQTWIN_CIEDE_INLINE float lab_f(double c, double scale, int& good) { return certain(lab_f_value(c, scale, good), good); }

// Linear r, g, b to X/Xn, Y, Z/Zn and their scales (the sums of their terms' magnitudes). The linearised
// values (pow branch) are within a few 2^-53 relative of the library's, so x, y, z are within 2^-40 of their
// scale.
VQTWIN_CIEDE_INLINE void xyz(double r, double g, double b, double c[3], double s[3]) {
  c[0] = (r * 0.4124564390896921 + g * 0.357576077643909 + b * 0.18043748326639894) * (1.0 / 0.95047);
  c[1] = r * 0.21267285140562248 + g * 0.715152155287818 + b * 0.07217499330655958;
  c[2] = (r * 0.019333895582329317 + g * 0.119192025881303 + b * 0.9503040785363677) * (1.0 / 1.08883);
  const double ar = fabs(r), ag = fabs(g), ab = fabs(b);
  s[0] = (ar * 0.4124564390896921 + ag * 0.357576077643909 + ab * 0.18043748326639894) * (1.0 / 0.95047);
  s[1] = ar * 0.21267285140562248 + ag * 0.715152155287818 + ab * 0.07217499330655958;
  s[2] = (ar * 0.019333895582329317 + ag * 0.119192025881303 + ab * 0.9503040785363677) * (1.0 / 1.08883);
}

// The three lab_f floats of linear r, g, b (the batch's).
VQTWIN_CIEDE_INLINE void xyz_f(double r, double g, double b, float& fx, float& fy, float& fz, int& good) {
  double c[3], s[3];
  xyz(r, g, b, c, s);
  fx = lab_f(c[0], s[0], good);
  fy = lab_f(c[1], s[1], good);
  fz = lab_f(c[2], s[2], good);
}

VQTWIN_CIEDE_INLINE Lab lab_of(float fx, float fy, float fz) {
  return {float((116.0 * double(fy)) - 16.0), float(500.0 * (double(fx) - double(fy))),
          float(200.0 * (double(fy) - double(fz)))};
}

// One colour through the cells, the twin's per-colour form of batch.cpp's to_lab stages: the one or two
// floats each lab_f value can be (f[0..2]: x, y, z).
VQTWIN_CIEDE_INLINE void lab_choices(unsigned y, unsigned u, unsigned v, unsigned bpc, Choices f[3], int& good) {
  const double scale = double(1 << (bpc - 8));
  double r, g, b;
  ycc_to_rgb(double(y), double(u), double(v), scale, r, g, b);
  double c[3], s[3];
  xyz(linear(r), linear(g), linear(b), c, s);
  for (int k = 0; k < 3; ++k) f[k] = choices(lab_f_value(c[k], s[k], good), good);
}

// The colour when every lab_f float is certain (else good = 0).
VQTWIN_CIEDE_INLINE Lab to_lab(unsigned y, unsigned u, unsigned v, unsigned bpc, int& good) {
  Choices f[3];
  lab_choices(y, u, v, bpc, f, good);
  good &= int(f[0].n == 1 && f[1].n == 1 && f[2].n == 1);
  return lab_of(f[0].f[0], f[1].f[0], f[2].f[0]);
}

// ---- the colour difference (ciede2000) ----

// float(sqrt(a^2 + b^2)): C*ab, and C' from a'.
VQTWIN_CIEDE_INLINE float chroma(float a, float b) { return float(approx::sqrt_rn(sq(double(a)) + sq(double(b)))); }

// a' = a + a/2 G of both colours, pow(c_bar, 7) approximated; 1 when both roundings are certain.
VQTWIN_CIEDE_INLINE int a_prime(float a1, float a2, float c_bar, float& ap1, float& ap2) {
  const double c_bar7 = approx::pow7(double(c_bar));
  const double g = 1 - approx::sqrt_rn(c_bar7 / (c_bar7 + kPow25_7));
  const double v1 = double(a1) + double(a1 / 2) * g;
  const double v2 = double(a2) + double(a2 / 2) * g;
  const double m1 = approx::margin(fabs(double(a1))), m2 = approx::margin(fabs(double(a2)));
  ap1 = float(v1);
  ap2 = float(v2);
  return int(approx::rounds_alike(v1, m1)) & int(approx::rounds_alike(v2, m2));  // branch-free: both evaluated
}

// atan2(x = b, y = a') approximated, with good = 0 on an axis (x or y zero, not both), where the library's
// value is left to the fallback; at the origin the value is unused (hue_angle() gives 0).
VQTWIN_CIEDE_INLINE Approx hue_angle_value(float x, float y, int& good) {
  const int origin = int(x == 0.0f) & int(y == 0.0f);
  const int axis = int(x == 0.0f) | int(y == 0.0f);
  const double v = approx::atan2(double(x), double(axis ? 1.0f : y));
  good &= (axis ^ 1) | origin;
  return {v, approx::margin(8.0 * fabs(v))};
}
// hue_angle()'s float from atan2's float h: 0 at the origin, h + 2 pi below 0.
VQTWIN_CIEDE_INLINE float hue_wrap(float h, int origin) {
  const float wrapped = h < 0.0f ? float(double(h) + 2. * M_PI) : h;
  return origin ? 0.0f : wrapped;
}

// hue_angle(x, y) where the float is certain from approx::atan2 (good unchanged), else good = 0.
// Branch-free, so it vectorises.
VQTWIN_CIEDE_INLINE float hue_angle(float x, float y, int& good) {
  const Approx a = hue_angle_value(x, y, good);
  return hue_wrap(certain(a, good), int(x == 0.0f) & int(y == 0.0f));
}

// math.hpp's delta_hue() and mean_hue() without branches (the same operations, selected).
VQTWIN_CIEDE_INLINE float delta_hue(float c1, float c2, float h1, float h2) {
  const float d = h2 - h1;
  const float up = float(double(d) + 2. * M_PI), down = float(double(d) - 2. * M_PI);
  const float r = fabsf(h1 - h2) <= M_PI ? d : (h2 <= h1 ? up : down);
  return (int(c1 == 0.0f) | int(c2 == 0.0f)) ? 0.0f : r;
}
VQTWIN_CIEDE_INLINE float mean_hue(float h1, float h2) {
  const float wrapped = float((double(h1 + h2) + 2.0 * M_PI) / 2.0), plain = float(double(h1 + h2) / 2.0);
  return fabs(double(h1 - h2)) > M_PI ? wrapped : plain;
}

// delta H' = 2 sqrt(C'1 C'2) sin(dh / 2), |dh / 2| <= pi / 2 (+ a float's rounding), where approx::sin is
// accurate relative to its value (as is the library's): the margin is relative.
// kPlant: approx::sin with its series cut short (the planted bugs; the tests must fail).
template <bool kPlant = false>
VQTWIN_CIEDE_INLINE Approx delta_h(float dh, float cp1, float cp2) {
  const double x = double(dh) / 2.0;
  const double scale = 2.0 * approx::sqrt_rn(double(cp1 * cp2));
  const double v = scale * approx::sin<kPlant>(x);
  return {v, approx::margin(8.0 * fabs(v))};
}

// T (hue_weight_t()): 1 - 0.17 cos(H - pi/6) + 0.24 cos(2H) + 0.32 cos(3H + pi/30) - 0.20 cos(4H - 7 pi/20), from
// one sine and cosine of H: the multiple angles by the double-angle and addition formulas, the shifted ones
// by cos(a -+ b) = cos a cos b +- sin a sin b with the constants' cosines and sines. Each step adds at most a
// few 2^-53 (|sin|, |cos| <= 1), about 2^-48 in all; libvmaf's arguments (H - M_PI / 6.0, ...) differ from
// the exact ones by their roundings, below 2^-48 for H < 8 (2H, 3H and 4H of a float are exact). The margin,
// 2^-35 absolute, is far beyond both.
VQTWIN_CIEDE_INLINE Approx hue_weight(float hb) {
  constexpr double kCosPi6 = 0x1.bb67ae8584cabp-1, kSinPi6 = 0.5;
  constexpr double kCosPi30 = 0x1.fd31f94f867c6p-1, kSinPi30 = 0x1.ac2609b3c576bp-4;
  constexpr double kCos7Pi20 = 0x1.d0e2e2b44de01p-2, kSin7Pi20 = 0x1.c83201d3d2c6cp-1;
  double s1, c1;
  approx::sincos(double(hb), s1, c1);
  const double c2 = (c1 - s1) * (c1 + s1), s2 = 2.0 * (s1 * c1);
  const double c3 = c2 * c1 - s2 * s1, s3 = s2 * c1 + c2 * s1;
  const double c4 = (c2 - s2) * (c2 + s2), s4 = 2.0 * (s2 * c2);
  const double v = 1.0 - 0.17 * (c1 * kCosPi6 + s1 * kSinPi6) + 0.24 * c2 + 0.32 * (c3 * kCosPi30 - s3 * kSinPi30) -
                   0.20 * (c4 * kCos7Pi20 + s4 * kSin7Pi20);
  return {v, approx::margin(2.0)};
}

// rotation()'s angle: to_radians(60 exp(-d^2)), d = (degrees(hb) - 275) / 25.
VQTWIN_CIEDE_INLINE float rotation_angle(float hb, int& good) {
  const float d = float((double(to_degrees(hb)) - 275.0) * (1.0 / 25.0));
  const double v = 60.0 * approx::exp(double(-(d * d)));
  good &= int(approx::rounds_alike(v, approx::margin(v)));
  return to_radians(float(v));
}

// rotation()'s c7 / (c7 + 25^7), c7 = powf(C'bar, 7) (the library's float; see ciede2000() below).
VQTWIN_CIEDE_INLINE float rotation_root(float c7) { return c7 / (c7 + kPow25_7f); }

// R_T = -2 sqrt(root) sin(angle), given sine = approx::sin(double(angle)) (relative margin, as delta_h).
VQTWIN_CIEDE_INLINE Approx rotation_term(float root, double sine) {
  const double scale = -2.0 * approx::sqrt_rn(double(root));
  const double v = scale * sine;
  return {v, approx::margin(8.0 * fabs(v))};
}

// The difference from its certain parts (exact operations only: products, sums, quotients, square roots).
VQTWIN_CIEDE_INLINE float combine(float l1, float l2, float cp1, float cp2, float delta_h, float t, float r_t) {
  const float kl = 0.65f, kc = 1.0f, kh = 4.0f;
  const float delta_l = l2 - l1;
  const float l_bar = (l1 + l2) / 2;
  const float c_bar_prime = (cp1 + cp2) / 2;
  const float delta_c = cp2 - cp1;
  const double lm = double(l_bar - 50);
  const float s_l = float(1. + ((0.015 * sq(lm)) / approx::sqrt_rn(20 + sq(lm))));
  const float s_c = float(1. + 0.045 * double(c_bar_prime));
  const float s_h = float(1.0 + 0.015 * double(c_bar_prime) * double(t));
  const float lightness = delta_l / (kl * s_l);
  const float chroma_term = delta_c / (kc * s_c);
  const float hue_term = delta_h / (kh * s_h);
  return float(approx::sqrt_rn(sq(double(lightness)) + sq(double(chroma_term)) + sq(double(hue_term)) +
                               double(r_t * chroma_term * hue_term)));
}

// The twin's per-pixel form of batch.cpp's stages. Where a float is not known (the rounding of an
// approximation is uncertain), the one or two floats it can be are carried to the end, and the difference is
// certain when all the combinations give the same float; only a branch the approximations cannot decide (a
// hue on an axis, lab_f at its branch point), an uncertain a', rotation angle, or combinations that disagree
// leave the pixel to the fallback. Beyond the batch's steps:
// - The CPU's batch calls the library's powf(C'bar, 7); the device has no such function. glibc's powf is
//   within one unit in the last place of the exact power (its source states 0.82), approx::pow7 is within
//   4 2^-53 of it, so the library's float is the float nearest pow7's value or one of its two neighbours:
//   all three are tried. (C'bar = 0 gives exactly 0; a power that could be subnormal is left to the
//   fallback.)
// - lab_f's floats, the hue angles, delta H', T and R_T are carried as their possible floats.

// The difference after the hue angles.
template <bool kPlant>
VQTWIN_HD inline float finish(const Lab& c1, const Lab& c2, float ch1, float ch2, float cp1, float cp2, float h1, float h2,
                              int& good) {
  const float dh = delta_hue(ch1, ch2, h1, h2), hb = mean_hue(h1, h2);
  const Choices d_h = choices(delta_h<kPlant>(dh, cp1, cp2), good);
  const Choices t = choices(hue_weight(hb), good);
  const double sine = approx::sin<kPlant>(double(rotation_angle(hb, good)));
  const float c_bar_prime = (cp1 + cp2) / 2;
  float c7[3] = {0.0f, 0.0f, 0.0f};
  int n7 = 1;
  if (c_bar_prime != 0.0f) {
    const double p7 = approx::pow7(double(c_bar_prime));
    good &= int(p7 > 0x1p-120);
    const std::uint32_t nearest = approx::bits(float(p7));
    for (int k = 0; k < 3; ++k) c7[k] = approx::float_from_bits(nearest + std::uint32_t(k) - 1u);
    n7 = 3;
  }
  float out = 0.0f;
  bool first = true;
  for (int i = 0; i < n7; ++i) {
    const Choices r_t = choices(rotation_term(rotation_root(c7[i]), sine), good);
    for (int j = 0; j < r_t.n; ++j)
      for (int k = 0; k < d_h.n; ++k)
        for (int l = 0; l < t.n; ++l) {
          const float v = combine(c1.l, c2.l, cp1, cp2, d_h.f[k], t.f[l], r_t.f[j]);
          good &= int(first || approx::bits(v) == approx::bits(out));
          out = v;
          first = false;
        }
  }
  return out;
}

// ciede2000(c1, c2) (math.hpp's) where good stays 1.
template <bool kPlant = false>
VQTWIN_HD inline float ciede2000(const Lab& c1, const Lab& c2, int& good) {
  const float ch1 = chroma(c1.a, c1.b), ch2 = chroma(c2.a, c2.b);
  const float c_bar = (ch1 + ch2) / 2;
  float ap1, ap2;
  good &= a_prime(c1.a, c2.a, c_bar, ap1, ap2);
  const float cp1 = chroma(ap1, c1.b), cp2 = chroma(ap2, c2.b);
  const int o1 = int(c1.b == 0.0f) & int(ap1 == 0.0f), o2 = int(c2.b == 0.0f) & int(ap2 == 0.0f);
  const Choices a1 = choices(hue_angle_value(c1.b, ap1, good), good);
  const Choices a2 = choices(hue_angle_value(c2.b, ap2, good), good);
  float out = 0.0f;
  bool first = true;
  for (int i = 0; i < a1.n; ++i)
    for (int j = 0; j < a2.n; ++j) {
      const float v = finish<kPlant>(c1, c2, ch1, ch2, cp1, cp2, hue_wrap(a1.f[i], o1), hue_wrap(a2.f[j], o2), good);
      good &= int(first || approx::bits(v) == approx::bits(out));
      out = v;
      first = false;
    }
  return out;
}

// The difference of two (Y, Cb, Cr) colours of depth bpc, math.hpp's ciede2000(to_lab(...), to_lab(...)) where
// good stays 1. Colours with several possible lab_f floats are tried in every combination (up to 4).
template <bool kPlant = false>
VQTWIN_HD inline float difference(unsigned y1, unsigned u1, unsigned v1, unsigned y2, unsigned u2, unsigned v2,
                                  unsigned bpc, int& good) {
  Choices f[6];
  lab_choices(y1, u1, v1, bpc, f, good);
  lab_choices(y2, u2, v2, bpc, f + 3, good);
  int combos = 1;
  for (int k = 0; k < 6; ++k) combos *= f[k].n;
  if (combos > 4) {
    good = 0;
    combos = 1;
  }
  float out = 0.0f;
  for (int c = 0; c < combos; ++c) {
    int pick[6], rest = c;
    for (int k = 0; k < 6; ++k) {
      pick[k] = f[k].n == 2 ? rest & 1 : 0;
      rest >>= f[k].n == 2 ? 1 : 0;
    }
    const Lab a = lab_of(f[0].f[pick[0]], f[1].f[pick[1]], f[2].f[pick[2]]);
    const Lab b = lab_of(f[3].f[pick[3]], f[4].f[pick[4]], f[5].f[pick[5]]);
    const float v = ciede2000<kPlant>(a, b, good);
    good &= int(c == 0 || approx::bits(v) == approx::bits(out));
    out = v;
  }
  return out;
}

}  // namespace vqtwin::ciede::cells
