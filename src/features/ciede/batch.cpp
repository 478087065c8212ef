// ciede's math over batches: every element goes through exactly the operations of math.hpp's scalar
// functions, in the same precision and order; only the work of different pixels is interleaved. Stages
// that call the C library run one call per element with nothing chained between elements (so the
// processor overlaps them); the arithmetic stages are plain loops the compiler vectorises, lanes doing the
// scalar IEEE operations (no FMA: -ffp-contract=off; this file is built with -fno-math-errno, which only
// lets sqrt become the vector instruction: results are the same correctly rounded square roots).
// The unit tests compare both functions with the scalar ones.
#include "features/ciede/batch.hpp"

#include <math.h>

#include "common/cpu.hpp"
#include "common/vector.hpp"

namespace vqtwin::ciede {
namespace {

VQTWIN_ALWAYS_INLINE void ciede2000_body(const Lab* c1, const Lab* c2, int n, float* out) {
  float l1[kBatch], l2[kBatch], a1[kBatch], a2[kBatch], b1[kBatch], b2[kBatch];
  float ch1[kBatch], ch2[kBatch], c_bar[kBatch], ap1[kBatch], ap2[kBatch], cp1[kBatch], cp2[kBatch];
  float h1[kBatch], h2[kBatch], dh[kBatch], hb[kBatch], delta_h[kBatch], t[kBatch];
  float c7[kBatch], d[kBatch], rot_root[kBatch], rot_angle[kBatch], r_t[kBatch];
  double c_bar7[kBatch], sin_dh[kBatch], e[kBatch], sin_rot[kBatch];
  for (int k = 0; k < n; ++k) {
    l1[k] = c1[k].l, a1[k] = c1[k].a, b1[k] = c1[k].b;
    l2[k] = c2[k].l, a2[k] = c2[k].a, b2[k] = c2[k].b;
  }
  for (int k = 0; k < n; ++k) {
    ch1[k] = float(sqrt(pow(double(a1[k]), 2) + pow(double(b1[k]), 2)));
    ch2[k] = float(sqrt(pow(double(a2[k]), 2) + pow(double(b2[k]), 2)));
    c_bar[k] = (ch1[k] + ch2[k]) / 2;
  }
  for (int k = 0; k < n; ++k) c_bar7[k] = pow(double(c_bar[k]), 7);
  for (int k = 0; k < n; ++k) {
    const double g = 1 - sqrt(c_bar7[k] / (c_bar7[k] + pow(25.0, 7)));
    ap1[k] = float(double(a1[k]) + double(a1[k] / 2) * g);
    ap2[k] = float(double(a2[k]) + double(a2[k] / 2) * g);
    cp1[k] = float(sqrt(pow(double(ap1[k]), 2) + pow(double(b1[k]), 2)));
    cp2[k] = float(sqrt(pow(double(ap2[k]), 2) + pow(double(b2[k]), 2)));
  }
  for (int k = 0; k < n; ++k) {
    h1[k] = hue_angle(b1[k], ap1[k]);
    h2[k] = hue_angle(b2[k], ap2[k]);
  }
  for (int k = 0; k < n; ++k) {
    dh[k] = delta_hue(ch1[k], ch2[k], h1[k], h2[k]);
    hb[k] = mean_hue(h1[k], h2[k]);
  }
  for (int k = 0; k < n; ++k) sin_dh[k] = sin(double(dh[k]) / 2.0);
  for (int k = 0; k < n; ++k) delta_h[k] = float(2.0 * sqrt(double(cp1[k] * cp2[k])) * sin_dh[k]);
  for (int k = 0; k < n; ++k) t[k] = hue_weight_t(hb[k]);
  // rotation(), stage by stage.
  for (int k = 0; k < n; ++k) {
    d[k] = float((double(to_degrees(hb[k])) - 275.0) * (1.0 / 25.0));
    c7[k] = powf((cp1[k] + cp2[k]) / 2, 7);
  }
  for (int k = 0; k < n; ++k) rot_root[k] = c7[k] / (c7[k] + powf(25.f, 7));
  for (int k = 0; k < n; ++k) e[k] = exp(double(-powf(d[k], 2)));
  for (int k = 0; k < n; ++k) rot_angle[k] = to_radians(float(60.0 * e[k]));
  for (int k = 0; k < n; ++k) sin_rot[k] = sin(double(rot_angle[k]));
  for (int k = 0; k < n; ++k) r_t[k] = float(-2.0 * sqrt(double(rot_root[k])) * sin_rot[k]);
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
    const float hue = delta_h[k] / (kh * s_h);
    out[k] = float(sqrt(pow(double(lightness), 2) + pow(double(chroma), 2) + pow(double(hue), 2) +
                        double(r_t[k] * chroma * hue)));
  }
}

VQTWIN_ALWAYS_INLINE void to_lab_body(const std::uint16_t* y, const std::uint16_t* u, const std::uint16_t* v, int n,
                                      unsigned bpc, Lab* out) {
  constexpr int kMax = 2 * kBatch;
  double r[kMax], g[kMax], b[kMax], x[kMax], yy[kMax], z[kMax];
  float fx[kMax], fy[kMax], fz[kMax];
  const double scale = double(1 << (bpc - 8));
  for (int k = 0; k < n; ++k) {
    const double ys = (double(y[k]) - 16. * scale) * (1. / (219. * scale));
    const double us = (double(u[k]) - 128. * scale) * (1. / (224. * scale));
    const double vs = (double(v[k]) - 128. * scale) * (1. / (224. * scale));
    r[k] = ys + 1.28033 * vs;
    g[k] = ys - 0.21482 * us - 0.38059 * vs;
    b[k] = ys + 2.12798 * us;
  }
  for (int k = 0; k < n; ++k) r[k] = linearize(r[k]);
  for (int k = 0; k < n; ++k) g[k] = linearize(g[k]);
  for (int k = 0; k < n; ++k) b[k] = linearize(b[k]);
  for (int k = 0; k < n; ++k) {
    x[k] = (r[k] * 0.4124564390896921 + g[k] * 0.357576077643909 + b[k] * 0.18043748326639894) * (1.0 / 0.95047);
    yy[k] = r[k] * 0.21267285140562248 + g[k] * 0.715152155287818 + b[k] * 0.07217499330655958;
    z[k] = (r[k] * 0.019333895582329317 + g[k] * 0.119192025881303 + b[k] * 0.9503040785363677) * (1.0 / 1.08883);
  }
  for (int k = 0; k < n; ++k) fx[k] = lab_f(x[k]);
  for (int k = 0; k < n; ++k) fy[k] = lab_f(yy[k]);
  for (int k = 0; k < n; ++k) fz[k] = lab_f(z[k]);
  for (int k = 0; k < n; ++k)
    out[k] = {float((116.0 * double(fy[k])) - 16.0), float(500.0 * (double(fx[k]) - double(fy[k]))),
              float(200.0 * (double(fy[k]) - double(fz[k])))};
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

void ciede2000_batch(const Lab* c1, const Lab* c2, int n, float* out) { ciede2000_body(c1, c2, n, out); }

void to_lab_batch(const std::uint16_t* y, const std::uint16_t* u, const std::uint16_t* v, int n, unsigned bpc,
                  Lab* out) {
  to_lab_body(y, u, v, n, bpc, out);
}

BatchKernels batch_kernels_for(unsigned cpu_flags) {
  BatchKernels k{"portable", ciede2000_batch, to_lab_batch};
#if VQTWIN_X86_VARIANTS
  if (!cpu::allows(cpu_flags, cpu::kAvx2)) return k;
  k = {"x86-64-v3", ciede2000_v3, to_lab_v3};
  if (!cpu::allows(cpu_flags, cpu::kAvx512)) return k;
  k = {"x86-64-v4", ciede2000_v4, to_lab_v4};
#endif
  return k;
}

}  // namespace vqtwin::ciede
