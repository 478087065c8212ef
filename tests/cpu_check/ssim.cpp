// The SSIM features' vectorised loops against their portable builds: float_ssim's single-scale
// SSIM (features/float_ssim/ssim_core.hpp), float_ms_ssim's pyramid step
// (features/float_ms_ssim/pyramid.hpp) and integer_ssim's frame score
// (features/integer_ssim/moments.hpp), on odd sizes, random, flat and extreme content.
#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "features/float_ms_ssim/math.hpp"
#include "features/float_ms_ssim/pyramid.hpp"
#include "features/float_ssim/ssim_core.hpp"
#include "features/integer_ssim/moments.hpp"
#include "variants.hpp"

namespace vqtwin {
namespace {

using cpu_check::for_each_variant;
using cpu_check::seed;

// An 8-bit-range float plane: random, a flat area beside a ramp, or 0 / 255 extremes.
std::vector<float> float_plane(int w, int h, int kind, std::mt19937& rng) {
  std::vector<float> p(std::size_t(w) * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      float v = float(rng() % 256);
      if (kind == 1) v = x < w / 2 ? 128.0f : float((x * 3 + y) % 256);
      if (kind == 2) v = (rng() & 1) ? 255.0f : 0.0f;
      p[std::size_t(y) * w + x] = v;
    }
  return p;
}

std::uint64_t bits(double v) { return std::bit_cast<std::uint64_t>(v); }

TEST(FloatSsim, MeansEqualThePortableBuild) {
  using float_ssim::SsimKernels;
  for_each_variant(&float_ssim::ssim_kernels_for, &SsimKernels::means, "float_ssim", "means",
                   [](const SsimKernels& ref, const SsimKernels& var, const std::string&) {
                     std::mt19937 rng(seed());
                     float_ssim::Scratch sr, sv;
                     for (auto [w, h] : {std::pair{11, 11}, {12, 13}, {37, 21}, {203, 31}, {97, 120}, {300, 17}})
                       for (int kind = 0; kind < 3; ++kind) {
                         const auto r = float_plane(w, h, kind, rng);
                         auto d = float_plane(w, h, (kind + 1) % 3, rng);
                         if (kind == 0)
                           for (std::size_t i = 0; i < d.size(); ++i) d[i] = std::fmin(255.0f, r[i] + float(rng() % 9));
                         const float_ssim::Means a = ref.means(sr, r.data(), d.data(), w, h);
                         const float_ssim::Means b = var.means(sv, r.data(), d.data(), w, h);
                         ASSERT_EQ(std::memcmp(&a, &b, sizeof a), 0) << w << "x" << h << " kind " << kind;
                       }
                   });
}

TEST(FloatMsSsim, PyramidStepEqualsThePortableBuild) {
  using float_ms_ssim::PyramidKernels;
  for_each_variant(&float_ms_ssim::pyramid_kernels_for, &PyramidKernels::lpf_decimate, "float_ms_ssim",
                   "lpf_decimate", [](const PyramidKernels& ref, const PyramidKernels& var, const std::string&) {
                     std::mt19937 rng(seed() + 1);
                     float_ms_ssim::Scratch sr, sv;
                     for (auto [w, h] : {std::pair{22, 22}, {23, 25}, {44, 11}, {107, 60}, {427, 31}})
                       for (int kind = 0; kind < 3; ++kind) {
                         const auto src = float_plane(w, h, kind, rng);
                         const std::size_t n =
                             std::size_t(float_ms_ssim::half_size(w)) * std::size_t(float_ms_ssim::half_size(h));
                         std::vector<float> a(n, -1.0f), b(n, -2.0f);
                         ref.lpf_decimate(sr, src.data(), w, h, a.data());
                         var.lpf_decimate(sv, src.data(), w, h, b.data());
                         ASSERT_EQ(std::memcmp(a.data(), b.data(), n * sizeof(float)), 0) << w << "x" << h;
                       }
                   });
}

TEST(IntegerSsim, FrameTermSumEqualsThePortableBuild) {
  using integer_ssim::ScoreKernels;
  for_each_variant(&integer_ssim::score_kernels_for, &ScoreKernels::term_sum, "integer_ssim", "term_sum",
                   [](const ScoreKernels& ref, const ScoreKernels& var, const std::string&) {
                     std::mt19937 rng(seed() + 2);
                     integer_ssim::Workspace wr, wv;
                     for (int bpc : {8, 10, 12, 16})
                       for (auto [w, h] : {std::pair{1, 1}, {4, 9}, {13, 11}, {64, 33}, {257, 19}})
                         for (int extreme : {0, 1}) {
                           PictureFormat f;
                           f.width = w;
                           f.height = h;
                           f.bitdepth = bpc;
                           f.chroma = ChromaFormat::k400;
                           Picture a(f), b(f);
                           const unsigned top = (1u << bpc) - 1;
                           for (int y = 0; y < h; ++y)
                             for (int x = 0; x < w; ++x) {
                               const unsigned u = extreme ? (rng() & 1) * top : unsigned(rng()) & top;
                               const unsigned v = extreme ? top - u : unsigned(rng()) & top;
                               if (bpc == 8) {
                                 a.row<std::uint8_t>(0, y)[x] = std::uint8_t(u);
                                 b.row<std::uint8_t>(0, y)[x] = std::uint8_t(v);
                               } else {
                                 a.row<std::uint16_t>(0, y)[x] = std::uint16_t(u);
                                 b.row<std::uint16_t>(0, y)[x] = std::uint16_t(v);
                               }
                             }
                           ASSERT_EQ(bits(var.term_sum(wv, a, b)), bits(ref.term_sum(wr, a, b))) << w << "x" << h << "@" << bpc;
                         }
                   });
}

}  // namespace
}  // namespace vqtwin
