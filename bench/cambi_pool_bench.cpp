// cambi's pooling on the host, per 1080p frame (five scales, 2.76 million values): the CPU's pooling of
// every value (libvmaf's selection and ordered double sum, pool_topk; a copy first, as the caller makes)
// against the pooling from the CUDA twin's per-scale summary (pool_topk_from_summary), at several shares
// of non-zero banding values. Prints figures, asserts nothing but that both give the same bits.
//   cambi_pool_bench [--reps N]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "features/cambi/math.hpp"

namespace {

using namespace vqtwin::cambi;

// The twin's summary of one scale, formed here by sorting (the device's radix selection finds the same).
TopkSummary summarize(const std::vector<float>& v, int k) {
  std::vector<std::uint32_t> bits(v.size());
  std::memcpy(bits.data(), v.data(), v.size() * sizeof(float));
  std::vector<std::uint32_t> sorted = bits;
  std::nth_element(sorted.begin(), sorted.begin() + (k - 1), sorted.end(), std::greater<>());
  TopkSummary s;
  s.kth_bits = sorted[std::size_t(k - 1)];
  for (std::uint32_t b : bits) {
    std::uint64_t f = 0;
    if (!fixed_24(b, f)) s.bad = 1;
    else if (b > s.kth_bits) {
      ++s.above;
      s.above_sum += f;
    }
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 10;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--reps") reps = std::atoi(argv[i + 1]);
  const int sizes[kNumScales] = {1920 * 1080, 960 * 540, 480 * 270, 240 * 135, 120 * 68};
  const float* reciprocal = reciprocal_table().data();
  const double topk = 0.6;
  std::printf("cambi pooling, host, one 1080p frame (5 scales), topk %.1f, %d reps\n", topk, reps);
  for (double nonzero : {0.0, 0.05, 0.3}) {
    std::mt19937 rng(1);
    std::vector<std::vector<float>> scales;
    std::vector<TopkSummary> summaries;
    for (int n : sizes) {
      std::vector<float> v(std::size_t(n), 0.0f);
      for (float& x : v)
        if (std::uniform_real_distribution<double>(0, 1)(rng) < nonzero)
          x = step_response(kContrastWeights[rng() % 4u], 1 + int(rng() % 200u), 1 + int(rng() % 800u), reciprocal);
      summaries.push_back(summarize(v, topk_count(n, topk)));
      scales.push_back(std::move(v));
    }
    double full = 0, from_summary = 0;
    bool same = true;
    const auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r)
      for (int s = 0; s < kNumScales; ++s) {
        std::vector<float> w = scales[std::size_t(s)];
        full = pool_topk(w.data(), sizes[s], topk);
      }
    const auto t1 = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r)
      for (int s = 0; s < kNumScales; ++s) same = pool_topk_from_summary(summaries[std::size_t(s)], sizes[s], topk, from_summary) && same;
    const auto t2 = std::chrono::steady_clock::now();
    for (int s = 0; s < kNumScales; ++s) {
      std::vector<float> w = scales[std::size_t(s)];
      double a = pool_topk(w.data(), sizes[s], topk), b = 0;
      same = same && pool_topk_from_summary(summaries[std::size_t(s)], sizes[s], topk, b) &&
             std::memcmp(&a, &b, sizeof a) == 0;
    }
    std::printf("non-zero %4.0f %%: every value %8.3f ms a frame, from the summaries %8.5f ms a frame; %s\n",
                100 * nonzero, std::chrono::duration<double, std::milli>(t1 - t0).count() / reps,
                std::chrono::duration<double, std::milli>(t2 - t1).count() / reps,
                same ? "same bits" : "DIFFERENT");
    (void)full;
  }
  return 0;
}
