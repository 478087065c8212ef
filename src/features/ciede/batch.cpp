// ciede's math over batches: every element goes through exactly the operations of math.hpp's scalar
// functions, in the same precision and order; only the work of different pixels is interleaved. Stages
// that call the C library run one call per element with nothing chained between elements (so the
// processor overlaps them); the arithmetic stages are plain loops the compiler vectorises, lanes doing the
// scalar IEEE operations (no FMA: -ffp-contract=off; this file is built with -fno-math-errno, which only
// lets sqrt become the vector instruction: results are the same correctly rounded square roots).
// The unit tests compare both functions with the scalar ones.
#include "features/ciede/batch.hpp"

#include <math.h>

#include <cstdlib>
#include <string_view>

#include "common/cpu.hpp"
#include "common/vector.hpp"
#include "features/ciede/approx.hpp"

namespace vqtwin::ciede {
namespace {

// hue_angle(x, y) where the float is certain from approx::atan2 (good unchanged), else good = 0: the origin
// is 0; on an axis (x or y zero) the library's value is left to the fallback. Branch-free, so it vectorises.
VQTWIN_ALWAYS_INLINE float hue_angle_approx(float x, float y, int& good) {
  const int origin = int(x == 0.0f) & int(y == 0.0f);
  const int axis = int(x == 0.0f) | int(y == 0.0f);
  const double v = approx::atan2(double(x), double(axis ? 1.0f : y));
  good &= ((axis ^ 1) | origin) & int(approx::rounds_alike(v, approx::margin(8.0 * fabs(v))));
  const float h = float(v);
  const float wrapped = h < 0.0f ? float(double(h) + 2. * M_PI) : h;
  return origin ? 0.0f : wrapped;
}

// math.hpp's delta_hue() and mean_hue() without branches (the same operations, selected).
VQTWIN_ALWAYS_INLINE float delta_hue_select(float c1, float c2, float h1, float h2) {
  const float d = h2 - h1;
  const float up = float(double(d) + 2. * M_PI), down = float(double(d) - 2. * M_PI);
  const float r = fabsf(h1 - h2) <= M_PI ? d : (h2 <= h1 ? up : down);
  return ((c1 == 0.0f) | (c2 == 0.0f)) ? 0.0f : r;
}
VQTWIN_ALWAYS_INLINE float mean_hue_select(float h1, float h2) {
  const float wrapped = float((double(h1 + h2) + 2.0 * M_PI) / 2.0), plain = float(double(h1 + h2) / 2.0);
  return fabs(double(h1 - h2)) > M_PI ? wrapped : plain;
}

// The library calls of CIEDE2000 (pow, atan2 x2, sin x2, cos x4, exp; powf stays a call) are replaced by
// approx.hpp's vectorisable approximations wherever the float libvmaf rounds the call's expression to is
// certain from the approximation (approx::rounds_alike); a pixel with any uncertain rounding, or an
// argument the approximations leave to the library (a hue angle on an axis), is computed again by
// math.hpp's scalar ciede2000(). Every float this function stores is therefore math.hpp's.
// kPlant: the planted bug ciede_cpu_short_sin (approx::sin with a short series; the tests must fail).
template <bool kPlant = false>
VQTWIN_ALWAYS_INLINE void ciede2000_body(const Lab* c1, const Lab* c2, int n, float* out) {
  float l1[kBatch], l2[kBatch], a1[kBatch], a2[kBatch], b1[kBatch], b2[kBatch];
  float ch1[kBatch], ch2[kBatch], c_bar[kBatch], ap1[kBatch], ap2[kBatch], cp1[kBatch], cp2[kBatch];
  float h1[kBatch], h2[kBatch], dh[kBatch], hb[kBatch], delta_h[kBatch], t[kBatch];
  float c7[kBatch], rot_root[kBatch], rot_angle[kBatch], r_t[kBatch];
  int ok[kBatch];  // 1: every rounding of this pixel certain so far
  for (int k = 0; k < n; ++k) {
    l1[k] = c1[k].l, a1[k] = c1[k].a, b1[k] = c1[k].b;
    l2[k] = c2[k].l, a2[k] = c2[k].a, b2[k] = c2[k].b;
  }
  for (int k = 0; k < n; ++k) {
    ch1[k] = float(sqrt(pow(double(a1[k]), 2) + pow(double(b1[k]), 2)));
    ch2[k] = float(sqrt(pow(double(a2[k]), 2) + pow(double(b2[k]), 2)));
    c_bar[k] = (ch1[k] + ch2[k]) / 2;
  }
  // a' = a + a/2 G: pow(c_bar, 7) approximated, a' certain when its rounding is.
  for (int k = 0; k < n; ++k) {
    const double c_bar7 = approx::pow7(double(c_bar[k]));
    const double g = 1 - sqrt(c_bar7 / (c_bar7 + pow(25.0, 7)));
    const double v1 = double(a1[k]) + double(a1[k] / 2) * g;
    const double v2 = double(a2[k]) + double(a2[k] / 2) * g;
    const double m1 = approx::margin(fabs(double(a1[k]))), m2 = approx::margin(fabs(double(a2[k])));
    ok[k] = int(approx::rounds_alike(v1, m1)) & int(approx::rounds_alike(v2, m2));  // branch-free: both are evaluated
    ap1[k] = float(v1);
    ap2[k] = float(v2);
    cp1[k] = float(sqrt(pow(double(ap1[k]), 2) + pow(double(b1[k]), 2)));
    cp2[k] = float(sqrt(pow(double(ap2[k]), 2) + pow(double(b2[k]), 2)));
  }
  for (int k = 0; k < n; ++k) {
    int good = ok[k];
    h1[k] = hue_angle_approx(b1[k], ap1[k], good);
    h2[k] = hue_angle_approx(b2[k], ap2[k], good);
    ok[k] = good;
  }
  for (int k = 0; k < n; ++k) {
    dh[k] = delta_hue_select(ch1[k], ch2[k], h1[k], h2[k]);
    hb[k] = mean_hue_select(h1[k], h2[k]);
  }
  // delta H' = 2 sqrt(C'1 C'2) sin(dh / 2), |dh / 2| <= pi / 2 (+ a float's rounding), where approx::sin is
  // accurate relative to its value (as is the library's): the margin is relative.
  for (int k = 0; k < n; ++k) {
    const double x = double(dh[k]) / 2.0;
    const double scale = 2.0 * sqrt(double(cp1[k] * cp2[k]));
    const double v = scale * approx::sin<kPlant>(x);
    ok[k] &= int(approx::rounds_alike(v, approx::margin(8.0 * fabs(v))));
    delta_h[k] = float(v);
  }
  // T (hue_weight_t()): the four cosines' arguments as libvmaf writes them.
  for (int k = 0; k < n; ++k) {
    const double H = hb[k];
    const double v = 1.0 - 0.17 * approx::cos(H - M_PI / 6.0) + 0.24 * approx::cos(2.0 * H) +
                     0.32 * approx::cos(3.0 * H + M_PI / 30.0) - 0.20 * approx::cos(4.0 * H - 7.0 * M_PI / 20.0);
    ok[k] &= int(approx::rounds_alike(v, approx::margin(2.0)));
    t[k] = float(v);
  }
  // rotation(), stage by stage; powf stays the library's.
  for (int k = 0; k < n; ++k) c7[k] = powf((cp1[k] + cp2[k]) / 2, 7);
  for (int k = 0; k < n; ++k) {
    rot_root[k] = c7[k] / (c7[k] + powf(25.f, 7));
    const float d = float((double(to_degrees(hb[k])) - 275.0) * (1.0 / 25.0));
    const double v = 60.0 * approx::exp(double(-powf(d, 2)));
    ok[k] &= int(approx::rounds_alike(v, approx::margin(v)));
    rot_angle[k] = to_radians(float(v));
  }
  for (int k = 0; k < n; ++k) {
    const double x = double(rot_angle[k]);
    const double scale = -2.0 * sqrt(double(rot_root[k]));
    const double v = scale * approx::sin<kPlant>(x);
    ok[k] &= int(approx::rounds_alike(v, approx::margin(8.0 * fabs(v))));
    r_t[k] = float(v);
  }
  for (int k = 0; k < n; ++k) {
    const float kl = 0.65f, kc = 1.0f, kh = 4.0f;
    const float delta_l = l2[k] - l1[k];
    const float l_bar = (l1[k] + l2[k]) / 2;
    const float c_bar_prime = (cp1[k] + cp2[k]) / 2;
    const float delta_c = cp2[k] - cp1[k];
    const double lm = double(l_bar - 50);
    const float s_l = float(1. + ((0.015 * pow(lm, 2)) / sqrt(20 + pow(lm, 2))));
    const float s_c = float(1. + 0.045 * double(c_bar_prime));
    const float s_h = float(1.0 + 0.015 * double(c_bar_prime) * double(t[k]));
    const float lightness = delta_l / (kl * s_l);
    const float chroma = delta_c / (kc * s_c);
    const float hue_term = delta_h[k] / (kh * s_h);
    out[k] = float(sqrt(pow(double(lightness), 2) + pow(double(chroma), 2) + pow(double(hue_term), 2) +
                        double(r_t[k] * chroma * hue_term)));
  }
  for (int k = 0; k < n; ++k)
    if (!ok[k]) {
#ifdef CIEDE_COUNT_FALLBACKS
      ++ciede_fallbacks;
#endif
      out[k] = ciede2000(c1[k], c2[k]);
    }
}

// lab_f(c) from an approximate c, |c - exact c| <= 2^-40 scale: the float, and good = 0 where it is uncertain
// (c near the branch point, or the rounding uncertain). Its pow(c, 1/3) is approx::pow (relative error a
// few 2^-53 against the library's one).
VQTWIN_ALWAYS_INLINE float lab_f_approx(double c, double scale, int& good) {
  const double kappa = 24389.0 / 27.0;
  const double epsilon = 216.0 / 24389.0;
  const double dc = scale * 0x1p-40;
  const bool cube = c > epsilon;
  const double root = approx::pow(cube ? c : 1.0, 1.0 / 3.0);
  const double line = (kappa * c + 16.0) * (1.0 / 116.0);
  const double v = cube ? root : line;
  const double m = cube ? approx::margin(v * (1.0 + scale / c)) : approx::margin(8.0 * scale + fabs(v));
  good &= int(fabs(c - epsilon) > dc) & int(approx::rounds_alike(v, m));
  return float(v);
}

// to_lab() with the six pow() calls approximated (approx::pow; every other operation as math.hpp's) and each
// of the three floats lab_f() returns checked; a colour with an uncertain one is converted again by math.hpp's
// to_lab(). The linearised r, g, b (pow branch) are within a few 2^-53 relative of the library's, so x, y, z
// are within 2^-40 of their scale (the sum of their terms' magnitudes).
VQTWIN_ALWAYS_INLINE void to_lab_body(const std::uint16_t* y, const std::uint16_t* u, const std::uint16_t* v, int n,
                                      unsigned bpc, Lab* out) {
  constexpr int kMax = 2 * kBatch;
  double r[kMax], g[kMax], b[kMax];
  float fx[kMax], fy[kMax], fz[kMax];
  int ok[kMax];
  const double scale = double(1 << (bpc - 8));
  for (int k = 0; k < n; ++k) {
    const double ys = (double(y[k]) - 16. * scale) * (1. / (219. * scale));
    const double us = (double(u[k]) - 128. * scale) * (1. / (224. * scale));
    const double vs = (double(v[k]) - 128. * scale) * (1. / (224. * scale));
    r[k] = ys + 1.28033 * vs;
    g[k] = ys - 0.21482 * us - 0.38059 * vs;
    b[k] = ys + 2.12798 * us;
  }
  // linearize(), its pow approximated.
  auto linear = [](double c) {
    const double A = 0.055, D = 1.0 / 1.055, Dl = 1.0 / 12.92;
    const bool curve = c > 10. / 255.;
    const double p = approx::pow(curve ? (c + A) * D : 1.0, 2.4);
    return curve ? p : c * Dl;
  };
  for (int k = 0; k < n; ++k) r[k] = linear(r[k]);
  for (int k = 0; k < n; ++k) g[k] = linear(g[k]);
  for (int k = 0; k < n; ++k) b[k] = linear(b[k]);
  for (int k = 0; k < n; ++k) {
    const double x = (r[k] * 0.4124564390896921 + g[k] * 0.357576077643909 + b[k] * 0.18043748326639894) * (1.0 / 0.95047);
    const double yy = r[k] * 0.21267285140562248 + g[k] * 0.715152155287818 + b[k] * 0.07217499330655958;
    const double z = (r[k] * 0.019333895582329317 + g[k] * 0.119192025881303 + b[k] * 0.9503040785363677) * (1.0 / 1.08883);
    const double ar = fabs(r[k]), ag = fabs(g[k]), ab = fabs(b[k]);
    const double sx = (ar * 0.4124564390896921 + ag * 0.357576077643909 + ab * 0.18043748326639894) * (1.0 / 0.95047);
    const double sy = ar * 0.21267285140562248 + ag * 0.715152155287818 + ab * 0.07217499330655958;
    const double sz = (ar * 0.019333895582329317 + ag * 0.119192025881303 + ab * 0.9503040785363677) * (1.0 / 1.08883);
    int good = 1;
    fx[k] = lab_f_approx(x, sx, good);
    fy[k] = lab_f_approx(yy, sy, good);
    fz[k] = lab_f_approx(z, sz, good);
    ok[k] = good;
  }
  for (int k = 0; k < n; ++k)
    out[k] = {float((116.0 * double(fy[k])) - 16.0), float(500.0 * (double(fx[k]) - double(fy[k]))),
              float(200.0 * (double(fy[k]) - double(fz[k])))};
  for (int k = 0; k < n; ++k)
    if (!ok[k]) out[k] = to_lab(y[k], u[k], v[k], bpc);
}

// The builds (common/isa.hpp).
#if VQTWIN_X86_VARIANTS
VQTWIN_TARGET_V3 void ciede2000_v3(const Lab* c1, const Lab* c2, int n, float* out) { ciede2000_body(c1, c2, n, out); }
VQTWIN_TARGET_V3 void to_lab_v3(const std::uint16_t* y, const std::uint16_t* u, const std::uint16_t* v, int n,
                                unsigned bpc, Lab* out) {
  to_lab_body(y, u, v, n, bpc, out);
}
VQTWIN_TARGET_V4 void ciede2000_v4(const Lab* c1, const Lab* c2, int n, float* out) { ciede2000_body(c1, c2, n, out); }
VQTWIN_TARGET_V4 void to_lab_v4(const std::uint16_t* y, const std::uint16_t* u, const std::uint16_t* v, int n,
                                unsigned bpc, Lab* out) {
  to_lab_body(y, u, v, n, bpc, out);
}
#endif

}  // namespace

// Whether $VQTWIN_PLANT names ciede's planted bug (read once).
static bool short_sin_planted() {
  static const bool planted = [] {
    const char* p = std::getenv("VQTWIN_PLANT");
    return p != nullptr && std::string_view(p) == "ciede_cpu_short_sin";
  }();
  return planted;
}

void ciede2000_batch(const Lab* c1, const Lab* c2, int n, float* out) {
  if (short_sin_planted()) return ciede2000_body<true>(c1, c2, n, out);
  ciede2000_body(c1, c2, n, out);
}

void to_lab_batch(const std::uint16_t* y, const std::uint16_t* u, const std::uint16_t* v, int n, unsigned bpc,
                  Lab* out) {
  to_lab_body(y, u, v, n, bpc, out);
}

BatchKernels batch_kernels_for(unsigned cpu_flags) {
  BatchKernels k{"portable", ciede2000_batch, to_lab_batch};
  if (short_sin_planted()) return k;  // the planted bug lives in the portable build
#if VQTWIN_X86_VARIANTS
  if (!cpu::allows(cpu_flags, cpu::kAvx2)) return k;
  k = {"x86-64-v3", ciede2000_v3, to_lab_v3};
  if (!cpu::allows(cpu_flags, cpu::kAvx512)) return k;
  k = {"x86-64-v4", ciede2000_v4, to_lab_v4};
#endif
  return k;
}

}  // namespace vqtwin::ciede
