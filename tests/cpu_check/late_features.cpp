// The kernel tables of cambi, ciede, float_ansnr, psnr_hvs, float_moment and SpEED against their portable builds,
// bit for bit: odd and wide sizes (every vector body and tail), random, flat, patchy and extreme content,
// every bit depth the entry takes.
#include <bit>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "features/cambi/math.hpp"
#include "features/cambi/pipeline.hpp"
#include "features/ciede/batch.hpp"
#include "../support/ciede_pairs.hpp"
#include "features/float_ansnr/kernels.hpp"
#include "features/float_moment/sums.hpp"
#include "features/psnr_hvs/kernels.hpp"
#include "features/speed/kernels.hpp"
#include "variants.hpp"

namespace vqtwin {
namespace {

using cpu_check::for_each_variant;
using cpu_check::seed;

template <class T>
bool same(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// ---- cambi ----

// A 10-bit image of rectangles of a few values in [lo, hi] (long runs, flat areas and edges), with some
// single-pixel noise.
std::vector<std::uint16_t> patchy(int w, int h, std::mt19937& rng, int lo, int hi) {
  std::vector<std::uint16_t> img(std::size_t(w) * h);
  for (auto& v : img) v = std::uint16_t(lo);
  for (int k = 0; k < 12; ++k) {
    const int x0 = int(rng() % unsigned(w)), y0 = int(rng() % unsigned(h));
    const int x1 = std::min(w, x0 + 1 + int(rng() % unsigned(w))), y1 = std::min(h, y0 + 1 + int(rng() % unsigned(h)));
    const auto v = std::uint16_t(lo + int(rng() % unsigned(hi - lo + 1)));
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x) img[std::size_t(y) * w + x] = v;
  }
  for (int k = 0; k < w * h / 50; ++k) img[rng() % img.size()] = std::uint16_t(lo + int(rng() % unsigned(hi - lo + 1)));
  return img;
}

const std::pair<int, int> kCambiSizes[] = {{1, 1}, {5, 3}, {17, 9}, {40, 23}, {64, 64}, {3, 70}, {203, 31}, {517, 12}};

TEST(Cambi, SpatialMaskEqualsThePortableBuild) {
  using cambi::CambiKernels;
  for_each_variant(&cambi::cambi_kernels_for, &CambiKernels::spatial_mask, "cambi", "spatial_mask",
                   [](const CambiKernels& ref, const CambiKernels& var, const std::string&) {
                     std::mt19937 rng(seed());
                     for (auto [w, h] : kCambiSizes)
                       for (int values : {1, 3, 40}) {
                         const auto img = patchy(w, h, rng, 100, 100 + values - 1);
                         const int t = cambi::mask_threshold(w, h);
                         std::vector<std::uint8_t> a(img.size(), 7), b(img.size(), 9), sa, sb;
                         ref.spatial_mask(img.data(), w, h, t, a.data(), sa);
                         var.spatial_mask(img.data(), w, h, t, b.data(), sb);
                         ASSERT_TRUE(same(a, b)) << w << "x" << h << ", " << values << " values";
                       }
                   });
}

TEST(Cambi, ModeFilterEqualsThePortableBuild) {
  using cambi::CambiKernels;
  for_each_variant(&cambi::cambi_kernels_for, &CambiKernels::mode_filter, "cambi", "mode_filter",
                   [](const CambiKernels& ref, const CambiKernels& var, const std::string&) {
                     std::mt19937 rng(seed() + 1);
                     for (auto [w, h] : kCambiSizes)
                       for (int values : {2, 4, 1024}) {
                         // Every other row of a wider buffer: the stride the decimated scales use.
                         auto a = patchy(w, 2 * h, rng, 0, values - 1);
                         auto b = a;
                         std::vector<std::uint16_t> sa, sb;
                         ref.mode_filter(a.data(), 2 * w, w, h, sa);
                         var.mode_filter(b.data(), 2 * w, w, h, sb);
                         ASSERT_TRUE(same(a, b)) << w << "x" << h << ", " << values << " values";
                       }
                   });
}

TEST(Cambi, BandingValuesEqualThePortableBuild) {
  using cambi::CambiKernels;
  for_each_variant(&cambi::cambi_kernels_for, &CambiKernels::banding_values, "cambi", "banding_values",
                   [](const CambiKernels& ref, const CambiKernels& var, const std::string&) {
                     std::mt19937 rng(seed() + 2);
                     for (int nd : {1, 4, 8})
                       for (auto [w, h, window] : {std::tuple{30, 20, 9}, {17, 33, 5}, {12, 12, 25}, {50, 7, 13},
                                                   {211, 40, 17}, {96, 96, 63}}) {
                         cambi::Setup s;
                         s.num_diffs = nd;
                         for (int d = 0; d < nd; ++d) s.tvi.push_back(100 + 3 * d + nd);
                         s.vlt = 95;
                         s.band_base = std::max(0, s.vlt - 3 * nd + 1);
                         s.band_size = s.tvi.back() + 1 - s.band_base;
                         const auto img = patchy(w, h, rng, 80, 125);
                         std::vector<std::uint8_t> mask(img.size());
                         for (auto& m : mask) m = std::uint8_t(rng() % 4 != 0);
                         std::vector<float> a(img.size(), -1.0f), b(img.size(), -2.0f);
                         std::vector<std::uint16_t> ha, hb;
                         ref.banding_values(s, img.data(), mask.data(), w, w, h, window, ha, a.data());
                         var.banding_values(s, img.data(), mask.data(), w, w, h, window, hb, b.data());
                         ASSERT_TRUE(same(a, b)) << nd << " diffs, " << w << "x" << h << " window " << window;
                       }
                   });
}

// ---- ciede ----


TEST(Ciede, Ciede2000EqualsThePortableBuild) {
  using ciede::BatchKernels;
  for_each_variant(&ciede::batch_kernels_for, &BatchKernels::ciede2000, "ciede", "ciede2000",
                   [](const BatchKernels& ref, const BatchKernels& var, const std::string&) {
                     std::mt19937 rng(seed() + 3);
                     for (int round = 0; round < 400; ++round) {
                       const int n = 1 + int(rng() % ciede::kBatch);
                       ciede::Lab a[ciede::kBatch], b[ciede::kBatch];
                       for (int k = 0; k < n; ++k) {
                         a[k] = test::random_lab(rng);
                         b[k] = rng() % 7 == 0 ? a[k] : test::random_lab(rng);
                         if (rng() % 5 == 0) b[k] = {a[k].l, -a[k].a, -a[k].b};  // opposite hues
                       }
                       std::vector<float> x(static_cast<std::size_t>(n)), y(static_cast<std::size_t>(n));
                       ref.ciede2000(a, b, n, x.data());
                       var.ciede2000(a, b, n, y.data());
                       ASSERT_TRUE(same(x, y)) << "round " << round;
                     }
                   });
}

// Pairs as video gives them (near colours, greys, unrelated colours), where the batch's approximations of
// the library calls meet uncertain roundings and fall back: every build = the portable one = math.hpp's scalar
// ciede2000().
TEST(Ciede, VideoLikePairsEqualTheScalarMath) {
  using ciede::BatchKernels;
  for_each_variant(&ciede::batch_kernels_for, &BatchKernels::ciede2000, "ciede", "ciede2000 (video-like pairs)",
                   [](const BatchKernels& ref, const BatchKernels& var, const std::string&) {
                     std::mt19937 rng(seed() + 5);
                     for (unsigned bpc : {8u, 10u})
                       for (int round = 0; round < 400; ++round) {
                         ciede::Lab a[ciede::kBatch], b[ciede::kBatch];
                         for (int k = 0; k < ciede::kBatch; ++k) test::video_like_pair(rng, bpc, a[k], b[k]);
                         std::vector<float> x(ciede::kBatch), y(ciede::kBatch), z(ciede::kBatch);
                         ref.ciede2000(a, b, ciede::kBatch, x.data());
                         var.ciede2000(a, b, ciede::kBatch, y.data());
                         for (int k = 0; k < ciede::kBatch; ++k) z[std::size_t(k)] = ciede::ciede2000(a[k], b[k]);
                         ASSERT_TRUE(same(x, y)) << bpc << "-bit round " << round;
                         ASSERT_TRUE(same(x, z)) << bpc << "-bit round " << round << " (portable vs scalar)";
                       }
                   });
}

TEST(Ciede, ToLabEqualsThePortableBuild) {
  using ciede::BatchKernels;
  for_each_variant(&ciede::batch_kernels_for, &BatchKernels::to_lab, "ciede", "to_lab",
                   [](const BatchKernels& ref, const BatchKernels& var, const std::string&) {
                     std::mt19937 rng(seed() + 4);
                     for (unsigned bpc : {8u, 10u, 12u, 16u})
                       for (int round = 0; round < 60; ++round) {
                         // From round 30 on, 10- and 12-bit samples are any 16-bit word (libvmaf accepts
                         // them): the linear values reach 4e5 there, far beyond in-range samples' 7.
                         const unsigned max = round >= 30 && bpc != 8 ? 65535u : (1u << bpc) - 1;
                         const int n = round == 1 ? 1 + int(rng() % (2 * ciede::kBatch)) : 2 * ciede::kBatch;
                         std::uint16_t y[2 * ciede::kBatch], u[2 * ciede::kBatch], v[2 * ciede::kBatch];
                         for (int k = 0; k < n; ++k) {
                           y[k] = std::uint16_t(round == 0 ? (k & 1) * max : rng() & max);
                           u[k] = std::uint16_t(round == 0 ? (k & 2) / 2 * max : rng() & max);
                           v[k] = std::uint16_t(round == 0 ? (k & 4) / 4 * max : rng() & max);
                         }
                         std::vector<ciede::Lab> a(static_cast<std::size_t>(n)), b(static_cast<std::size_t>(n));
                         ref.to_lab(y, u, v, n, bpc, a.data());
                         var.to_lab(y, u, v, n, bpc, b.data());
                         ASSERT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(ciede::Lab)), 0) << bpc << "-bit";
                         for (int k = 0; k < n; ++k) {  // and the scalar reference (math.hpp, the library's calls)
                           const ciede::Lab z = ciede::to_lab(y[k], u[k], v[k], bpc);
                           ASSERT_EQ(std::memcmp(&z, &b[std::size_t(k)], sizeof z), 0)
                               << bpc << "-bit (" << y[k] << ", " << u[k] << ", " << v[k] << ")";
                         }
                       }
                   });
}

