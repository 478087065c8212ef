#pragma once
// integer VIF's scalar math, shared by the CPU paths and any twin (spec: integer_vif.md).
// Everything up to the four int64 sums of a scale is exact integer
// arithmetic except the per-pixel double block of accumulate_pixel(), whose IEEE operations are
// written one per statement, in libvmaf's order (the project builds with -ffp-contract=off).
#include <cstddef>
#include <cstdint>

#include "core/hd.hpp"

namespace vqtwin::integer_vif {

inline constexpr int kNumScales = 4;
// Scale 3 is floor(w/8) x floor(h/8) and its 3-tap filter needs 2 samples per dimension.
inline constexpr int kMinPlaneSize = 16;

// The four Q16 kernels (each sums to 65536): the float VIF Gaussians of widths 17/9/5/3.
inline constexpr std::uint16_t kKernel0[17] = {489,  935,  1640, 2640, 3896, 5274, 6547, 7455, 7784,
                                               7455, 6547, 5274, 3896, 2640, 1640, 935,  489};
inline constexpr std::uint16_t kKernel1[9] = {1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244};
inline constexpr std::uint16_t kKernel2[5] = {3571, 16004, 26386, 16004, 3571};
inline constexpr std::uint16_t kKernel3[3] = {10904, 43728, 10904};
inline constexpr int kMaxTaps = 17;

struct Kernel {
  const std::uint16_t* taps;
  int size;  // 17, 9, 5, 3
  int half;  // (size - 1) / 2
};

inline constexpr Kernel kernel_of(int scale) {
  switch (scale) {
    case 0: return {kKernel0, 17, 8};
    case 1: return {kKernel1, 9, 4};
    case 2: return {kKernel2, 5, 2};
    default: return {kKernel3, 3, 1};
  }
}

// Reflect-101 (the edge sample is not repeated): -1 -> 1, n -> n-2. Valid for -(n-1) <= c <= 2(n-1).
VQTWIN_HD inline int mirror(int c, int n) { return c < 0 ? -c : (c >= n ? 2 * (n - 1) - c : c); }

// A rounding right shift: (v + round) >> shift.
struct Shift {
  unsigned shift;
  std::uint32_t round;
};

// Vertical-pass shifts of the local moments: scale 0 normalises raw samples to Q8 8-bit scale
// (means) and Q16 8-bit-scale squares; later scales already hold Q8 values.
struct MomentShifts {
  Shift mean;
  Shift square;
};

VQTWIN_HD inline MomentShifts moment_shifts(int bpc, int scale) {
  if (scale > 0) return {{16u, 32768u}, {16u, 32768u}};
  const unsigned q = 2u * unsigned(bpc - 8);
  return {{unsigned(bpc), 1u << (bpc - 1)}, {q, q == 0 ? 0u : 1u << (q - 1)}};
}

// Vertical-pass shift of the anti-alias filter that builds scale `from_scale + 1`.
VQTWIN_HD inline Shift downsample_shift(int bpc, int from_scale) {
  return from_scale == 0 ? Shift{unsigned(bpc), 1u << (bpc - 1)} : Shift{16u, 32768u};
}

// ---- the per-pixel statistic ----------------------------------------------------------------

inline constexpr std::int32_t kSigmaNsq = 131072;       // noise variance 2.0 in Q16
inline constexpr std::int32_t kLogSigmaNsq = 17 * 2048;  // L(kSigmaNsq)
inline constexpr int kLogTableSize = 65536;             // indexed by a 16-bit mantissa (>= 32768)

VQTWIN_HD inline int bit_length(std::uint64_t v) {
#if defined(__CUDA_ARCH__)
  return 64 - __clzll(static_cast<long long>(v));
#else
  return 64 - __builtin_clzll(v);
#endif
}

// L(v) ~ 2048 log2(v) for v >= 2^17: the 16 leading bits index the table, the rest is 2048 per bit.
VQTWIN_HD inline std::int32_t log_q11(const std::uint16_t* table, std::uint64_t v) {
  const int k = bit_length(v) - 16;
  return std::int32_t(table[v >> k]) + 2048 * k;
}

// The four exact sums of one scale.
struct Accum {
  std::int64_t num_log = 0;     // sum of L(n2) - L(n1)
  std::int64_t den_log = 0;     // sum of L(N + sigma1) - L(N)
  std::int64_t lin_sigma2 = 0;  // sum of sigma2 over the linear-branch pixels
  std::int64_t lin_count = 0;   // number of linear-branch pixels

