// cambi's luminance model, visibility thresholds, reciprocal table and pooling (see math.hpp).
#include "features/cambi/math.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "vqtwin/error.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace vqtwin::cambi {
namespace {

// BT.1886 with a 300 cd/m2 white and a 0.01 cd/m2 black, gamma 2.4. The constants are written as
// constant expressions, as libvmaf writes them, so the compiler evaluates them the same way.
double bt1886(double v) {
  const double a = std::pow(std::pow(300.0, 1.0 / 2.4) - std::pow(0.01, 1.0 / 2.4), 2.4);
  const double b = std::pow(0.01, 1.0 / 2.4) / (std::pow(300.0, 1.0 / 2.4) - std::pow(0.01, 1.0 / 2.4));
  const double x = v + b;
  return a * std::pow(x > 0 ? x : 0.0, 2.4);
}

// SMPTE ST 2084 (PQ).
double pq(double v) {
  const double m1 = 0.1593017578125;
  const double m2 = 78.84375;
  const double c1 = 0.8359375;
  const double c2 = 18.8515625;
  const double c3 = 18.6875;
  const double num = std::pow(v, 1.0 / m2) - c1;
  const double num_clipped = num > 0 ? num : 0.0;
  const double den = c2 - c3 * std::pow(v, 1.0 / m2);
  return 10000 * std::pow(num_clipped / den, 1.0 / m1);
}

// Whether a step of `diff` from `sample` is visible.
bool visible(int sample, int diff, double tvi_threshold, Eotf eotf) {
  const double mean = luminance(sample, eotf);
  const double stepped = luminance(sample + diff, eotf);
  return stepped - mean > tvi_threshold * mean;
}

enum class Bisect { kTooSmall, kCorrect, kTooBig };

// kCorrect where the step is visible at `sample` and not at sample + 1.
Bisect classify(int sample, int diff, double tvi_threshold, Eotf eotf) {
  if (!visible(sample, diff, tvi_threshold, eotf)) return Bisect::kTooBig;
  if (visible(sample + 1, diff, tvi_threshold, eotf)) return Bisect::kTooSmall;
  return Bisect::kCorrect;
}

}  // namespace

bool parse_eotf(std::string_view name, Eotf& out) {
  if (name == "bt1886") out = Eotf::kBt1886;
  else if (name == "pq") out = Eotf::kPq;
  else return false;
  return true;
}

double luminance(int sample, Eotf eotf) {
  const int clipped = sample < kWorkFoot ? kWorkFoot : (sample > kWorkHead ? kWorkHead : sample);
  const double v = double(clipped - kWorkFoot) / (kWorkHead - kWorkFoot);
  return eotf == Eotf::kPq ? pq(v) : bt1886(v);
}

int tvi_for_diff(int diff, double tvi_threshold, Eotf eotf) {
  constexpr int kMaxCode = 1023;
  int foot = kWorkFoot;
  int head = kWorkHead - diff - 1;
  Bisect b = classify(foot, diff, tvi_threshold, eotf);
  if (b == Bisect::kTooBig) return 0;
  if (b == Bisect::kCorrect) return foot;
  b = classify(head, diff, tvi_threshold, eotf);
  if (b == Bisect::kTooSmall) return kMaxCode;
  if (b == Bisect::kCorrect) return head;
  for (int step = 0; step < 64; ++step) {
    const int mid = foot + (head - foot) / 2;
    b = classify(mid, diff, tvi_threshold, eotf);
    if (b == Bisect::kCorrect) return mid;
    (b == Bisect::kTooBig ? head : foot) = mid;
  }
  throw Error("cambi: the visibility threshold of a step of " + std::to_string(diff) +
              " code values does not converge");
}

int vis_lum_code(double threshold, Eotf eotf) {
  int sample = kWorkFoot;
  while (luminance(sample, eotf) < threshold) {
    if (++sample > kWorkHead) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%g", threshold);
      throw Error(std::string("cambi: cambi_vis_lum_threshold ") + buf +
                  " is above the peak luminance of the EOTF (libvmaf never finishes there)");
    }
  }
  return sample == kWorkFoot ? 0 : sample;
}

std::span<const float> reciprocal_table() {
  static const std::vector<float> table = [] {
    std::vector<float> t(kReciprocalTableSize, 0.0f);
    char buf[64];
    for (int n = 1; n < kReciprocalTableSize; ++n) {
      std::snprintf(buf, sizeof buf, "%.9g", 1.0 / n);
      t[std::size_t(n)] = std::strtof(buf, nullptr);
    }
    return t;
  }();
  return table;
}