// ---- float_ansnr ----

// kRows rows of w samples with kPad spare columns each side, values as libvmaf's (v - 128, or v / scale - 128).
struct PaddedRows {
  static constexpr int kRows = 8;
  std::vector<float> px;
  int stride;
  PaddedRows(int w, std::mt19937& rng, int kind) : stride(w + 2 * float_ansnr::kPad) {
    px.resize(std::size_t(stride) * kRows);
    for (std::size_t i = 0; i < px.size(); ++i) {
      const unsigned r = unsigned(rng());
      px[i] = kind == 0 ? float(r % 256) - 128.0f : kind == 1 ? ((r & 1) ? 127.0f : -128.0f) : float(r % 65536) / 256.0f - 128.0f;
    }
  }
  const float* row(int k) const { return px.data() + std::size_t(k) * stride + float_ansnr::kPad; }
};

const int kAnsnrWidths[] = {1, 3, 7, 15, 16, 17, 64, 333, 1001};

TEST(FloatAnsnr, FiltersEqualThePortableBuild) {
  using float_ansnr::FilterKernels;
  auto check = [](void (*FilterKernels::*entry)(const float* const*, float*, int), const char* name, int taps) {
    for_each_variant(&float_ansnr::filter_kernels_for, entry, "float_ansnr", name,
                     [&](const FilterKernels& ref, const FilterKernels& var, const std::string&) {
                       std::mt19937 rng(seed() + 5);
                       for (int w : kAnsnrWidths)
                         for (int kind = 0; kind < 3; ++kind) {
                           const PaddedRows rows(w, rng, kind);
                           const float* rp[5];
                           for (int k = 0; k < taps; ++k) rp[k] = rows.row(k);
                           std::vector<float> a(std::size_t(w), -1.0f), b(std::size_t(w), -2.0f);
                           (ref.*entry)(rp, a.data(), w);
                           (var.*entry)(rp, b.data(), w);
                           ASSERT_TRUE(same(a, b)) << name << " width " << w << " kind " << kind;
                         }
                     });
  };
  check(&FilterKernels::filter_ref, "filter_ref", 3);
  check(&FilterKernels::filter_dis, "filter_dis", 5);
}

