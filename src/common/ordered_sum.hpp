#pragma once
// A sequential double sum (s = 0; s += x[i] for i ascending, each add rounded to nearest even), as
// the SSIM features compute their map means, reproduced with parallel integer scans.
//
// While the running sum s stays inside one binade [2^e, 2^(e+1)) (in magnitude), every partial sum
// is an integer multiple of the grid g = 2^(e-52), and fl(s + x) = s + g * round(x / g) exactly,
// unless x / g lies exactly halfway between two integers (a tie: then the parity of s decides). So
// over a stretch of elements, the partial sums are S + prefix sums of the integers q_i = round(x_i/g)
// (S = s / g), which a parallel scan computes exactly. Element i is covered by this rule when
//   - x_i / g is finite, below 2^54 in magnitude and not a tie, and
//   - A_i = S + q_0 + ... + q_i satisfies 2^52 + 1 <= |A_i| <= 2^53 - 1: the exact sum before the
//     rounding, within half a grid step of A_i * g, then lies inside the binade, whose grid is g.
// The first element that is not covered is added the ordinary way (one IEEE add) and the scan
// restarts from the new sum. The result is the sequential sum's bits in every case; only the speed
// depends on the data. These are the per-element rules, for the host (tests) and the device (the
// CUDA kernel in backends/cuda/ordered_sum.cuh); ordered_sum_by_runs() is the same algorithm run
// serially, tile by tile, which tests/unit/ordered_sum_test.cpp holds against the plain loop.
#include <cmath>
#include <cstdint>

#include "core/hd.hpp"

namespace vqtwin::ordered_sum {

// The binade exponent of s when the run rule applies to it (s finite, 2^-900 <= |s| < 2^1000).
VQTWIN_HD inline bool grid_exponent(double s, int& e) {
  const double m = fabs(s);
  if (!(m >= 0x1p-900 && m < 0x1p+1000)) return false;
  e = ilogb(s);
  return true;
}

// s as a whole number of grid steps 2^(e-52): exact, 2^52 <= |S| < 2^53.
VQTWIN_HD inline std::int64_t units_of(double s, int e) { return std::int64_t(ldexp(s, 52 - e)); }

// The sum A (grid steps) back as a double: exact for |A| < 2^53.
VQTWIN_HD inline double value_of(std::int64_t a, int e) { return ldexp(double(a), e - 52); }

// x in whole grid steps, rounded to nearest; false when the rule does not cover x (tie, too large,
// not finite).
VQTWIN_HD inline bool steps_of(double x, int e, std::int64_t& q) {
  const double y = ldexp(x, 52 - e);  // exact: a power-of-two scaling within range
  if (!(fabs(y) < 0x1p54)) return false;
  const double t = trunc(y);
  const double f = y - t;  // exact
  if (f == 0.5 || f == -0.5) return false;
  q = std::int64_t(t) + (f > 0.5 ? 1 : (f < -0.5 ? -1 : 0));
  return true;
}

// Whether a partial sum of A grid steps keeps the rule valid (see the top of the file).
VQTWIN_HD inline bool inside(std::int64_t a) {
  const std::int64_t m = a < 0 ? -a : a;
  return m >= (std::int64_t(1) << 52) + 1 && m <= (std::int64_t(1) << 53) - 1;
}

// Elements per scan tile (the device kernel: 1024 threads x 8 consecutive elements each).
inline constexpr int kTile = 8192;

// The algorithm serially (the device kernel runs each tile's scan in parallel): the sequential sum.
inline double ordered_sum_by_runs(const double* x, long long n, long long* runs = nullptr) {
  double s = 0.0;
  long long i = 0;
  while (i < n) {
    int e = 0;
    if (!grid_exponent(s, e)) {
      s += x[i++];
      continue;
    }
    if (runs) ++*runs;
    const long long end = n - i < kTile ? n : i + kTile;
    std::int64_t a = units_of(s, e);
    long long j = i;
    for (; j < end; ++j) {
      std::int64_t q = 0;
      if (!steps_of(x[j], e, q) || !inside(a + q)) break;
      a += q;
    }
    s = value_of(a, e);
    if (j < end) s += x[j++];  // the first element the rule does not cover: one ordinary add
    i = j;
  }
  return s;
}

}  // namespace vqtwin::ordered_sum
