#pragma once
// float_psnr's scalar math (spec: psnr.md §2), shared by the CPU reference and the twins.
#include <algorithm>
#include <cmath>

#include "core/hd.hpp"

namespace vqtwin::float_psnr {

// Samples are compared in 8-bit units: v / 4, 16 or 256 for 10, 12, 16 bits. The peak is the
// largest sample in those units, the cap 6*bpc + 12 dB.
struct Setup {
  double peak = 255.0;
  double psnr_max = 60.0;
  float scale = 1.0f;
};

// False for an unsupported bit depth.
inline bool make_setup(int bpc, Setup& s) {
  switch (bpc) {
    case 8: s = {255.0, 60.0, 1.0f}; return true;
    case 10: s = {255.75, 72.0, 4.0f}; return true;
    case 12: s = {255.9375, 84.0, 16.0f}; return true;
    case 16: s = {255.99609375, 108.0, 256.0f}; return true;
    default: return false;
  }
}

// `noise` is the sum of squared differences in 8-bit units (double), `pixels` = w*h.
VQTWIN_HD inline double psnr_of(double noise, int pixels, double peak, double psnr_max) {
  const double mse = noise / pixels;
  const double floor_mse = mse < 1e-10 ? 1e-10 : mse;  // libvmaf's MAX(noise, 1e-10)
  const double db = 10 * std::log10(peak * peak / floor_mse);
  return db < psnr_max ? db : psnr_max;
}

}  // namespace vqtwin::float_psnr