TEST(FloatAnsnr, RowSumsEqualThePortableBuild) {
  using float_ansnr::FilterKernels;
  for_each_variant(&float_ansnr::filter_kernels_for, &FilterKernels::row_sums, "float_ansnr", "row_sums",
                   [](const FilterKernels& ref, const FilterKernels& var, const std::string&) {
                     std::mt19937 rng(seed() + 6);
                     for (int w : kAnsnrWidths)
                       for (int n : {1, 3, 8})
                         for (int kind = 0; kind < 3; ++kind) {
                           const PaddedRows r(w, rng, kind), d(w, rng, (kind + 1) % 3);
                           const float* rp[8];
                           const float* dp[8];
                           for (int k = 0; k < 8; ++k) rp[k] = r.row(k), dp[k] = d.row(k);
                           float sa[8], na[8], sb[8], nb[8];
                           ref.row_sums(rp, dp, n, w, sa, na);
                           var.row_sums(rp, dp, n, w, sb, nb);
                           ASSERT_EQ(std::memcmp(sa, sb, sizeof(float) * std::size_t(n)), 0) << w << " " << n;
                           ASSERT_EQ(std::memcmp(na, nb, sizeof(float) * std::size_t(n)), 0) << w << " " << n;
                         }
                   });
}

// ---- psnr_hvs and float_moment: whole planes of pictures ----

