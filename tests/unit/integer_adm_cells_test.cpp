// integer ADM's per-output functions of the CUDA twin (features/integer_adm/cells.hpp), run on the
// host in the twin's order (every DWT cell of a scale, every cell of the needed rect's decouple and
// CSF, then each pool row's terms, rounded per row), against the CPU reference's exact sums (the
// scalar row kernels). Planes the twin reuses between scales are filled with garbage first: the
// cells must read only what the CPU computed.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "features/integer_adm/cells.hpp"
#include "features/integer_adm/pipeline.hpp"
#include "motion_test_util.hpp"

namespace vqtwin::integer_adm {
namespace {

template <class T>
struct HostPlanes {
  std::vector<T> band[2][3], rst[3], q[3];
  std::vector<int32_t> masks[4];
  std::vector<int32_t> a[2];

  HostPlanes(int w, int h) {
    const std::size_t n = std::size_t(w) * h;
    for (auto& img : band)
      for (auto& b : img) b.assign(n, T(0x5a5a));
    for (int t = 0; t < 3; ++t) rst[t].assign(n, T(0x3c3c)), q[t].assign(n, T(-0x3c3c));
    for (auto& m : masks) m.assign(n, 0x5a5a5a5a);
    for (auto& v : a) v.assign(n, 0);
  }
  ScalePlanes<T> view(int w, int h) {
    ScalePlanes<T> p;
    for (int t = 0; t < 3; ++t) {
      p.ref[t] = band[0][t].data();
      p.dis[t] = band[1][t].data();
      p.rst[t] = rst[t].data();
      p.q[t] = q[t].data();
    }
    p.mask_q = masks[0].data(), p.centre_q = masks[1].data(), p.mask_r = masks[2].data(), p.centre_r = masks[3].data();
    p.w = w, p.h = h;
    return p;
  }
};

// The twin's masked_sums(): prepare the needed rect, then each pool row's terms.
template <class T, class F>
ScaleSums masked(const Computer& c, int scale, const ScalePlanes<T>& p, const F& f) {
  const ScaleGeometry& g = c.geometry(scale);
  const bool aim = !c.settings().skip_aim;
  for (int y = g.needed.bottom - 1; y >= g.needed.top; --y)
    for (int x = g.needed.left; x < g.needed.right; ++x)
      prepare_cell(p, f, c.settings().enhn_gain_limit, kReciprocal.div, aim, x, y);
  ScaleSums s;
  for (int y = g.pool.top; y < g.pool.bottom; ++y) {
    std::uint64_t v[9] = {};
    for (int x = g.pool.right - 1; x >= g.pool.left; --x) {
      const CellTerms t = masked_cell(p, f, g, aim, x, y);
      for (int k = 0; k < 3; ++k) {
        v[k] += std::uint64_t(t.num[k]);
        v[3 + k] += std::uint64_t(t.aim[k]);
        v[6 + k] += t.den[k];
      }
    }
    for (int k = 0; k < 3; ++k) {
      s.num[k] += num_row_total(std::int64_t(v[k]), g);
      if (aim) s.aim[k] += num_row_total(std::int64_t(v[3 + k]), g);
      s.den[k] += den_row_total(v[6 + k], g);
    }
  }
  return s;
}

// The twin's enqueue() with the kernels as plain loops.
template <class Pixel>
FrameSums cells_sums(const Computer& c, const Picture& ref, const Picture& dis) {
  FrameSums out;
  const ScaleGeometry& g0 = c.geometry(0);
  HostPlanes<int16_t> p16(g0.w, g0.h);
  const Picture* pics[2] = {&ref, &dis};
  for (int img = 0; img < 2; ++img)
    for (int y = 0; y < g0.h; ++y)
      for (int x = 0; x < g0.w; ++x) {
        const DwtCell<int16_t> v = dwt0_at(pics[img]->row<Pixel>(0, 0), pics[img]->stride(0), c.input_width(0),
                                           c.input_height(0), c.bitdepth(), x, y);
        const std::size_t i = std::size_t(y) * g0.w + x;
        p16.a[img][i] = v.a;
        for (int t = 0; t < 3; ++t) p16.band[img][t][i] = v.band[t];
      }
  if (!c.settings().skip_scale0) {
    Csf0 f;
    for (int t = 0; t < 3; ++t) f.r[t] = c.factors().r0[t];
    out.scale[0] = masked(c, 0, p16.view(g0.w, g0.h), f);
  }
  std::vector<int32_t> in[2] = {p16.a[0], p16.a[1]};
  for (int scale = 1; scale < 4; ++scale) {
    const ScaleGeometry& g = c.geometry(scale);
    HostPlanes<int32_t> p32(g.w, g.h);
    for (int img = 0; img < 2; ++img)
      for (int y = 0; y < g.h; ++y)
        for (int x = 0; x < g.w; ++x) {
          const DwtCell<int32_t> v =
              dwt123_at(in[img].data(), c.input_width(scale), c.input_height(scale), dwt_shifts(scale), x, y);
          const std::size_t i = std::size_t(y) * g.w + x;
          p32.a[img][i] = v.a;
          for (int t = 0; t < 3; ++t) p32.band[img][t][i] = v.band[t];
        }
    Csf123 f;
    for (int t = 0; t < 3; ++t) f.r[t] = c.factors().rs[scale][t];
    out.scale[scale] = masked(c, scale, p32.view(g.w, g.h), f);
    in[0] = p32.a[0];
    in[1] = p32.a[1];
  }
  return out;
}

// kWild: any 16-bit word in a 10/12-bit plane (samples of 2^bpc or more, which libvmaf accepts).
enum class Content { kRandom, kNoisyCopy, kEdges, kFlat, kGradient, kWild };

void check(int w, int h, int bpc, Content content, const Settings& s, std::mt19937& rng) {
  SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bpc) + "-bit content " +
               std::to_string(int(content)) + " egl " + std::to_string(s.enhn_gain_limit) + " csf " +
               std::to_string(s.csf_mode) + (s.skip_aim ? " skip_aim" : "") + (s.skip_scale0 ? " skip_scale0" : ""));
  const PictureFormat f = test::format(w, h, bpc, ChromaFormat::k400);
  const unsigned top = (1u << bpc) - 1;
  std::uniform_int_distribution<int> noise(-40, 40);
  Picture ref = test::random_picture(f, rng), dis = test::random_picture(f, rng);
  if (content != Content::kRandom) {
    ref = test::make_picture(f, [&](int, int x, int y) -> unsigned {
      switch (content) {
        case Content::kEdges: return ((x / 3 + y / 2) & 1) ? top : 0;
        case Content::kFlat: return top / 3;
        case Content::kGradient: return unsigned((x * 5 + y * 3) % (top + 1));
        case Content::kWild: return unsigned(rng()) & 0xFFFFu;
        default: return unsigned(rng()) & top;
      }
    });
    dis = test::make_picture(f, [&](int, int x, int y) -> unsigned {
      const int v = int(test::sample(ref, 0, x, y));
      switch (content) {
        case Content::kEdges: return ((x / 3 + y / 3) & 1) ? 0 : top;
        case Content::kFlat: return unsigned(v);
        case Content::kWild: return unsigned(rng()) & 0xFFFFu;
        default: return unsigned(std::clamp(v + noise(rng) * int(1u << (bpc - 8)), 0, int(top)));
      }
    });
  }
  const Computer c(s, make_csf_factors(s), w, h, bpc);
  auto ws = c.make_workspace();
  const FrameSums want = c.compute_sums(ref, dis, *ws, reference_kernels());
  const FrameSums got = bpc == 8 ? cells_sums<std::uint8_t>(c, ref, dis) : cells_sums<std::uint16_t>(c, ref, dis);
  for (int scale = 0; scale < 4; ++scale)
    for (int t = 0; t < 3; ++t) {
      EXPECT_EQ(got.scale[scale].num[t], want.scale[scale].num[t]) << "scale " << scale << " theta " << t;
      EXPECT_EQ(got.scale[scale].aim[t], want.scale[scale].aim[t]) << "scale " << scale << " theta " << t;
      EXPECT_EQ(got.scale[scale].den[t], want.scale[scale].den[t]) << "scale " << scale << " theta " << t;
    }
}

