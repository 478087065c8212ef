#pragma once
// psnr's scalar math, shared by the CPU reference and the twins: every value is host arithmetic
// on the integer SSE of a plane, so any backend that sums the SSE exactly gives the same bits.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "vqtwin/picture.hpp"

namespace vqtwin::psnr {

struct Setup {
  std::uint32_t peak = 255;
  double psnr_max[3] = {0, 0, 0};
};

inline Setup make_setup(const PictureFormat& f, bool reduced_hbd_peak, double min_sse) {
  Setup s;
  const unsigned bpc = unsigned(f.bitdepth);
  s.peak = reduced_hbd_peak ? (255u << (bpc - 8)) : ((1u << bpc) - 1u);
  for (int p = 0; p < 3; ++p) {
    if (min_sse != 0.0) {
      // libvmaf counts a chroma plane as floor(w/2) x floor(h/2) here (not the stored ceil size).
      const bool ss_hor = f.chroma != ChromaFormat::k444;
      const bool ss_ver = f.chroma == ChromaFormat::k420;
      const unsigned w = unsigned(f.width), h = unsigned(f.height);
      const unsigned n = ((p && ss_hor) ? w / 2 : w) * ((p && ss_ver) ? h / 2 : h);
      const double mse = min_sse / n;
      s.psnr_max[p] = std::ceil(10. * std::log10(std::uint32_t(s.peak * s.peak) / mse));
    } else {
      s.psnr_max[p] = 6.0 * bpc + 12.0;
    }
  }
  return s;
}

inline double mse_of(std::uint64_t sse, std::uint64_t samples) {
  return double(sse) / double(samples);
}

// libvmaf's 8-bit path uses the constant 255 (equal to the stored peak at 8 bits). The floor is
// libvmaf's `a > b ? a : b`, which takes 1e-16 for a NaN mse (a plane of no samples, e.g. the chroma of
// a 1-pixel-wide 4:2:0 picture), so such a plane scores psnr_max, as in libvmaf.
inline double psnr_of(double mse, std::uint32_t peak, double psnr_max) {
  const double peak2 = double(std::uint32_t(peak * peak));
  const double floored = mse > 1e-16 ? mse : 1e-16;
  const double db = 10. * std::log10(peak2 / floored);
  return db < psnr_max ? db : psnr_max;
}

// The clip aggregate of libvmaf's flush: capped at ceil(10 log10(2 peak^2 N)); NaN / -inf for a
// plane never computed (N = 0), which the writers print as null. libvmaf forms 2 peak^2 N in 64 bits,
// which wraps past 2^64 (16-bit clips of more than 2.1e9 samples a plane, about 1000 1080p frames) and
// caps the score at garbage; here it is libvmaf's value wherever that product fits, else the product in double.
inline double apsnr_of(std::uint64_t sse, std::uint64_t n, std::uint32_t peak) {
  const std::uint32_t peak2 = peak * peak;
  const double apsnr = 10 * (std::log10(double(peak2)) + std::log10(double(n)) - std::log10(double(sse)));
  const bool fits = peak2 == 0 || n <= ~std::uint64_t(0) / 2 / peak2;
  const double cap_arg = fits ? double(std::uint64_t(peak2) * n * 2) : double(peak2) * double(n) * 2.0;
  const double cap = std::ceil(10 * std::log10(cap_arg));
  return apsnr < cap ? apsnr : cap;
}

}  // namespace vqtwin::psnr
