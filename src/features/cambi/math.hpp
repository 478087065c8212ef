#pragma once
// cambi's scalar math, shared by the CPU reference and the twins. Every integer step is libvmaf 3.2's
// (types and shifts included); every floating-point step is one IEEE operation in libvmaf's order.
#include <cstdint>
#include <span>
#include <string_view>

#include "core/hd.hpp"

namespace vqtwin::cambi {

inline constexpr int kNumScales = 5;
// Per-scale weights of the final score (scale 0 = the encode size).
inline constexpr int kScaleWeights[kNumScales] = {16, 8, 4, 2, 1};
// Suprathreshold contrast response: the weight of a step of d+1 code values.
inline constexpr int kContrastWeights[32] = {1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8,
                                             8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};
inline constexpr int kMinEncodeSide = 216;  // one side of the encode (and source) must reach this
inline constexpr int kMaskFilterSize = 7;   // the spatial mask counts flat pixels in a 7x7 square
// The reciprocal table holds 1/n for n < 4226: window_size^2 (the largest count) must stay below.
inline constexpr int kReciprocalTableSize = 4226;
// Work is done at 10 bits, limited range [64, 940], whatever the input.
inline constexpr int kWorkFoot = 64;
inline constexpr int kWorkHead = 940;

enum class Eotf { kBt1886, kPq };
// False for a name other than bt1886 / pq.
bool parse_eotf(std::string_view name, Eotf& out);

// Luminance in cd/m2 of a 10-bit limited-range code value (clipped to [64, 940], normalised to
// [0, 1], through the EOTF), in double, as libvmaf's luminance tools.
double luminance(int sample, Eotf eotf);

// The visibility threshold of a step of `diff` code values: the largest code value at which the
// step is still visible (dL > tvi_threshold * L), found by libvmaf's bisection; 0 if it is visible
// nowhere, 1023 if everywhere. Throws vqtwin::Error if the bisection does not end (a non-monotone
// EOTF; libvmaf would loop forever).
int tvi_for_diff(int diff, double tvi_threshold, Eotf eotf);

// The smallest code value from 64 up whose luminance reaches `threshold` (0 when 64 already does).
// Throws vqtwin::Error when no code value up to 940 reaches it (libvmaf loops forever there).
int vis_lum_code(double threshold, Eotf eotf);

// libvmaf's window scaling: window * (w + h) / 375 / 16 (integer), halved (rounding up) with the
// high-resolution speed-up, then made odd.
VQTWIN_HD inline int scaled_window(int window, int w, int h, bool high_res_speedup) {
  unsigned ws = std::uint16_t((unsigned(window) * unsigned(w + h) / 375u) >> 4);
  if (high_res_speedup) ws = (ws + 1) >> 1;
  return int(ws | 1u);
}

// ceil(log2(n)) for n >= 1, 0 for n = 0.
VQTWIN_HD inline int ceil_log2(std::uint32_t n) {
  if (n == 0) return 0;
  int s = 0;
  for (std::uint32_t t = n - 1; t > 0; t >>= 1) ++s;
  return s;
}

// A pixel is in the spatial mask when more than this many pixels of its 7x7 square are flat. Depends
// on the picture size (in 64x64 blocks); computed from the full encode size.
VQTWIN_HD inline int mask_threshold(int w, int h) {
  const std::uint32_t blocks = std::uint32_t(w >> 6) * std::uint32_t(h >> 6);
  return std::uint16_t((kMaskFilterSize * kMaskFilterSize + 3 * (ceil_log2(blocks) - 11) - 1) >> 1);
}

// The value two of the three share, else the smallest (libvmaf's mode3; symmetric in its
// arguments). Written as selects, so that row loops vectorise.
VQTWIN_HD inline std::uint16_t mode3(std::uint16_t a, std::uint16_t b, std::uint16_t c) {
  const std::uint16_t lo = a < b ? a : b;
  const std::uint16_t smallest = lo < c ? lo : c;
  const std::uint16_t pair = b == c ? b : smallest;
  return ((a == b) | (a == c)) ? a : pair;
}

// libvmaf's table of 1/n (n = 0: 0): the float nearest to 1/n written with nine significant digits,
// which is not always the float nearest to 1/n (42 of the 4225 entries differ by one ulp).
std::span<const float> reciprocal_table();

// One contrast step's response at a pixel: p0 pixels of its value in the window, p_other of the
// value d+1 code values away (the larger of the two sides): w * p0 * p (an exact int) as float,
// times the table's 1/(p0 + p).
VQTWIN_HD inline float step_response(int weight, int p0, int p_other, const float* reciprocal) {
  return float(weight * p0 * p_other) * reciprocal[p_other + p0];
}

// Rearranges `v` (libvmaf's Hoare-partition selection with pivot v[k]) so that v[0..k) hold the k
// largest values, leaving them in the order libvmaf's own code leaves them: the pooled sum depends
// on that order.
void select_largest(float* v, int n, int k);

// How many values of n the pooling keeps: topk * n truncated to an int, within [1, n].
int topk_count(int n, double topk);

// The pooled value of one scale: the mean of the topk largest values, summed in double in the order
// select_largest leaves them. Reorders `v`.
double pool_topk(float* v, int n, double topk);

// A value as an exact count of 2^-24 units: true for 0 and for floats in [2^-1, 2^14) (whose last
// mantissa bit weighs at least 2^-24; every banding value is 0 or at least 1/2 and below 9 * 4226 / 4),
// false otherwise (negative, NaN, too small or too large: such a value is never summed this way).
VQTWIN_HD inline bool fixed_24(std::uint32_t bits, std::uint64_t& fixed) {
  if (bits == 0) {
    fixed = 0;
    return true;
  }
  const std::uint32_t e = bits >> 23;  // the sign bit too: a negative value is out of range
  if (e < 126 || e > 140) return false;
  fixed = std::uint64_t((bits & 0x7FFFFFu) | 0x800000u) << (e - 126);
  return true;
}

// What the CUDA twin reads back of one scale instead of its values: the bits of the k-th largest
// value (k = topk_count), how many values lie above it and their exact sum in 2^-24 units, and
// whether any value is outside fixed_24's range.
struct TopkSummary {
  std::uint64_t above_sum = 0;
  std::uint32_t kth_bits = 0;
  std::uint32_t above = 0;
  std::uint32_t bad = 0;
  std::uint32_t unused = 0;
};

// pool_topk's value from a summary, where it provably equals it: the k largest values are those above
// the k-th plus (k - above) copies of it, whatever order the selection leaves them in; when every
// value is a multiple of 2^-24 and their total stays below 2^29 (2^53 units), every partial sum of
// the double sum is exact, so the sum in libvmaf's order is that total. False where this does not
// hold (a value out of range, a total too large, an inconsistent summary): then pool the values.
bool pool_topk_from_summary(const TopkSummary& s, int n, double topk, double& out);

// The frame score: the scales' pooled values weighted 16, 8, 4, 2, 1, divided by the window's
// pixel count.
double weight_scales(const double (&scores)[kNumScales], int window);

}  // namespace vqtwin::cambi