  VQTWIN_HD void add(const Accum& o) {
    num_log += o.num_log;
    den_log += o.den_log;
    lin_sigma2 += o.lin_sigma2;
    lin_count += o.lin_count;
  }
  bool operator==(const Accum&) const = default;
};

// eps = 65536 * 1e-10 as libvmaf evaluates it in double.
inline constexpr double kEps = 65536 * 1.0e-10;

// The numerator term of one log-branch pixel with sigma12 > 0 and sigma2 > 0: L(n2) - L(n1).
VQTWIN_HD inline std::int32_t numerator_term(std::int32_t sigma1, std::int32_t sigma2, std::int32_t sigma12,
                                             double gain_limit, const std::uint16_t* table) {
  // One rounded IEEE operation per statement; `t` uses the uncapped gain.
  const double den = double(sigma1) + kEps;
  double g = double(sigma12) / den;
  const double g_sigma12 = g * double(sigma12);
  const double t = double(sigma2) - g_sigma12;
  // trunc toward zero, negatives (including those beyond int32) to 0.
  const std::int32_t sv = t < 1.0 ? 0 : std::int32_t(t);
  g = g < gain_limit ? g : gain_limit;
  const double gg = g * g;
  const double p = gg * double(sigma1);  // >= 0 and < 1e4 * 2^31: trunc fits int64
  const std::int64_t n1 = std::int64_t(sv) + kSigmaNsq;
  const std::int64_t n2 = std::int64_t(p) + n1;
  return log_q11(table, std::uint64_t(n2)) - log_q11(table, std::uint64_t(n1));
}

// One pixel's contribution from its (unclamped) local statistics.
VQTWIN_HD inline void accumulate_pixel(std::int32_t sigma1, std::int32_t sigma2, std::int32_t sigma12,
                                       double gain_limit, const std::uint16_t* table, Accum& acc) {
  if (sigma2 < 0) sigma2 = 0;
  if (sigma1 >= kSigmaNsq) {
    // In 32 unsigned bits, as libvmaf passes it: exact for every int32 sigma1 (an int sum would overflow
    // for sigma1 near 2^31, reachable with samples of 2^bpc or more).
    acc.den_log += log_q11(table, std::uint64_t(std::uint32_t(kSigmaNsq) + std::uint32_t(sigma1))) - kLogSigmaNsq;
    if (sigma12 > 0 && sigma2 > 0) acc.num_log += numerator_term(sigma1, sigma2, sigma12, gain_limit, table);
  } else {
    acc.lin_sigma2 += sigma2;
    acc.lin_count += 1;
  }
}

// num/den of a scale: double ops in libvmaf's order, then rounded to float.
struct NumDen {
  float num;
  float den;
};

VQTWIN_HD inline NumDen combine(const Accum& a) {
  const double lin_count = double(a.lin_count);
  const double num_log = double(a.num_log) / 2048.0;
  const double lin_q = double(a.lin_sigma2) / 16384.0;
  const double lin_norm = lin_q / 65025.0;
  const double lin = lin_count - lin_norm;
  const double num = num_log + lin;
  const double den = double(a.den_log) / 2048.0 + lin_count;
  return {float(num), float(den)};
}

// The reported score of a scale: a float division, widened to double.
VQTWIN_HD inline double scale_score(NumDen nd) { return double(nd.num / nd.den); }

}  // namespace vqtwin::integer_vif
