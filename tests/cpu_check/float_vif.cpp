// float_vif's row loops (features/float_vif/scale.hpp) against their portable build: the per-scale
// sums and the blur + decimation on random and extreme planes, odd sizes, every scale's kernel and
// several kernel scales (up to the 65-tap kernel).
#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <string>

#include "features/float_vif/math.hpp"
#include "features/float_vif/scale.hpp"
#include "variants.hpp"

namespace vqtwin::float_vif {
namespace {

using cpu_check::for_each_table;
using cpu_check::seed;

// Samples of an 8-bit-range plane minus 128 (as the extractor makes them), a noisy copy of it.
std::pair<FloatPlane, FloatPlane> planes(int w, int h, std::mt19937& rng, bool extreme) {
  FloatPlane a, b;
  a.resize(w, h);
  b.resize(w, h);
  std::uniform_int_distribution<int> any(0, 255);
  std::normal_distribution<float> noise(0.0f, 6.0f);
  for (std::size_t i = 0; i < a.px.size(); ++i) {
    const int v = extreme ? (any(rng) & 1) * 255 : any(rng);
    a.px[i] = float(v) - 128.0f;
    b.px[i] = extreme ? float(255 - v) - 128.0f : std::round(a.px[i] + noise(rng));
  }
  return {a, b};
}

TEST(FloatVif, ScaleSumsAndDecimationEqualThePortableBuild) {
  for_each_table(&scale_kernels_for, "float_vif", [](const ScaleKernels& ref, const ScaleKernels& var,
                                                     const std::string&) {
    std::mt19937 rng(seed());
    ScaleScratch sr, sv;
    for (double ks : {1.0, 0.5, 360.0 / 97.0})
      for (auto [w, h] : {std::pair{37, 23}, {64, 17}, {18, 40}, {131, 70}, {200, 66}})
        for (bool extreme : {false, true}) {
          const auto [a, b] = planes(w, h, rng, extreme);
          for (int s = 0; s < 4; ++s) {
            const auto k = make_kernel(s, ks);
            if (int(k.size()) / 2 >= std::min(w, h)) continue;
            for (double egl : {100.0, 1.0}) {
              const StatParams p = make_stat_params(egl, 2.0);
              const ScaleSums x = scale_sums(ref, a, b, k, p, sr), y = scale_sums(var, a, b, k, p, sv);
              ASSERT_EQ(std::bit_cast<std::uint32_t>(x.num), std::bit_cast<std::uint32_t>(y.num))
                  << w << "x" << h << " ks " << ks << " scale " << s;
              ASSERT_EQ(std::bit_cast<std::uint32_t>(x.den), std::bit_cast<std::uint32_t>(y.den))
                  << w << "x" << h << " ks " << ks << " scale " << s;
            }
            FloatPlane da, db;
            blur_decimate(ref, a, k, da, sr);
            blur_decimate(var, a, k, db, sv);
            ASSERT_EQ(std::memcmp(da.px.data(), db.px.data(), std::size_t(da.w) * da.h * sizeof(float)), 0)
                << w << "x" << h << " ks " << ks << " scale " << s;
          }
        }
  });
}

}  // namespace
}  // namespace vqtwin::float_vif
