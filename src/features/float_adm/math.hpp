#pragma once
// float ADM's per-cell scalar math, shared by the CPU reference and the twins (spec: float_adm.md
// §2, §5, §6). One line = one IEEE operation in libvmaf's order and type.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/hd.hpp"

namespace vqtwin::float_adm {

// The x86 `rcpss` approximate reciprocal as the CPU of `table` (rcpss.hpp) computes it: the top 12
// mantissa bits pick the table entry, the exponent scales it exactly and the sign carries over. Zero
// and subnormal inputs give a signed infinity; results that would be subnormal (|x| >= 2^126) flush
// to a signed zero, as the instruction does (unreachable here: ADM's divisors are band values + 1e-30).
// Checked against the AMD and the Intel instruction (tests/unit/float_adm_test.cpp, native CPU).
VQTWIN_HD inline float rcpss_from_table(float x, const std::uint32_t* table) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  const std::uint32_t sign = bits & 0x80000000u;
  const std::uint32_t exponent = (bits >> 23) & 0xFFu;
  const std::uint32_t mantissa = bits & 0x007FFFFFu;
  std::uint32_t out;
  if (exponent == 0) {
    out = sign | 0x7F800000u;
  } else if (exponent == 0xFFu) {
    out = mantissa ? (bits | 0x00400000u) : sign;  // NaN stays (quiet) NaN, 1/inf = 0
  } else if (exponent >= 253) {
    out = sign;
  } else {
    const std::uint32_t t = table[mantissa >> 11];
    const std::uint32_t t_exponent = (t >> 23) & 0xFFu;
    out = sign | ((t_exponent + 127u - exponent) << 23) | (t & 0x007FFFFFu);
  }
  float y;
  std::memcpy(&y, &out, sizeof y);
  return y;
}

// libvmaf's division n / d in the decouple step: n * (y + y * (1 - d * y)), y = rcpss(d), all float.
VQTWIN_HD inline float refined_reciprocal(float d, const std::uint32_t* table) {
  const float y = rcpss_from_table(d, table);
  const float dy = d * y;
  const float err = 1.0f - dy;
  const float corr = y * err;
  return y + corr;
}

// cos(1 degree)^2, computed in double and stored as float (0x3f7fec0a).
inline const float kCosOneDegreeSq = float(std::cos(M_PI / 180.0) * std::cos(M_PI / 180.0));

// Decouple one cell (spec §5): ref o = (h, v, d), dis t; writes the restored r and additive a.
VQTWIN_HD inline void decouple_cell(const float o[3], const float t[3], double gain_limit, float cos_sq,
                                    const std::uint32_t* table, float r[3], float a[3]) {
  constexpr float eps = 1e-30f;
  float rst[3];
  for (int k = 0; k < 3; ++k) {
    float ratio = t[k] * refined_reciprocal(o[k] + eps, table);
    ratio = ratio < 0.0f ? 0.0f : (ratio > 1.0f ? 1.0f : ratio);
    rst[k] = ratio * o[k];
  }
  const float dot = o[0] * t[0] + o[1] * t[1];
  const float o_mag_sq = o[0] * o[0] + o[1] * o[1];
  const float t_mag_sq = t[0] * t[0] + t[1] * t[1];
  const bool same_angle = dot >= 0.0f && dot * dot >= cos_sq * o_mag_sq * t_mag_sq;
  for (int k = 0; k < 3; ++k) {
    if (same_angle) {
      // The gain limit multiplies in double; the min/max result is stored back as float. Two
      // separate tests as in libvmaf (the second sees the first's result).
      if (rst[k] > 0.0f) {
        const double boosted = double(rst[k]) * gain_limit;
        rst[k] = float(boosted < double(t[k]) ? boosted : double(t[k]));
      }
      if (rst[k] < 0.0f) {
        const double boosted = double(rst[k]) * gain_limit;
        rst[k] = float(boosted > double(t[k]) ? boosted : double(t[k]));
      }
    }
    r[k] = rst[k];
    a[k] = t[k] - rst[k];
  }
}

// The masking plane's "1/30" and the centre weight "1/15" are double literals in libvmaf.
inline constexpr double kOneBy30 = 0.0333333351;
inline constexpr double kOneBy15 = 0.0666666701;

// Regions of a band (spec §2). Conversions to int truncate toward 0 as C does.
struct Rect {
  int left, top, right, bottom;
};

inline Rect pool_rect(int w, int h) {
  const int left = int(w * 0.1 - 0.5);
  const int top = int(h * 0.1 - 0.5);
  return {left, top, w - left, h - top};
}

inline Rect work_rect(int w, int h) {
  const int left = int(w * 0.1 - 0.5 - 1);
  const int top = int(h * 0.1 - 0.5 - 1);
  Rect r{left, top, w - left + 2, h - top + 2};  // right/bottom from the unclamped left/top
  if (r.left < 0) r.left = 0;
  if (r.top < 0) r.top = 0;
  if (r.right > w) r.right = w;
  if (r.bottom > h) r.bottom = h;
  return r;
}

}  // namespace vqtwin::float_adm
