// The motion features' kernel tables against their portable builds: float_motion's row kernels
// (features/float_motion/kernels.hpp) entry by entry on wide and odd rows, and whole blurs with the
// SAD on planes of every depth; integer motion's SAD (features/integer_motion/sad.hpp) on planes of
// every depth, including the sample extremes.
#include <bit>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "features/float_motion/blur.hpp"
#include "features/float_motion/kernels.hpp"
#include "features/float_motion/math.hpp"
#include "features/integer_motion/sad.hpp"
#include "variants.hpp"

namespace vqtwin {
namespace {

using cpu_check::for_each_table;
using cpu_check::for_each_variant;
using cpu_check::seed;

// A picture of random samples, with every `extreme`-th sample at 0 or the maximum.
Picture random_picture(int w, int h, int bpc, std::mt19937& rng, int extreme = 7) {
  PictureFormat f;
  f.width = w;
  f.height = h;
  f.bitdepth = bpc;
  f.chroma = ChromaFormat::k400;
  Picture p(f);
  const unsigned top = (1u << bpc) - 1;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const unsigned r = unsigned(rng());
      const unsigned v = r % unsigned(extreme) == 0 ? ((r >> 8) & 1 ? top : 0u) : (r >> 4) & top;
      if (bpc == 8) p.row<std::uint8_t>(0, y)[x] = std::uint8_t(v);
      else p.row<std::uint16_t>(0, y)[x] = std::uint16_t(v);
    }
  return p;
}

bool same_floats(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// ---- float_motion ----

using float_motion::Kernels;

TEST(FloatMotion, RowKernelsEqualThePortableBuild) {
  std::mt19937 rng(seed());
  std::uniform_real_distribution<float> u(-128.0f, 127.0f);
  const int widths[] = {1, 7, 8, 9, 31, 64, 1001};
  const int max_w = 1001;
  std::vector<float> rows[5], src(max_w + 4);
  for (auto& r : rows) {
    r.resize(max_w);
    for (float& v : r) v = u(rng);
  }
  for (float& v : src) v = u(rng);
  const float* rp[5] = {rows[0].data(), rows[1].data(), rows[2].data(), rows[3].data(), rows[4].data()};
  auto columns = [&](auto Kernels::*entry, const char* name, const float* taps) {
    for_each_variant(&float_motion::kernels_for, entry, "float_motion", name,
                     [&](const Kernels& ref, const Kernels& var, const std::string&) {
                       for (int w : widths) {
                         std::vector<float> a(w), b(w);
                         (ref.*entry)(rp, taps, a.data(), w);
                         (var.*entry)(rp, taps, b.data(), w);
                         ASSERT_TRUE(same_floats(a, b)) << "width " << w;
                       }
                     });
  };
  auto row = [&](auto Kernels::*entry, const char* name, const float* taps) {
    for_each_variant(&float_motion::kernels_for, entry, "float_motion", name,
                     [&](const Kernels& ref, const Kernels& var, const std::string&) {
                       for (int w : widths) {
                         std::vector<float> a(w), b(w);
                         (ref.*entry)(src.data(), taps, a.data(), w);
                         (var.*entry)(src.data(), taps, b.data(), w);
                         ASSERT_TRUE(same_floats(a, b)) << "width " << w;
                       }
                     });
  };
  columns(&Kernels::columns5, "columns5", float_motion::kTaps5);
  columns(&Kernels::columns3, "columns3", float_motion::kTaps3);
  row(&Kernels::row5, "row5", float_motion::kTaps5);
  row(&Kernels::row3, "row3", float_motion::kTaps3);
}

TEST(FloatMotion, ConvertAndSadEqualThePortableBuild) {
  std::mt19937 rng(seed() + 1);
  for_each_variant(&float_motion::kernels_for, &Kernels::convert8, "float_motion", "convert8",
                   [&](const Kernels& ref, const Kernels& var, const std::string&) {
                     std::vector<std::uint8_t> s(300);
                     for (int i = 0; i < 300; ++i) s[i] = std::uint8_t(i < 256 ? i : rng());
                     std::vector<float> a(300), b(300);
                     ref.convert8(s.data(), a.data(), 300);
                     var.convert8(s.data(), b.data(), 300);
                     ASSERT_TRUE(same_floats(a, b));
                   });
  for_each_variant(&float_motion::kernels_for, &Kernels::convert16, "float_motion", "convert16",
                   [&](const Kernels& ref, const Kernels& var, const std::string&) {
                     for (float scale : {4.0f, 16.0f, 256.0f}) {
                       std::vector<std::uint16_t> s(1027);
                       for (auto& v : s) v = std::uint16_t(rng());
                       s[0] = 0, s[1] = 65535;
                       std::vector<float> a(s.size()), b(s.size());
                       ref.convert16(s.data(), scale, a.data(), int(s.size()));
                       var.convert16(s.data(), scale, b.data(), int(s.size()));
                       ASSERT_TRUE(same_floats(a, b)) << "scale " << scale;
                     }
                   });
  for_each_variant(&float_motion::kernels_for, &Kernels::sad_rows, "float_motion", "sad_rows",
                   [&](const Kernels& ref, const Kernels& var, const std::string&) {
                     std::uniform_real_distribution<float> u(-128.0f, 127.0f);
                     for (int w : {1, 9, 1001})
                       for (int rows : {1, 7, 8, 13, 17}) {
                         std::vector<float> a(std::size_t(w + 3) * rows), b(a.size());
                         for (float& v : a) v = u(rng);
                         for (float& v : b) v = u(rng);
                         const float x = ref.sad_rows(a.data(), b.data(), w + 3, w, rows, 0.5f);
                         const float y = var.sad_rows(a.data(), b.data(), w + 3, w, rows, 0.5f);
                         ASSERT_EQ(std::bit_cast<std::uint32_t>(x), std::bit_cast<std::uint32_t>(y))
                             << w << " x " << rows;
                       }
                   });
}

TEST(FloatMotion, WholeBlursEqualThePortableBuild) {
  for_each_table(&float_motion::kernels_for, "float_motion", [](const Kernels& ref, const Kernels& var,
                                                                const std::string&) {
    std::mt19937 rng(seed() + 2);
    for (int bpc : {8, 10, 12, 16})
      for (int fs : {5, 3, 1})
        for (auto [w, h] : {std::pair{3, 3}, {37, 19}, {70, 5}, {4, 33}, {333, 41}}) {
          const Picture p0 = random_picture(w, h, bpc, rng), p1 = random_picture(w, h, bpc, rng);
          float_motion::PlaneBlur br(w, h, fs, ref), bv(w, h, fs, var);
          std::vector<float> a0(std::size_t(w) * h), a1(a0.size()), b0(a0.size()), b1(a0.size());
          br.run(p0, 0, a0.data(), nullptr);
          bv.run(p0, 0, b0.data(), nullptr);
          const float ta = br.run(p1, 0, a1.data(), a0.data());
          const float tb = bv.run(p1, 0, b1.data(), b0.data());
          ASSERT_TRUE(same_floats(a0, b0) && same_floats(a1, b1)) << w << "x" << h << "@" << bpc << " mfs " << fs;
          ASSERT_EQ(std::bit_cast<std::uint32_t>(ta), std::bit_cast<std::uint32_t>(tb)) << w << "x" << h;
        }
  });
}

// ---- integer motion ----

TEST(IntegerMotion, SadEqualsThePortableBuild) {
  using integer_motion::SadKernels;
  // The SAD of (a, b); 8-bit: also checks the packed copy of b the kernel makes while it reads b.
  auto sad_of = [](const Picture& a, const Picture& b, const SadKernels& k, bool out_of_range) {
    const int w = a.width(0), h = a.height(0);
    integer_motion::DiffBlurSad sad(w, h, a.format().bitdepth, k);
    if (a.format().bitdepth > 8) {
      std::vector<std::uint16_t> keep(std::size_t(w) * h);
      bool cur_high = false;
      const std::uint64_t v = sad(a.row<std::uint16_t>(0, 0), a.stride(0), b.row<std::uint16_t>(0, 0), b.stride(0),
                                  out_of_range, keep.data(), &cur_high);
      bool any_high = false;
      for (int y = 0; y < h; ++y) {
        EXPECT_EQ(std::memcmp(keep.data() + std::size_t(y) * w, b.row<std::uint16_t>(0, y), 2 * std::size_t(w)), 0)
            << "row " << y;
        for (int x = 0; x < w; ++x) any_high = any_high || b.row<std::uint16_t>(0, y)[x] >> a.format().bitdepth;
      }
      EXPECT_EQ(cur_high, any_high);
      return v;
    }
    std::vector<std::uint8_t> keep(std::size_t(w) * h);
    const std::uint64_t v = sad(a.row<std::uint8_t>(0, 0), a.stride(0), b.row<std::uint8_t>(0, 0), b.stride(0), keep.data());
    for (int y = 0; y < h; ++y)
      EXPECT_EQ(std::memcmp(keep.data() + std::size_t(y) * w, b.row<std::uint8_t>(0, y), std::size_t(w)), 0) << "row " << y;
    return v;
  };
  // Widths around the 16- and 32-column steps (odd ones included) and the mirrored edges.
  const std::pair<int, int> sizes[] = {{3, 3},  {5, 4},  {15, 5},  {16, 3},  {17, 6},  {31, 7},  {32, 4}, {33, 5},
                                       {37, 19}, {47, 3}, {64, 9}, {65, 4}, {3, 40}, {257, 33}, {1001, 5}};
  auto check = [&](auto SadKernels::*entry, const char* name, std::vector<int> depths) {
    for_each_variant(&integer_motion::sad_kernels_for, entry, "integer_motion", name,
                     [&](const SadKernels& ref, const SadKernels& var, const std::string&) {
                       std::mt19937 rng(seed() + 3);
                       for (int bpc : depths)
                         for (auto [w, h] : sizes)
                           for (int extreme : {7, 2, 1}) {
                             const Picture a = random_picture(w, h, bpc, rng, extreme);
                             const Picture b = random_picture(w, h, bpc, rng, extreme);
                             ASSERT_EQ(sad_of(a, b, var, false), sad_of(a, b, ref, false)) << w << "x" << h << "@" << bpc;
                             ASSERT_EQ(sad_of(b, a, var, false), sad_of(b, a, ref, false)) << w << "x" << h << "@" << bpc;
                           }
                       // Planes of smooth content that differ by little (the vector kernels' usual rows,
                       // with |V| < 32768), and by a lot in one column block only.
                       for (int bpc : depths)
                         for (auto [w, h] : sizes) {
                           Picture a = random_picture(w, h, bpc, rng), b = random_picture(w, h, bpc, rng);
                           const unsigned top = (1u << bpc) - 1;
                           for (int y = 0; y < h; ++y)
                             for (int x = 0; x < w; ++x) {
                               const unsigned base = unsigned(x * 7 + y * 3) & top;
                               const unsigned near = (base + (unsigned(rng()) % 5)) & top;
                               const unsigned pa = base, pb = x / 16 == 1 && y % 3 == 0 ? top - base : near;
                               if (bpc == 8) {
                                 a.row<std::uint8_t>(0, y)[x] = std::uint8_t(pa);
                                 b.row<std::uint8_t>(0, y)[x] = std::uint8_t(pb);
                               } else {
                                 a.row<std::uint16_t>(0, y)[x] = std::uint16_t(pa);
                                 b.row<std::uint16_t>(0, y)[x] = std::uint16_t(pb);
                               }
                             }
                           ASSERT_EQ(sad_of(a, b, var, false), sad_of(a, b, ref, false)) << "smooth " << w << "x" << h << "@" << bpc;
                         }
                     });
  };
  check(&SadKernels::sad8, "sad8", {8});
  check(&SadKernels::sad16, "sad16", {9, 10, 12, 14, 15, 16});
}

// 10/12-bit planes with samples of 2^bpc or more (libvmaf accepts them and sums in 64 bits): the
// kernels' generic path, selected by out_of_range, against the reference.
TEST(IntegerMotion, OutOfRangeSamplesEqualThePortableBuild) {
  using integer_motion::SadKernels;
  for_each_variant(&integer_motion::sad_kernels_for, &SadKernels::sad16, "integer_motion", "sad16 out of range",
                   [&](const SadKernels& ref, const SadKernels& var, const std::string&) {
                     std::mt19937 rng(seed() + 4);
                     for (int bpc : {10, 12})
                       for (const auto& wh : {std::pair{3, 3}, {17, 6}, {33, 5}, {40, 9}, {257, 33}})
                         for (int rows : {0, 1, 2}) {  // samples of 2^bpc or more in prev (0), cur's last row, all of cur
                           const int w = wh.first, h = wh.second;  // plain ints: clang 14 cannot capture a structured binding
                           Picture a = random_picture(w, h, bpc, rng), b = random_picture(w, h, bpc, rng);
                           Picture& odd = rows == 0 ? a : b;
                           const int y0 = rows == 1 ? h - 1 : 0;
                           for (int i = 0; i < w * h / 5 + 1; ++i)
                             odd.row<std::uint16_t>(0, y0 + int(rng() % unsigned(h - y0)))[rng() % unsigned(w)] =
                                 std::uint16_t(rng() | 1u << bpc);
                           // prev's state is the caller's to say; cur's is found by the kernel.
                           auto run = [&](const SadKernels& k) {
                             integer_motion::DiffBlurSad sad(w, h, bpc, k);
                             bool cur_high = false;
                             std::vector<std::uint16_t> keep(std::size_t(w) * h);
                             const std::uint64_t v = sad(a.row<std::uint16_t>(0, 0), a.stride(0), b.row<std::uint16_t>(0, 0),
                                                         b.stride(0), rows == 0, keep.data(), &cur_high);
                             EXPECT_EQ(cur_high, rows != 0) << k.name << " " << w << "x" << h << "@" << bpc << " case " << rows;
                             EXPECT_EQ(std::memcmp(keep.data() + std::size_t(h - 1) * w, b.row<std::uint16_t>(0, h - 1), 2 * std::size_t(w)), 0);
                             return v;
                           };
                           ASSERT_EQ(run(var), run(ref)) << w << "x" << h << "@" << bpc << " case " << rows;
                         }
                   });
}

}  // namespace
}  // namespace vqtwin
