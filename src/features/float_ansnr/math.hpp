#pragma once
// float_ansnr's scalar math (libvmaf's ansnr.c / ansnr_tools.c, 2-D filters, mirrored edges, no
// normalisation), shared by the CPU reference and the twins.
//
// Both luma planes become float (v / scale - 128). The reference is smoothed with a 3x3 binomial
// filter, the distorted picture with a 5x5 one; signal = sum of ref'^2, noise = sum of (ref' - dis')^2,
// each summed in fp32, a row at a time from 0, the row totals added into a fp32 total in row order.
// float_ansnr = 10 log10(signal / noise) (the fp32 quotient), or the dB cap when noise is 0;
// float_anpsnr = min(10 log10(peak^2 w h / max(noise, 1e-10)), cap).
#include <cmath>

#include "core/hd.hpp"

namespace vqtwin::float_ansnr {

// Filter taps, as libvmaf rounds them to float (the double quotients k / 16 and k / 571).
inline constexpr int kRefWidth = 3;
inline constexpr int kDisWidth = 5;
inline constexpr float kRefFilter[9] = {
    float(1.0 / 16.0), float(2.0 / 16.0), float(1.0 / 16.0),  //
    float(2.0 / 16.0), float(4.0 / 16.0), float(2.0 / 16.0),  //
    float(1.0 / 16.0), float(2.0 / 16.0), float(1.0 / 16.0)};
inline constexpr float kDisFilter[25] = {
    float(2.0 / 571.0),  float(7.0 / 571.0),  float(12.0 / 571.0),  float(7.0 / 571.0),  float(2.0 / 571.0),
    float(7.0 / 571.0),  float(31.0 / 571.0), float(52.0 / 571.0),  float(31.0 / 571.0), float(7.0 / 571.0),
    float(12.0 / 571.0), float(52.0 / 571.0), float(127.0 / 571.0), float(52.0 / 571.0), float(12.0 / 571.0),
    float(7.0 / 571.0),  float(31.0 / 571.0), float(52.0 / 571.0),  float(31.0 / 571.0), float(7.0 / 571.0),
    float(2.0 / 571.0),  float(7.0 / 571.0),  float(12.0 / 571.0),  float(7.0 / 571.0),  float(2.0 / 571.0)};

// libvmaf's edge rule: an index before the start mirrors without repeating the edge (-1 -> 1), one past
// the end mirrors with it (n -> n-1). Valid for n >= 3 with the 5-tap reach of 2.
VQTWIN_HD inline int mirror(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - i - 1 : i); }

struct Peak {
  double peak;
  double psnr_max;
};

// 255, 255.75, 255.9375, 255.99609375 and 60, 72, 84, 108 dB for 8, 10, 12, 16 bits.
VQTWIN_HD inline bool peak_of(int bitdepth, Peak& p) {
  switch (bitdepth) {
    case 8: p = {255.0, 60.0}; return true;
    case 10: p = {255.75, 72.0}; return true;
    case 12: p = {255.9375, 84.0}; return true;
    case 16: p = {255.99609375, 108.0}; return true;
    default: return false;
  }
}

// float_ansnr from the fp32 totals.
VQTWIN_HD inline double ansnr_of(float signal, float noise, double psnr_max) {
  return noise == 0 ? psnr_max : 10.0 * std::log10(double(signal / noise));  // the fp32 quotient
}

// float_anpsnr from the fp32 noise total.
VQTWIN_HD inline double anpsnr_of(float noise, int w, int h, const Peak& p) {
  const double n = double(noise) > 1e-10 ? double(noise) : 1e-10;
  const double db = 10 * std::log10(p.peak * p.peak * w * h / n);
  return db < p.psnr_max ? db : p.psnr_max;
}

}  // namespace vqtwin::float_ansnr