Picture random_picture(int w, int h, int bpc, ChromaFormat chroma, std::mt19937& rng, int kind) {
  PictureFormat f;
  f.width = w;
  f.height = h;
  f.bitdepth = bpc;
  f.chroma = chroma;
  Picture p(f);
  const unsigned top = (1u << bpc) - 1;
  for (int pl = 0; pl < f.num_planes(); ++pl)
    for (int y = 0; y < p.height(pl); ++y)
      for (int x = 0; x < p.width(pl); ++x) {
        const unsigned r = unsigned(rng());
        // 0 random, 1 extremes, 2 smooth with small noise
        const unsigned v = kind == 0 ? r & top : kind == 1 ? ((r & 1) ? top : 0u) : (unsigned(x * 3 + y * 5) + (r & 3)) & top;
        if (bpc == 8) p.row<std::uint8_t>(pl, y)[x] = std::uint8_t(v);
        else p.row<std::uint16_t>(pl, y)[x] = std::uint16_t(v);
      }
  return p;
}

TEST(PsnrHvs, PlaneSumsEqualThePortableBuild) {
  using psnr_hvs::BlockKernels;
  auto check = [](auto BlockKernels::*entry, const char* name, std::vector<int> depths) {
    for_each_variant(&psnr_hvs::block_kernels_for, entry, "psnr_hvs", name,
                     [&](const BlockKernels& ref, const BlockKernels& var, const std::string&) {
                       std::mt19937 rng(seed() + 7);
                       for (int bpc : depths)
                         for (auto [w, h] : {std::pair{8, 8}, {15, 22}, {64, 36}, {120, 9}, {257, 31}})
                           for (int kind = 0; kind < 3; ++kind) {
                             const Picture a = random_picture(w, h, bpc, ChromaFormat::k444, rng, kind);
                             const Picture b = random_picture(w, h, bpc, ChromaFormat::k444, rng, (kind + 2) % 3);
                             for (int p = 0; p < 3; ++p) {
                               const psnr_hvs::Tables t = psnr_hvs::make_tables(psnr_hvs::csf_of(p));
                               const psnr_hvs::PlaneSum x = (ref.*entry)(a, b, p, w, h, t);
                               const psnr_hvs::PlaneSum y = (var.*entry)(a, b, p, w, h, t);
                               ASSERT_EQ(std::bit_cast<std::uint32_t>(x.total), std::bit_cast<std::uint32_t>(y.total))
                                   << bpc << "-bit " << w << "x" << h << " kind " << kind << " plane " << p;
                               ASSERT_EQ(x.count, y.count);
                             }
                           }
                     });
  };
  check(&BlockKernels::plane_sum8, "plane_sum8", {8});
  check(&BlockKernels::plane_sum16, "plane_sum16", {10, 12});
}

TEST(FloatMoment, SumsEqualThePortableBuild) {
  using float_moment::SumKernels;
  auto same_sums = [](const float_moment::IntegerSums& x, const float_moment::IntegerSums& y) {
    return x.first == y.first && x.second == y.second && x.any == y.any;
  };
  for_each_variant(&float_moment::sum_kernels_for, &SumKernels::sums8, "float_moment", "sums8",
                   [&](const SumKernels& ref, const SumKernels& var, const std::string&) {
                     std::mt19937 rng(seed() + 8);
                     for (auto [w, h] : {std::pair{1, 1}, {31, 7}, {64, 3}, {1920, 2}, {32769, 2}, {70001, 1}})
                       for (int kind = 0; kind < 3; ++kind) {
                         const Picture p = random_picture(w, h, 8, ChromaFormat::k400, rng, kind);
                         ASSERT_TRUE(same_sums(ref.sums8(p.row<std::uint8_t>(0, 0), p.stride(0), w, h),
                                               var.sums8(p.row<std::uint8_t>(0, 0), p.stride(0), w, h)))
                             << w << "x" << h << " kind " << kind;
                       }
                   });
  for_each_variant(&float_moment::sum_kernels_for, &SumKernels::sums16, "float_moment", "sums16",
                   [&](const SumKernels& ref, const SumKernels& var, const std::string&) {
                     std::mt19937 rng(seed() + 9);
                     for (int bpc : {10, 12, 16})
                       for (auto [w, h] : {std::pair{1, 1}, {31, 7}, {64, 3}, {1920, 2}, {70001, 1}})
                         for (int kind = 0; kind < 3; ++kind) {
                           const Picture p = random_picture(w, h, bpc, ChromaFormat::k400, rng, kind);
                           ASSERT_TRUE(same_sums(ref.sums16(p.row<std::uint16_t>(0, 0), p.stride(0), w, h),
                                                 var.sums16(p.row<std::uint16_t>(0, 0), p.stride(0), w, h)))
                               << bpc << "-bit " << w << "x" << h << " kind " << kind;
                         }
                   });
}