namespace {

// Bit q: v[q] == 0 (float comparison), for q < 64.
std::uint64_t zero_mask64(const float* v) {
#if defined(__SSE2__)
  std::uint64_t m = 0;
  const __m128 zero = _mm_setzero_ps();
  for (int q = 0; q < 64; q += 4)
    m |= std::uint64_t(unsigned(_mm_movemask_ps(_mm_cmpeq_ps(_mm_loadu_ps(v + q), zero)))) << q;
  return m;
#else
  std::uint64_t m = 0;
  for (int q = 0; q < 64; ++q) m |= std::uint64_t(v[q] == 0.0f) << q;
  return m;
#endif
}

// Whether v[from..to] all equal x (an empty range: true).
bool all_equal(const float* v, int from, int to, float x) {
  int p = from;
#if defined(__SSE2__)
  const __m128 xx = _mm_set1_ps(x);
  for (; p + 16 <= to + 1; p += 16) {
    __m128 eq = _mm_cmpeq_ps(_mm_loadu_ps(v + p), xx);
    eq = _mm_and_ps(eq, _mm_cmpeq_ps(_mm_loadu_ps(v + p + 4), xx));
    eq = _mm_and_ps(eq, _mm_cmpeq_ps(_mm_loadu_ps(v + p + 8), xx));
    eq = _mm_and_ps(eq, _mm_cmpeq_ps(_mm_loadu_ps(v + p + 12), xx));
    if (_mm_movemask_ps(eq) != 0xF) return false;
  }
#endif
  for (; p <= to; ++p)
    if (!(v[p] == x)) return false;
  return true;
}

// libvmaf's partition step of [left, right] around the pivot 0 when no value is negative. Its
// scans stop i at each 0 from the left and never move j (no value is < 0); each swap trades the
// t-th 0 from the left with v[right - t], until i and j cross. Trades that bring a 0 from the right
// change nothing, so whole groups of them are skipped: 64 values on the left at a time, far from
// the crossing, with the matching run on the right checked for non-zero values.
void partition_at_zero(float* v, int left, int right, int& i_out, int& j_out) {
  int p = left;  // the next scan for a 0 starts here
  int t = 0;     // trades done; the next one's right end is right - t
  for (;;) {
    const int r = right - t;
    // Far from the crossing: the zeros of v[p, p + 64) all trade (each is below its partner minus 1).
    if (p + 64 + 64 < r) {
      const std::uint64_t zeros = zero_mask64(v + p);
      const int count = __builtin_popcountll(zeros);
      if (p + 64 + count < r) {
        // Partners: r, r - 1, ..., r - count + 1, in the order of the zeros.
        std::uint64_t z = zeros;
        for (int s = 0; s < count; ++s, z &= z - 1) {
          const int partner = r - s;
          if (v[partner] != 0.0f) {
            v[p + __builtin_ctzll(z)] = v[partner];
            v[partner] = 0.0f;
          }
        }
        t += count;
        p += 64;
        continue;
      }
    }
    // Near the crossing: one trade at a time, exactly as the loop runs.
    int z = p;
    while (z <= r && v[z] != 0.0f) ++z;
    if (z > r) {  // v[r + 1] holds the 0 of the previous trade: the scan stops there
      i_out = r + 1;
      j_out = r;
      return;
    }
    if (v[r] != 0.0f) {
      v[z] = v[r];
      v[r] = 0.0f;
    }
    ++t;
    p = z + 1;
    if (p > r - 1) {
      i_out = p;
      j_out = r - 1;
      return;
    }
  }
}

}  // namespace

void select_largest(float* v, int n, int k) {
  // Values are never negative (they are counts times reciprocals), which the 0-pivot fast path
  // relies on; every path leaves the array exactly as libvmaf's loop does.
  if (n == k) return;
  int left = 0, right = n - 1;
  bool uniform = false;  // [left, right] holds one value only (then nothing moves any more)
  while (left < right) {
    const float pivot = v[k];
    int i = left, j = right;
    if (!uniform) uniform = all_equal(v, left, right, pivot);
    if (uniform) {
      // Every scan stops at once and every swap exchanges equal values: i and j meet in the middle.
      const int swaps = (right - left + 2) / 2;
      i = left + swaps;
      j = right - swaps;
    } else if (pivot == 0.0f) {
      partition_at_zero(v, left, right, i, j);
    } else {
      do {
        while (v[i] > pivot) ++i;
        while (v[j] < pivot) --j;
        if (i <= j) {
          std::swap(v[i], v[j]);
          ++i;
          --j;
        }
      } while (i <= j);
    }
    if (j < k) left = i;
    if (k < i) right = j;
  }
}

int topk_count(int n, double topk) {
  const int k = int(topk * n);
  return k < 1 ? 1 : (k > n ? n : k);
}

double pool_topk(float* v, int n, double topk) {
  const int k = topk_count(n, topk);
  select_largest(v, n, k);
  // The mean of v[0..k) summed in order. Adding +0 leaves a double sum unchanged, so groups of 64
  // zeros (most values are 0) are skipped.
  double sum = 0;
  int i = 0;
  for (; i + 64 <= k; i += 64) {
    if (zero_mask64(v + i) == ~std::uint64_t(0)) continue;
    for (int q = i; q < i + 64; ++q) sum += v[q];
  }
  for (; i < k; ++i) sum += v[i];
  return sum / k;
}

bool pool_topk_from_summary(const TopkSummary& s, int n, double topk, double& out) {
  const std::uint64_t k = std::uint64_t(topk_count(n, topk));
  std::uint64_t kth = 0;
  if (s.bad != 0 || s.above >= k || !fixed_24(s.kth_bits, kth)) return false;
  constexpr std::uint64_t kLimit = std::uint64_t(1) << 53;
  const std::uint64_t copies = k - s.above;
  if (s.above_sum >= kLimit || (kth != 0 && copies > (kLimit - 1 - s.above_sum) / kth)) return false;
  const std::uint64_t total = s.above_sum + copies * kth;  // below 2^53: exact in a double
  out = std::ldexp(double(total), -24) / double(k);
  return true;
}

double weight_scales(const double (&scores)[kNumScales], int window) {
  double score = 0.0;
  for (int s = 0; s < kNumScales; ++s) score += scores[s] * kScaleWeights[s];
  const int side = 2 * (window >> 1) + 1;
  return score / std::uint16_t(side * side);
}

}  // namespace vqtwin::cambi