TEST(IntegerAdmCells, FrameSumsEqualTheCpuOnSmallOddAndEdgeSizes) {
  std::mt19937 rng(3);
  const Content contents[] = {Content::kRandom, Content::kNoisyCopy, Content::kEdges, Content::kFlat,
                              Content::kGradient};
  for (int bpc : {8, 10, 12, 16})
    for (auto [w, h] : {std::pair{33, 33}, {34, 35}, {40, 36}, {47, 61}, {64, 48}, {100, 75}, {300, 34}, {34, 300},
                        {161, 91}})
      for (Content c : contents) check(w, h, bpc, c, Settings{}, rng);
  // The CPU takes its reference rows for such frames (libvmaf's integer widths for any sample).
  for (int bpc : {10, 12})
    for (auto [w, h] : {std::pair{33, 33}, {47, 61}, {161, 91}}) check(w, h, bpc, Content::kWild, Settings{}, rng);
}

TEST(IntegerAdmCells, FrameSumsEqualTheCpuWithEveryOption) {
  std::mt19937 rng(4);
  std::vector<Settings> sets;
  for (double egl : {1.0, 1.2, 1.5}) sets.push_back(Settings{}), sets.back().enhn_gain_limit = egl;
  sets.push_back(Settings{}), sets.back().skip_aim = true;
  sets.push_back(Settings{}), sets.back().skip_scale0 = true;
  sets.push_back(Settings{}), sets.back().noise_weight = 0.0;
  sets.push_back(Settings{}), sets.back().norm_view_dist = 5.0;
  sets.push_back(Settings{}), sets.back().csf_mode = 2;
  sets.push_back(Settings{}), sets.back().csf_mode = 3, sets.back().ref_display_height = 2160;
  sets.push_back(Settings{}), sets.back().ref_display_height = 1441, sets.back().norm_view_dist = 3.5;
  for (const Settings& s : sets) {
    check(176, 144, 8, Content::kNoisyCopy, s, rng);
    check(64, 48, 10, Content::kEdges, s, rng);
    check(37, 41, 16, Content::kRandom, s, rng);
  }
}

}  // namespace
}  // namespace vqtwin::integer_adm
