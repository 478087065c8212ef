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

void select_largest(float* v, int n, int k) {
  if (n == k) return;
  int left = 0, right = n - 1;
  while (left < right) {
    const float pivot = v[k];
    int i = left, j = right;
    do {
      while (v[i] > pivot) ++i;
      while (v[j] < pivot) --j;
      if (i <= j) {
        std::swap(v[i], v[j]);
        ++i;
        --j;
      }
    } while (i <= j);
    if (j < k) left = i;
    if (k < i) right = j;
  }
}

double pool_topk(float* v, int n, double topk) {
  // topk * n truncated to an int, at least 1.
  int k = int(topk * n);
  k = k < 1 ? 1 : (k > n ? n : k);
  select_largest(v, n, k);
  double sum = 0;
  for (int i = 0; i < k; ++i) sum += v[i];
  return sum / k;
}

double weight_scales(const double (&scores)[kNumScales], int window) {
  double score = 0.0;
  for (int s = 0; s < kNumScales; ++s) score += scores[s] * kScaleWeights[s];
  const int side = 2 * (window >> 1) + 1;
  return score / std::uint16_t(side * side);
}

}  // namespace vqtwin::cambi
