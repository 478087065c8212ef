// integer ADM's row kernels (features/integer_adm/rows.hpp) against the reference table: whole
// frames (every kernel together; every depth, odd sizes, gain limits), the DWT rows, and the
// decouple kernels on every int16 value and on values of every magnitude up to the int32 extremes.
#include <algorithm>
#include <array>
#include <random>
#include <string>
#include <vector>

#include "../support/integer_adm_planes.hpp"
#include "features/integer_adm/dwt.hpp"
#include "features/integer_adm/pipeline.hpp"
#include "features/integer_adm/rows.hpp"
#include "features/integer_adm/setup.hpp"
#include "variants.hpp"

namespace vqtwin::integer_adm {
namespace {

using cpu_check::for_each_table;
using cpu_check::for_each_variant;
using cpu_check::seed;

TEST(IntegerAdm, WholeFramesEqualTheReference) {
  for_each_table(&kernels_for, "integer_adm", [](const RowKernels& ref, const RowKernels& var, const std::string&) {
    for (int bpc : {8, 10, 12, 16})
      for (Content kind : {Content::kRandom, Content::kPerturbed, Content::kSmooth})
        for (auto [w, h] : {std::pair{33, 33}, {37, 35}, {70, 45}, {131, 67}, {256, 144}}) {
          const auto [r, d] = make_planes(w, h, bpc, seed() * 7919u + uint32_t(w + h + bpc), kind);
          const Picture rp = make_picture(w, h, bpc, r), dp = make_picture(w, h, bpc, d);
          for (double egl : {100.0, 1.0, 1.3}) {
            Settings s;
            s.enhn_gain_limit = egl;
            const Computer c(s, make_csf_factors(s), w, h, bpc);
            auto ws = c.make_workspace();
            const FrameScores a = c.compute(rp, dp, *ws, ref);
            const FrameScores b = c.compute(rp, dp, *ws, var);
            for (int i = 0; i < 4; ++i) {
              ASSERT_EQ(a.scale[i].num, b.scale[i].num) << w << "x" << h << "@" << bpc << " egl " << egl << " s" << i;
              ASSERT_EQ(a.scale[i].den, b.scale[i].den) << w << "x" << h << "@" << bpc << " egl " << egl << " s" << i;
              ASSERT_EQ(a.scale[i].aim, b.scale[i].aim) << w << "x" << h << "@" << bpc << " egl " << egl << " s" << i;
            }
          }
        }
  });
}

// One DWT of a plane, every row, through a table: the bands in row order.
template <class Pixel>
std::vector<int32_t> dwt0_bands(const Picture& p, int bpc, const RowKernels& k) {
  const int w = p.width(0), h = p.height(0), ow = (w + 1) / 2, oh = (h + 1) / 2;
  std::vector<int16_t> lo(w + 3), hi(w + 3), bh(ow), bv(ow), bd(ow), a(ow);
  std::vector<int32_t> out;
  int16_t* band[3] = {bh.data(), bv.data(), bd.data()};
  for (int y = 0; y < oh; ++y) {
    dwt0_row(p.row<Pixel>(0, 0), p.stride(0), w, h, bpc, y, lo.data(), hi.data(), a.data(), band, k);
    out.insert(out.end(), a.begin(), a.end());
    for (auto* b : {&bh, &bv, &bd}) out.insert(out.end(), b->begin(), b->end());
  }
  return out;
}

template <class In>
std::vector<int32_t> dwt123_bands(int scale, const std::vector<In>& plane, int w, int h, const RowKernels& k) {
  const int ow = (w + 1) / 2, oh = (h + 1) / 2;
  std::vector<int32_t> lo(w + 3), hi(w + 3), a(ow), bh(ow), bv(ow), bd(ow), out;
  int32_t* band[3] = {bh.data(), bv.data(), bd.data()};
  for (int y = 0; y < oh; ++y) {
    dwt123_row(scale, plane.data(), w, h, y, lo.data(), hi.data(), a.data(), band, k);
    for (auto* b : {&a, &bh, &bv, &bd}) out.insert(out.end(), b->begin(), b->end());
  }
  return out;
}

TEST(IntegerAdm, DwtRowsEqualTheReference) {
  for_each_table(&kernels_for, "integer_adm", [](const RowKernels& ref, const RowKernels& var, const std::string&) {
    const std::pair<int, int> sizes[] = {{5, 5}, {6, 7}, {9, 6}, {33, 35}, {70, 45}, {77, 19}, {130, 9}};
    for (int bpc : {8, 10, 12, 16})
      for (auto [w, h] : sizes) {
        const auto planes = make_planes(w, h, bpc, seed() * 131u + uint32_t(w * 131 + h + bpc), Content::kRandom);
        std::vector<uint32_t> board(std::size_t(w) * h);  // extremes: a 0 / max checkerboard
        for (int i = 0; i < w * h; ++i) board[i] = ((i % w + i / w) % 2) ? (1u << bpc) - 1 : 0;
        for (const std::vector<uint32_t>* plane : std::array<const std::vector<uint32_t>*, 2>{&planes.first, &board}) {
          const Picture p = make_picture(w, h, bpc, *plane);
          if (bpc == 8) ASSERT_EQ(dwt0_bands<uint8_t>(p, 8, var), dwt0_bands<uint8_t>(p, 8, ref)) << w << "x" << h;
          else ASSERT_EQ(dwt0_bands<uint16_t>(p, bpc, var), dwt0_bands<uint16_t>(p, bpc, ref)) << w << "x" << h << "@" << bpc;
        }
      }
    std::mt19937 rng(seed() + 4);
    for (int scale = 1; scale <= 3; ++scale)
      for (auto [w, h] : sizes) {
        // Scale-1 inputs are int16 a values; later scales' take any int32 (the results then wrap in
        // the int32 narrowing, which every kernel must reproduce).
        const int64_t span = scale == 1 ? 32767 : 2147483647;
        std::uniform_int_distribution<int64_t> d(-span, span);
        std::vector<int32_t> in(std::size_t(w) * h);
        for (auto& v : in) v = int32_t(d(rng));
        ASSERT_EQ(dwt123_bands(scale, in, w, h, var), dwt123_bands(scale, in, w, h, ref)) << scale << " " << w << "x" << h;
        if (scale == 1) {  // the pipeline's scale 1 reads int16 rows (dwt1): the same bands
          std::vector<int16_t> in16(in.begin(), in.end());
          if (w > 2) in16[1] = -32768;  // the one int16 value the int32 span above leaves out
          std::vector<int32_t> in32(in16.begin(), in16.end());
          ASSERT_EQ(dwt123_bands(1, in16, w, h, var), dwt123_bands(1, in32, w, h, ref)) << w << "x" << h;
        }
      }
  });
}

// Scale 0 decouple on every int16 ref value (the SIMD gains compute DIV[|o|] or take cases by |t| vs |o|).
TEST(IntegerAdm, Decouple0EqualsTheReferenceOnEveryRefValue) {
  constexpr int n = 65536;
  std::mt19937 rng(seed() + 77);
  std::vector<int16_t> o[3], t[3];
  for (int i = 0; i < 3; ++i) {
    o[i].resize(n);
    t[i].resize(n);
    for (int x = 0; x < n; ++x) {
      o[i][x] = int16_t(x - 32768 + i * 4099);
      // t = o, o + 1 and their negations are the edges of the gain's cases (k = 2^15 beyond |t| = |o|).
      const int step = x % 6;
      t[i][x] = step == 0 ? o[i][x] : step == 1 ? int16_t(o[i][x] + 1) : step == 2 ? int16_t(-o[i][x])
              : step == 3 ? int16_t(-(o[i][x] + 1)) : int16_t(rng());
    }
  }
  const int16_t* ref[3] = {o[0].data(), o[1].data(), o[2].data()};
  const int16_t* dis[3] = {t[0].data(), t[1].data(), t[2].data()};
  auto run = [&](const RowKernels& k) {
    std::vector<int16_t> out(6 * std::size_t(n));
    int16_t* r[3] = {&out[0], &out[n], &out[2 * n]};
    int16_t* q[3] = {&out[3 * n], &out[4 * n], &out[5 * n]};
    k.decouple0(ref, dis, 0, n, 100.0, r, q);
    return out;
  };
  for_each_variant(&kernels_for, &RowKernels::decouple0, "integer_adm", "decouple0",
                   [&](const RowKernels& reference, const RowKernels& var, const std::string&) {
                     EXPECT_EQ(run(var), run(reference));
                   });
}

// Scale 0 CSF and masks on every int16 value of every band, with the default factors and others on
// both sides of 2^15 (the int16-lane kernel treats r0 >= 2^15 apart).
TEST(IntegerAdm, Csf0EqualsTheReferenceOnEveryValue) {
  constexpr int n = 65536;
  std::vector<int16_t> p[3];
  for (int t = 0; t < 3; ++t)
    for (int x = 0; x < n; ++x) p[t].push_back(int16_t(x - 32768 + t * 7919));
  const int16_t* rows[3] = {p[0].data(), p[1].data(), p[2].data()};
  const uint16_t factors[][3] = {{36453, 36453, 49417}, {12345, 20000, 30000}, {32767, 32768, 65535}, {1, 0, 32769}};
  for (const auto& r0 : factors) {
    auto run = [&](const RowKernels& k) {
      std::vector<int32_t> out(2 * std::size_t(n) + 4, 7);
      k.csf0(rows, 3, n - 1, r0, &out[0], &out[n]);  // odd bounds: the row's ends too
      return out;
    };
    for_each_variant(&kernels_for, &RowKernels::csf0, "integer_adm", "csf0",
                     [&](const RowKernels& reference, const RowKernels& var, const std::string&) {
                       ASSERT_EQ(run(var), run(reference)) << r0[0] << " " << r0[1] << " " << r0[2];
                     });
  }
}

// Scale 1-3 decouple on every ref value up to +-2^16 (every 15-bit reciprocal index, directly and
// after rounding), with t = o, o + 1, their negations and random values.
TEST(IntegerAdm, Decouple123EqualsTheReferenceOnEveryIndex) {
  constexpr int n = 2 * 65536 + 1;
  std::mt19937 rng(seed() + 78);
  std::vector<int32_t> o[3], t[3];
  for (int i = 0; i < 3; ++i)
    for (int x = 0; x < n; ++x) {
      const int32_t v = x - 65536 + i * 4099;
      const int step = x % 6;
      o[i].push_back(v);
      t[i].push_back(step == 0 ? v : step == 1 ? v + 1 : step == 2 ? -v : step == 3 ? -(v + 1) : int32_t(rng() >> 12) - (1 << 19));
    }
  const int32_t* ref[3] = {o[0].data(), o[1].data(), o[2].data()};
  const int32_t* dis[3] = {t[0].data(), t[1].data(), t[2].data()};
  auto run = [&](const RowKernels& k) {
    std::vector<int32_t> out(6 * std::size_t(n));
    int32_t* r[3] = {&out[0], &out[n], &out[2 * std::size_t(n)]};
    int32_t* q[3] = {&out[3 * std::size_t(n)], &out[4 * std::size_t(n)], &out[5 * std::size_t(n)]};
    k.decouple123(ref, dis, 0, n, 100.0, r, q);
    return out;
  };
  for_each_variant(&kernels_for, &RowKernels::decouple123, "integer_adm", "decouple123",
                   [&](const RowKernels& reference, const RowKernels& var, const std::string&) {
                     ASSERT_EQ(run(var), run(reference));
                   });
}

// Decouple rows on values of every magnitude (0, tiny, around 2^15 and 2^26, the int32 extremes),
// with dis either unrelated or a scaled copy of ref (so the angle test and the gain limit trigger).
TEST(IntegerAdm, DecoupleRowsEqualTheReferenceOnEveryMagnitude) {
  for_each_table(&kernels_for, "integer_adm", [](const RowKernels& reference, const RowKernels& fast,
                                                 const std::string&) {
  std::mt19937 rng(seed() + 12345);
  const int32_t edges[] = {0, 1, -1, 32767, -32768, 32768, -32769, 65535, -65536, (1 << 26) - 1, -(1 << 26),
                           1 << 26, INT32_MAX, INT32_MIN, INT32_MIN + 1};
  auto value = [&](int bits) -> int32_t {
    if (rng() % 8 == 0) return edges[rng() % std::size(edges)];
    const int64_t span = int64_t(1) << bits;
    return int32_t(int64_t(rng() % uint64_t(2 * span)) - span);
  };
  constexpr int n = 203;  // odd: row tails too
  for (int round = 0; round < 400; ++round) {
    const int bits = 1 + int(rng() % 31);
    const bool related = round % 2 == 0;
    std::vector<int32_t> o[3], t[3], rs[2][3], qs[2][3];
    std::vector<int16_t> o16[3], t16[3], rs16[2][3], qs16[2][3];
    for (int i = 0; i < 3; ++i) {
      o[i].resize(n);
      t[i].resize(n);
      o16[i].resize(n);
      t16[i].resize(n);
      for (int x = 0; x < n; ++x) {
        o[i][x] = value(bits);
        t[i][x] = related ? int32_t(std::clamp(double(o[i][x]) * (0.25 + 0.01 * (rng() % 200)), -2147483648.0, 2147483647.0))
                          : value(bits);
        if (related && rng() % 4 == 0) t[i][x] = o[i][x];
        o16[i][x] = int16_t(o[i][x] >> std::max(0, bits - 15));
        t16[i][x] = related ? int16_t(std::clamp(double(o16[i][x]) * (0.5 + 0.01 * (rng() % 100)), -32768.0, 32767.0))
                            : int16_t(t[i][x] >> std::max(0, bits - 15));
      }
      for (int k = 0; k < 2; ++k) {
        rs[k][i].assign(n, 7);
        qs[k][i].assign(n, 7);
        rs16[k][i].assign(n, 7);
        qs16[k][i].assign(n, 7);
      }
    }
    const double egl = round % 3 == 0 ? 1.0 : (round % 3 == 1 ? 100.0 : 1.3);
    const int x0 = int(rng() % 9), x1 = n - int(rng() % 9);
    const RowKernels* sets[2] = {&reference, &fast};
    for (int k = 0; k < 2; ++k) {
      const int32_t* ref[3] = {o[0].data(), o[1].data(), o[2].data()};
      const int32_t* dis[3] = {t[0].data(), t[1].data(), t[2].data()};
      int32_t* r[3] = {rs[k][0].data(), rs[k][1].data(), rs[k][2].data()};
      int32_t* q[3] = {qs[k][0].data(), qs[k][1].data(), qs[k][2].data()};
      sets[k]->decouple123(ref, dis, x0, x1, egl, r, q);
      const int16_t* ref16[3] = {o16[0].data(), o16[1].data(), o16[2].data()};
      const int16_t* dis16[3] = {t16[0].data(), t16[1].data(), t16[2].data()};
      int16_t* r16[3] = {rs16[k][0].data(), rs16[k][1].data(), rs16[k][2].data()};
      int16_t* q16[3] = {qs16[k][0].data(), qs16[k][1].data(), qs16[k][2].data()};
      sets[k]->decouple0(ref16, dis16, x0, x1, egl, r16, q16);
    }
    for (int i = 0; i < 3; ++i)
      for (int x = 0; x < n; ++x) {
        ASSERT_EQ(rs[0][i][x], rs[1][i][x]) << "round " << round << " t" << i << " x " << x << " o " << o[i][x];
        ASSERT_EQ(qs[0][i][x], qs[1][i][x]) << "round " << round << " t" << i << " x " << x;
        ASSERT_EQ(rs16[0][i][x], rs16[1][i][x]) << "round " << round << " t" << i << " x " << x;
        ASSERT_EQ(qs16[0][i][x], qs16[1][i][x]) << "round " << round << " t" << i << " x " << x;
      }
  }
  });
}

// Denominator rows on values of every magnitude, up to the int32 extremes (the vector kernels hand a
// row with values of 2^30 or more back to the reference), with each scale's shifts at a few sizes.
TEST(IntegerAdm, DenominatorRowsEqualTheReferenceOnEveryMagnitude) {
  for_each_table(&kernels_for, "integer_adm", [](const RowKernels& reference, const RowKernels& fast,
                                                 const std::string&) {
    std::mt19937 rng(seed() + 777);
    constexpr int n = 203;  // odd: row tails too
    for (int round = 0; round < 300; ++round) {
      // Mostly rows below 2^30 (the vector path); every 8th row reaches the extremes, INT32_MIN included.
      const int bits = round % 8 == 0 ? 32 : 1 + int(rng() % 30);
      std::vector<int32_t> v[3];
      std::vector<int16_t> v16[3];
      for (int t = 0; t < 3; ++t)
        for (int x = 0; x < n; ++x) {
          const int32_t r = int32_t(rng());
          v[t].push_back(bits == 32 ? r : r >> (32 - bits));
          v16[t].push_back(int16_t(r >> 16));
        }
      if (bits == 32) v[rng() % 3][rng() % n] = INT32_MIN;  // its square alone leaves 64 bits
      const int x0 = int(rng() % 9), x1 = n - int(rng() % 9);
      const int32_t* ref[3] = {v[0].data(), v[1].data(), v[2].data()};
      const int16_t* ref16[3] = {v16[0].data(), v16[1].data(), v16[2].data()};
      uint64_t a16[3] = {1, 2, 3}, b16[3] = {1, 2, 3};
      reference.den0(ref16, x0, x1, a16);
      fast.den0(ref16, x0, x1, b16);
      for (int t = 0; t < 3; ++t) ASSERT_EQ(a16[t], b16[t]) << "round " << round << " t" << t;
      for (int scale = 1; scale <= 3; ++scale)
        for (auto [w, h] : {std::pair{17, 17}, {960, 540}, {1920, 1080}}) {
          const ScaleGeometry g = make_geometry(scale, w, h);
          uint64_t a[3] = {1, 2, 3}, b[3] = {1, 2, 3};
          reference.den123(ref, x0, x1, g.den_sq_shift, g.den_cube_shift, g.den_cube_round, a);
          fast.den123(ref, x0, x1, g.den_sq_shift, g.den_cube_shift, g.den_cube_round, b);
          for (int t = 0; t < 3; ++t) ASSERT_EQ(a[t], b[t]) << "round " << round << " scale " << scale << " t" << t;
        }
    }
  });
}

}  // namespace
}  // namespace vqtwin::integer_adm