// ---- SpEED ----

TEST(Speed, PlaneLoopsEqualThePortableBuild) {
  using speed::SpeedKernels;
  const int widths[] = {1, 7, 16, 17, 63, 120, 961, 1920};
  for_each_variant(&speed::speed_kernels_for, &SpeedKernels::columns, "speed", "columns",
                   [&](const SpeedKernels& ref, const SpeedKernels& var, const std::string&) {
                     std::mt19937 rng(seed() + 10);
                     std::uniform_real_distribution<float> u(-128.0f, 127.0f), g(0.0f, 0.3f);
                     for (int taps : {3, 5, 9, 17})
                       for (int w : widths) {
                         std::vector<std::vector<float>> rows(static_cast<std::size_t>(taps), std::vector<float>(std::size_t(w)));
                         std::vector<const float*> rp;
                         for (auto& r : rows) {
                           for (float& v : r) v = u(rng);
                           rp.push_back(r.data());
                         }
                         std::vector<float> f(static_cast<std::size_t>(taps));
                         for (float& v : f) v = g(rng);
                         std::vector<float> a(std::size_t(w), -1.0f), b(std::size_t(w), -2.0f);
                         ref.columns(rp.data(), f.data(), taps, a.data(), w);
                         var.columns(rp.data(), f.data(), taps, b.data(), w);
                         ASSERT_TRUE(same(a, b)) << taps << " taps, width " << w;
                       }
                   });
  for_each_variant(&speed::speed_kernels_for, &SpeedKernels::to_float8, "speed", "to_float8",
                   [&](const SpeedKernels& ref, const SpeedKernels& var, const std::string&) {
                     std::vector<std::uint8_t> in(256 * 8);
                     for (std::size_t i = 0; i < in.size(); ++i) in[i] = std::uint8_t(i * 37);
                     for (int w : widths) {
                       const int n = std::min<int>(w, int(in.size()));
                       std::vector<float> a(static_cast<std::size_t>(n)), b(static_cast<std::size_t>(n), 1.0f);
                       ref.to_float8(in.data(), a.data(), n);
                       var.to_float8(in.data(), b.data(), n);
                       ASSERT_TRUE(same(a, b)) << n;
                     }
                   });
  for_each_variant(&speed::speed_kernels_for, &SpeedKernels::to_float16, "speed", "to_float16",
                   [&](const SpeedKernels& ref, const SpeedKernels& var, const std::string&) {
                     std::mt19937 rng(seed() + 11);
                     for (float scaler : {4.0f, 16.0f, 256.0f})
                       for (int w : widths) {
                         std::vector<std::uint16_t> in(static_cast<std::size_t>(w));
                         for (auto& v : in) v = std::uint16_t(rng());
                         std::vector<float> a(static_cast<std::size_t>(w)), b(std::size_t(w), 1.0f);
                         ref.to_float16(in.data(), scaler, a.data(), w);
                         var.to_float16(in.data(), scaler, b.data(), w);
                         ASSERT_TRUE(same(a, b)) << scaler << " " << w;
                       }
                   });
  for_each_variant(&speed::speed_kernels_for, &SpeedKernels::subtract, "speed", "subtract",
                   [&](const SpeedKernels& ref, const SpeedKernels& var, const std::string&) {
                     std::mt19937 rng(seed() + 12);
                     std::uniform_real_distribution<float> u(-128.0f, 127.0f);
                     for (int w : widths) {
                       std::vector<float> a(static_cast<std::size_t>(w)), c(static_cast<std::size_t>(w));
                       for (float& v : a) v = u(rng) / 3.0f;
                       for (float& v : c) v = u(rng) / 7.0f;
                       auto b = a;
                       ref.subtract(a.data(), c.data(), w);
                       var.subtract(b.data(), c.data(), w);
                       ASSERT_TRUE(same(a, b)) << w;
                     }
                   });
}

}  // namespace
}  // namespace vqtwin
