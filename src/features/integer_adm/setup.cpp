#include "features/integer_adm/setup.hpp"

#include <cmath>
#include <numbers>
#include <string>

#include "vqtwin/error.hpp"

namespace vqtwin::integer_adm {
namespace {

constexpr double kPi = std::numbers::pi;  // libvmaf's M_PI

// Watson 1997 luma model (float parameters) and the 7-9 basis amplitudes A[lambda][theta].
constexpr float kWatsonA = 0.495f, kWatsonK = 0.466f, kWatsonF0 = 0.401f;
constexpr float kWatsonG[4] = {1.501f, 1.0f, 0.534f, 1.0f};
constexpr float kAmplitude[4][4] = {
    {0.62171f, 0.67234f, 0.72709f, 0.67234f},
    {0.34537f, 0.41317f, 0.49428f, 0.41317f},
    {0.18004f, 0.22727f, 0.28688f, 0.22727f},
    {0.091401f, 0.11792f, 0.15214f, 0.11792f},
};

// Barten-Watson blended factors [orientation 0 = h/v, 1 = d][scale], mode 2 and its MAE variant
// (mode 3), per (display height, viewing distance). libvmaf also has 720x3 and 480 tables, which
// its nvd * rdh >= 3240 rule makes unreachable; 720x5 (3600) is reachable.
using BlendTable = float[2][4];
constexpr BlendTable kBlend1080x3 = {{0.01183f, 0.025026f, 0.04295f, 0.058621f},
                                     {0.004302f, 0.011778f, 0.023918f, 0.035901f}};
constexpr BlendTable kBlend1080x5 = {{0.004212f, 0.014809f, 0.029642f, 0.047464f},
                                     {0.000984f, 0.005852f, 0.0146f, 0.027574f}};
constexpr BlendTable kBlend2160x3 = {{0.00226f, 0.01183f, 0.025026f, 0.04295f},
                                     {0.000479f, 0.004302f, 0.011778f, 0.023918f}};
constexpr BlendTable kBlend2160x5 = {{0.000092f, 0.004212f, 0.014809f, 0.029642f},
                                     {0.000050f, 0.000984f, 0.005852f, 0.0146f}};
constexpr BlendTable kBlend720x5 = {{0.010144f, 0.022561f, 0.040309f, 0.05672f},
                                    {0.003463f, 0.010282f, 0.021839f, 0.034641f}};
constexpr BlendTable kMae1080x3 = {{0.011249f, 0.022606f, 0.035930f, 0.045673f},
                                   {0.004097f, 0.010921f, 0.021430f, 0.031313f}};
constexpr BlendTable kMae1080x5 = {{0.004052f, 0.013939f, 0.026298f, 0.038833f},
                                   {0.000927f, 0.005544f, 0.013415f, 0.024515f}};
constexpr BlendTable kMae2160x3 = {{0.002166f, 0.011249f, 0.022606f, 0.035930f},
                                   {0.000447f, 0.004097f, 0.010921f, 0.021430f}};
constexpr BlendTable kMae2160x5 = {{0.000077f, 0.004052f, 0.013939f, 0.026298f},
                                   {0.000045f, 0.000927f, 0.005544f, 0.013415f}};
constexpr BlendTable kMae720x5 = {{0.009689f, 0.020577f, 0.034162f, 0.044523f},
                                  {0.003302f, 0.009579f, 0.019661f, 0.030318f}};

// The table of a display, or nullptr (rdh compared as an int, nvd with == as libvmaf does).
const BlendTable* blend_table(int mode, int rdh, double nvd) {
  const bool mae = mode == 3;
  if (rdh == 1080 && nvd == 3.0) return mae ? &kMae1080x3 : &kBlend1080x3;
  if (rdh == 1080 && nvd == 5.0) return mae ? &kMae1080x5 : &kBlend1080x5;
  if (rdh == 2160 && nvd == 1.5) return mae ? &kMae1080x3 : &kBlend1080x3;  // same angular resolution
  if (rdh == 2160 && nvd == 3.0) return mae ? &kMae2160x3 : &kBlend2160x3;
  if (rdh == 2160 && nvd == 5.0) return mae ? &kMae2160x5 : &kBlend2160x5;
  if (rdh == 720 && nvd == 5.0) return mae ? &kMae720x5 : &kBlend720x5;
  return nullptr;
}

uint32_t ceil_log2(double v) { return uint32_t(std::ceil(std::log2(v))); }

}  // namespace

void validate(const Settings& s) {
  if (s.norm_view_dist * s.ref_display_height < 3.0 * 1080)
    throw Error("adm: adm_norm_view_dist * adm_ref_display_height must be at least 3240 (3 x 1080); got " +
                std::to_string(s.norm_view_dist * s.ref_display_height));
  if (s.csf_mode == 1)
    throw Error("adm: adm_csf_mode=1 (Barten) is not supported by integer ADM: its CSF weights overflow the "
                "fixed-point pipeline");
  if ((s.csf_mode == 2 || s.csf_mode == 3) && !blend_table(s.csf_mode, s.ref_display_height, s.norm_view_dist))
    throw Error("adm: adm_csf_mode=" + std::to_string(s.csf_mode) +
                " has no CSF table for this display; supported (adm_ref_display_height, adm_norm_view_dist): "
                "(1080, 3), (1080, 5), (2160, 1.5), (2160, 3), (2160, 5), (720, 5)");
}

float watson_factor(int lambda, int theta, double norm_view_dist, int ref_display_height) {
  // Display resolution in pixels per degree, to float.
  const float r = float(norm_view_dist * ref_display_height * kPi / 180.0);
  const float t = float(std::log10(std::pow(2.0, lambda + 1) * kWatsonF0 * kWatsonG[theta] / r));
  const float e = kWatsonK * t * t;  // float products
  const float q = float(2.0 * kWatsonA * std::pow(10.0, double(e)) / kAmplitude[lambda][theta]);
  return 1.0f / q;
}

CsfFactors make_csf_factors(const Settings& s) {
  validate(s);
  CsfFactors c{};
  for (int lambda = 0; lambda < 4; ++lambda) {
    if (s.csf_mode == 0) {
      c.f[lambda][0] = watson_factor(lambda, 1, s.norm_view_dist, s.ref_display_height);
      c.f[lambda][1] = watson_factor(lambda, 2, s.norm_view_dist, s.ref_display_height);
    } else {
      const BlendTable& t = *blend_table(s.csf_mode, s.ref_display_height, s.norm_view_dist);
      c.f[lambda][0] = t[0][lambda];
      c.f[lambda][1] = t[1][lambda];
    }
  }
  // libvmaf hard-codes the scale-0 fixed-point factors for the default display in mode 0 (they
  // differ from the computed 36451 / 49414, and the goldens depend on it).
  if (s.csf_mode == 0 && std::fabs(s.norm_view_dist * s.ref_display_height - 3.0 * 1080) < 1.0e-8) {
    c.r0[0] = c.r0[1] = 36453;
    c.r0[2] = 49417;
  } else {
    c.r0[0] = c.r0[1] = uint16_t(double(c.f[0][0]) * std::pow(2.0, 21));
    c.r0[2] = uint16_t(double(c.f[0][1]) * std::pow(2.0, 23));
  }
  for (int lambda = 1; lambda < 4; ++lambda) {
    c.rs[lambda][0] = c.rs[lambda][1] = uint32_t(double(c.f[lambda][0]) * std::pow(2.0, 32));
    c.rs[lambda][2] = uint32_t(double(c.f[lambda][1]) * std::pow(2.0, 32));
  }
  return c;
}

Rect pool_rect(int w, int h) {
  Rect r;
  r.left = int(w * 0.1 - 0.5);
  r.top = int(h * 0.1 - 0.5);
  r.right = w - r.left;
  r.bottom = h - r.top;
  return r;
}

ScaleGeometry make_geometry(int scale, int w, int h) {
  ScaleGeometry g;
  g.w = w;
  g.h = h;
  g.pool = pool_rect(w, h);
  g.needed.left = g.pool.left > 0 ? g.pool.left - 1 : 0;
  g.needed.top = g.pool.top > 0 ? g.pool.top - 1 : 0;
  g.needed.right = g.pool.right < w ? g.pool.right + 1 : w;
  g.needed.bottom = g.pool.bottom < h ? g.pool.bottom + 1 : h;

  // Rounding terms 2^(shift-1); a shift of 0 (bands too small for integer ADM) would round by 0.
  auto half = [](uint32_t shift) -> int64_t { return shift > 0 ? int64_t(1) << (shift - 1) : 0; };
  g.row_shift = ceil_log2(h);
  g.row_round = half(g.row_shift);
  if (scale == 0) {
    g.cube_shift[0] = g.cube_shift[1] = uint32_t(std::ceil(std::log2(w) - 4));
    g.cube_shift[2] = uint32_t(std::ceil(std::log2(w) - 3));
    for (int t = 0; t < 3; ++t) {
      g.cube_round[t] = half(g.cube_shift[t]);
      g.num_exp[t] = (t == 2 ? 57u : 52u) - g.cube_shift[t] - g.row_shift;  // unsigned, as libvmaf
    }
    const int area = g.pool.width() * g.pool.height();
    const int32_t sigma = int32_t(std::ceil(std::log2(area) - 20));
    g.den_row_shift = sigma > 0 ? uint32_t(sigma) : 0u;
    g.den_row_round = uint64_t(half(g.den_row_shift));
    g.den_exp = 18 - g.den_row_shift;
  } else {
    constexpr uint32_t kNumExp[3] = {45, 39, 36};
    constexpr uint32_t kDenSqShift[3] = {31, 30, 31};
    constexpr uint32_t kDenExp[3] = {32, 27, 23};
    const uint32_t c = ceil_log2(w);
    for (int t = 0; t < 3; ++t) {
      g.cube_shift[t] = c;
      g.cube_round[t] = half(c);
      g.num_exp[t] = kNumExp[scale - 1] - c - g.row_shift;
    }
    g.den_sq_shift = kDenSqShift[scale - 1];
    g.den_cube_shift = ceil_log2(g.pool.width());
    g.den_cube_round = uint64_t(half(g.den_cube_shift));
    g.den_row_shift = ceil_log2(g.pool.height());
    g.den_row_round = uint64_t(half(g.den_row_shift));
    g.den_exp = kDenExp[scale - 1] - g.den_row_shift - g.den_cube_shift;
  }
  return g;
}

}  // namespace vqtwin::integer_adm
