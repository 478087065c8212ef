// float ADM's CSF factors (spec: float_adm.md §4, integer_adm.md §5.2-§5.3 for the formulas).
// Types follow libvmaf: float parameters and intermediates where it stores floats, double
// arithmetic where a double operand or a libm call promotes the expression.
#include "features/float_adm/csf.hpp"

#include <cmath>

namespace vqtwin::float_adm {
namespace {

// Display visual resolution in pixels per degree, double arithmetic stored as float.
float pixels_per_degree(double view_dist, int display_height) {
  return float(view_dist * display_height * M_PI / 180.0);
}

// Nominal spatial frequency of a DWT level: half the resolution at level 0, halving per level.
float level_frequency(int scale, double view_dist, int display_height) {
  return float(double(pixels_per_degree(view_dist, display_height)) / std::pow(2.0, scale + 1));
}

}  // namespace

float watson_quant_step(int scale, int theta, double view_dist, int display_height) {
  // Watson et al. 1997, Y channel of the 7/9 model, and the DWT basis amplitudes per level/orientation.
  constexpr float a = 0.495f, k = 0.466f, f0 = 0.401f;
  constexpr float g[4] = {1.501f, 1.0f, 0.534f, 1.0f};
  constexpr float amplitude[4][4] = {{0.62171f, 0.67234f, 0.72709f, 0.67234f},
                                     {0.34537f, 0.41317f, 0.49428f, 0.41317f},
                                     {0.18004f, 0.22727f, 0.28688f, 0.22727f},
                                     {0.091401f, 0.11792f, 0.15214f, 0.11792f}};
  const float r = pixels_per_degree(view_dist, display_height);
  const float t = float(std::log10(std::pow(2.0, scale + 1) * double(f0) * double(g[theta]) / double(r)));
  const float exponent = k * t * t;  // float products
  return float(2.0 * double(a) * std::pow(10.0, double(exponent)) / double(amplitude[scale][theta]));
}

float barten_factor(int scale, double view_dist, int display_height, double scale_option) {
  const float sf = level_frequency(scale, view_dist, display_height);
  // Luminance 100 cd/m2 lies between the anchors 20 and 150: interpolate columns 1..4 of their
  // parameter rows (column 0 of libvmaf's table is never used).
  constexpr double lum = 100.0;
  constexpr float left_row[4] = {0.334278f, 3.79542f, 1.07327f, 6.4635f};
  constexpr float right_row[4] = {0.394533f, 2.7755f, 1.16577f, 7.45665f};
  const float left_pos = float(std::log10(double(20.0f)));
  const float right_pos = float(std::log10(double(150.0f)));
  const float sample_pos = float(std::log10(lum));
  float p[4];
  for (int n = 0; n < 4; ++n)
    p[n] = left_row[n] + ((right_row[n] - left_row[n]) / (right_pos - left_pos)) * (sample_pos - left_pos);

  const float big_a = float(1.0f + std::pow(double(p[0] * sf), double(p[1])));
  const float sf7 = sf / 7.0f;
  const float big_b = float(1.0f / std::pow(1.0 - std::exp(-std::pow(double(sf7), 2.0)), double(p[2])));
  const float csf = float(double(p[3]) / std::pow(double(big_a * big_b), 0.5));

  constexpr float mtf_a[4] = {0.424838596301290f, 0.572435103936480f, 0.000167576239164937f, 0.00255872352306433f};
  constexpr float mtf_b[4] = {0.028f, 0.37f, 37.0f, 360.0f};
  float mtf = 0.0f;
  for (int i = 0; i < 4; ++i) {
    const float arg = -mtf_b[i] * sf;
    mtf = float(double(mtf) + double(mtf_a[i]) * std::exp(double(arg)));
  }

  const float lum_f = float(lum);
  const float drop = 4.0627f / lum_f;
  const float rod_cone =
      float(double(30.162f) * std::pow(std::pow(double(drop), double(1.6596f)) + 1.0, -double(0.2712f)));

  const float product = csf * mtf * rod_cone;
  return float(double(product) * scale_option);
}

float adm_native_factor(int scale, double view_dist, int display_height, bool diagonal) {
  float sf = level_frequency(scale, view_dist, display_height);
  if (diagonal) sf = float(double(sf) / 0.7);  // oblique effect
  return float((0.31 + 0.69 * double(sf)) * std::exp(-0.29 * double(sf)));
}

CsfFactors csf_factors(int scale, const CsfSettings& s) {
  CsfFactors f{};
  if (s.mode == 1) {
    f.hv = barten_factor(scale, s.view_dist, s.display_height, s.csf_scale);
    f.d = barten_factor(scale, s.view_dist, s.display_height, s.csf_diag_scale);
  } else if (s.mode == 2) {
    f.hv = adm_native_factor(scale, s.view_dist, s.display_height, false);
    f.d = adm_native_factor(scale, s.view_dist, s.display_height, true);
  } else {
    f.hv = 1.0f / watson_quant_step(scale, 1, s.view_dist, s.display_height);
    f.d = 1.0f / watson_quant_step(scale, 2, s.view_dist, s.display_height);
  }
  if (s.f1_override[scale] >= 0) f.hv = float(s.f1_override[scale]);
  if (s.f2_override[scale] >= 0) f.d = float(s.f2_override[scale]);
  return f;
}

}  // namespace vqtwin::float_adm
