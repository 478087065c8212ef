#pragma once
// ciede's scalar math: libvmaf's ciede.c (after av-metrics), YCbCr (BT.709, limited range) -> sRGB ->
// XYZ (D65) -> CIELAB, then the CIEDE2000 colour difference with kL = 0.65, kC = 1, kH = 4.
//
// The precision of every step is libvmaf's and matters for the last bit: the conversion runs in double
// and rounds each L*a*b* value (and the cube roots before them) to float; CIEDE2000 keeps its named
// intermediates in float and evaluates each expression in double where libvmaf's C does (double
// constants, sqrt/pow/sin/cos/atan2/exp of double) and in float where it does (powf, float products).
// The transcendental functions are the C library's, called with the same arguments in the same precision
// (the C functions of <math.h>, never C++ float overloads; pow(x, 2) stays pow as in libvmaf, which GCC
// turns into the exact x * x in both builds).
#include <math.h>

#include <cmath>

#include "core/hd.hpp"

namespace vqtwin::ciede {

struct Lab {
  float l, a, b;
};

// The piecewise sRGB transfer inverse, libvmaf's rgb_to_xyz_map.
inline double linearize(double c) {
  if (c > 10. / 255.) {
    const double A = 0.055;
    const double D = 1.0 / 1.055;
    return pow((c + A) * D, 2.4);
  }
  const double D = 1.0 / 12.92;
  return c * D;
}

// CIELAB's f(t), libvmaf's xyz_to_lab_map (returns float).
inline float lab_f(double c) {
  const double kappa = 24389.0 / 27.0;
  const double epsilon = 216.0 / 24389.0;
  if (c > epsilon) return float(pow(c, 1.0 / 3.0));
  return float((kappa * c + 16.0) * (1.0 / 116.0));
}

// One YCbCr sample triple (integer sample values as doubles) of bit depth `bpc` to L*a*b*.
inline Lab to_lab(double y, double u, double v, unsigned bpc) {
  const double scale = double(1 << (bpc - 8));
  y = (y - 16. * scale) * (1. / (219. * scale));
  u = (u - 128. * scale) * (1. / (224. * scale));
  v = (v - 128. * scale) * (1. / (224. * scale));
  double r = y + 1.28033 * v;
  double g = y - 0.21482 * u - 0.38059 * v;
  double b = y + 2.12798 * u;
  r = linearize(r);
  g = linearize(g);
  b = linearize(b);
  double x = r * 0.4124564390896921 + g * 0.357576077643909 + b * 0.18043748326639894;
  double yy = r * 0.21267285140562248 + g * 0.715152155287818 + b * 0.07217499330655958;
  double z = r * 0.019333895582329317 + g * 0.119192025881303 + b * 0.9503040785363677;
  x = lab_f(x * (1.0 / 0.95047));
  yy = lab_f(yy);
  z = lab_f(z * (1.0 / 1.08883));
  return {float((116.0 * yy) - 16.0), float(500.0 * (x - yy)), float(200.0 * (yy - z))};
}

// Hue angle in [0, 2 pi) of (a', b') given as atan2(x = b, y = a'), 0 for the origin.
inline float hue_angle(float x, float y) {
  if ((x == 0.0) && (y == 0.0)) return 0.0;
  float h = float(atan2(double(x), double(y)));
  if (h < 0.0) h = float(double(h) + 2. * M_PI);
  return h;
}

inline float delta_hue(float c1, float c2, float h1, float h2) {
  if ((c1 == 0.0) || (c2 == 0.0)) return 0.0;
  if (fabsf(h1 - h2) <= M_PI) return h2 - h1;
  if (h2 <= h1) return float(double(h2 - h1) + 2. * M_PI);
  return float(double(h2 - h1) - 2. * M_PI);
}

inline float mean_hue(float h1, float h2) {
  return fabs(double(h1 - h2)) > M_PI ? float((double(h1 + h2) + 2.0 * M_PI) / 2.0) : float(double(h1 + h2) / 2.0);
}

inline float hue_weight_t(float hb) {
  const double H = hb;
  return float(1.0 - 0.17 * cos(H - M_PI / 6.0) + 0.24 * cos(2.0 * H) + 0.32 * cos(3.0 * H + M_PI / 30.0) -
               0.20 * cos(4.0 * H - 7.0 * M_PI / 20.0));
}

// (Plain arithmetic: shared with the CUDA twin through cells.hpp.)
VQTWIN_HD inline float to_degrees(float radians) { return float(double(radians) * (180.0 / M_PI)); }
VQTWIN_HD inline float to_radians(float degrees) { return float(double(degrees) * (M_PI / 180.0)); }

// The rotation term R_T.
inline float rotation(float c_bar_prime, float hb) {
  const float d = float((double(to_degrees(hb)) - 275.0) * (1.0 / 25.0));
  const float c7 = powf(c_bar_prime, 7);
  return float(-2.0 * sqrt(double(c7 / (c7 + powf(25.f, 7)))) *
               sin(double(to_radians(float(60.0 * exp(double(-powf(d, 2))))))));
}

inline float ciede2000(const Lab& c1, const Lab& c2) {
  const float kl = 0.65f, kc = 1.0f, kh = 4.0f;
  const float delta_l = c2.l - c1.l;
  const float l_bar = (c1.l + c2.l) / 2;
  const float ch1 = float(sqrt(pow(double(c1.a), 2) + pow(double(c1.b), 2)));
  const float ch2 = float(sqrt(pow(double(c2.a), 2) + pow(double(c2.b), 2)));
  const float c_bar = (ch1 + ch2) / 2;
  const double c_bar7 = pow(double(c_bar), 7);
  const double g = 1 - sqrt(c_bar7 / (c_bar7 + pow(25.0, 7)));
  const float a1 = float(double(c1.a) + double(c1.a / 2) * g);
  const float a2 = float(double(c2.a) + double(c2.a / 2) * g);
  const float cp1 = float(sqrt(pow(double(a1), 2) + pow(double(c1.b), 2)));
  const float cp2 = float(sqrt(pow(double(a2), 2) + pow(double(c2.b), 2)));
  const float c_bar_prime = (cp1 + cp2) / 2;
  const float delta_c = cp2 - cp1;
  const double lm = double(l_bar - 50);
  const float s_l = float(1. + ((0.015 * pow(lm, 2)) / sqrt(20 + pow(lm, 2))));
  const float s_c = float(1. + 0.045 * double(c_bar_prime));
  const float h1 = hue_angle(c1.b, a1);
  const float h2 = hue_angle(c2.b, a2);
  const float dh = delta_hue(ch1, ch2, h1, h2);
  const float delta_h = float(2.0 * sqrt(double(cp1 * cp2)) * sin(double(dh) / 2.0));
  const float hb = mean_hue(h1, h2);
  const float t = hue_weight_t(hb);
  const float s_h = float(1.0 + 0.015 * double(c_bar_prime) * double(t));
  const float r_t = rotation(c_bar_prime, hb);
  const float lightness = delta_l / (kl * s_l);
  const float chroma = delta_c / (kc * s_c);
  const float hue = delta_h / (kh * s_h);
  return float(sqrt(pow(double(lightness), 2) + pow(double(chroma), 2) + pow(double(hue), 2) +
                    double(r_t * chroma * hue)));
}

// The frame's score from the double sum of its per-pixel differences and w*h.
inline double score_of(double sum, unsigned pixels) { return 45. - 20. * log10(sum / pixels); }

}  // namespace vqtwin::ciede
