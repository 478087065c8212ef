// float_adm's per-output functions of the CUDA twin (features/float_adm/cells.hpp), run on the host in
// the twin's order (every DWT cell, the decouple of the work rect with the rcpss table, per pool row the
// threshold and the three terms of each column added in column order, then the front's row sums and
// pooling), against the CPU reference's bands and scale values, bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "features/float_adm/cells.hpp"
#include "features/float_adm/dwt.hpp"
#include "features/float_adm/front.hpp"
#include "features/float_adm/scale.hpp"

namespace vqtwin::float_adm {
namespace {

std::uint32_t bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// The twin's DWT of one plane (w x h packed).
Subbands cells_dwt(const float* src, int w, int h) {
  Subbands out;
  const int bw = (w + 1) / 2, bh = (h + 1) / 2;
  for (Band* b : {&out.a, &out.h, &out.v, &out.d}) b->resize(bw, bh);
  for (int k = 0; k < bh; ++k)
    for (int m = 0; m < bw; ++m) {
      const DwtCell c = dwt_cell_at(src, w, h, m, k);
      out.a.row(k)[m] = c.a;
      out.h.row(k)[m] = c.h;
      out.v.row(k)[m] = c.v;
      out.d.row(k)[m] = c.d;
    }
  return out;
}

// The twin's decouple and rows kernels, then the front's pooling.
ScaleValues cells_values(const Subbands& ref, const Subbands& dis, CsfFactors cf, const Front& front) {
  const int bw = ref.h.w, bh = ref.h.h;
  const std::size_t n = std::size_t(bw) * std::size_t(bh);
  std::vector<float> r[3], a[3];
  for (int k = 0; k < 3; ++k) r[k].assign(n, 0.0f), a[k].assign(n, 0.0f);
  const Rect work = work_rect(bw, bh);
  const Band* o_bands[3] = {&ref.h, &ref.v, &ref.d};
  const Band* t_bands[3] = {&dis.h, &dis.v, &dis.d};
  for (int y = work.top; y < work.bottom; ++y)
    for (int x = work.left; x < work.right; ++x) {
      const std::size_t c = std::size_t(y) * std::size_t(bw) + std::size_t(x);
      float o[3], t[3], rr[3], aa[3];
      for (int k = 0; k < 3; ++k) o[k] = o_bands[k]->px[c], t[k] = t_bands[k]->px[c];
      decouple_cell(o, t, front.settings().gain_limit, kCosOneDegreeSq, front.settings().rcp_table, rr, aa);
      for (int k = 0; k < 3; ++k) r[k][c] = rr[k], a[k][c] = aa[k];
    }
  const Oriented restored = {{r[0].data(), r[1].data(), r[2].data()}};
  const Oriented additive = {{a[0].data(), a[1].data(), a[2].data()}};
  const float rf[3] = {cf.hv, cf.hv, cf.d};
  const Rect pool = pool_rect(bw, bh);
  const int pw = pool.right - pool.left, rows = pool.bottom - pool.top;
  std::vector<float> den(3 * std::size_t(rows)), num(3 * std::size_t(rows)), aim(3 * std::size_t(rows));
  std::vector<float> terms(9 * std::size_t(pw));
  const bool bypass = front.settings().bypass_cm;
  for (int i = pool.top; i < pool.bottom; ++i) {
    for (int x = pw - 1; x >= 0; --x) {  // any column order: each term is independent
      const int j = pool.left + x;
      const std::size_t c = std::size_t(i) * std::size_t(bw) + std::size_t(j);
      const float thr_num = bypass ? 0.0f : threshold_at(additive, rf, bw, bh, j, i);
      const float thr_aim = bypass ? 0.0f : threshold_at(restored, rf, bw, bh, j, i);
      for (int k = 0; k < 3; ++k) {
        terms[std::size_t(k) * pw + x] = den_term(o_bands[k]->px[c], rf[k]);
        terms[std::size_t(3 + k) * pw + x] = masked_term(r[k][c], rf[k], thr_num);
        terms[std::size_t(6 + k) * pw + x] = masked_term(a[k][c], rf[k], thr_aim);
      }
    }
    for (int q = 0; q < 9; ++q) {
      std::vector<float>& dst = q < 3 ? den : (q < 6 ? num : aim);
      dst[3 * std::size_t(i - pool.top) + std::size_t(q % 3)] = sum_in_order(terms.data() + std::size_t(q) * pw, pw);
    }
  }
  return front.values_from_rows(den.data(), num.data(), aim.data(), bw, bh);
}

std::vector<float> plane(int w, int h, int bpc, int content, unsigned seed) {
  std::mt19937 rng(seed);
  const unsigned top = (1u << bpc) - 1;
  std::uniform_int_distribution<unsigned> any(0, top);
  const float scale = float(1u << (bpc - 8));
  std::vector<float> p(std::size_t(w) * std::size_t(h));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      unsigned v = 0;
      switch (content) {
        case 0: v = any(rng); break;
        case 1: v = unsigned((x * 13 + y * 7 + int(seed % 5) * ((x ^ y) & 3)) % (top + 1)); break;
        case 2: v = top / 2; break;
        default: v = ((x / 3 + y / 4 + int(seed)) & 1) ? top : 0; break;
      }
      p[std::size_t(y) * w + x] = float(v) / scale + -128.0f;
    }
  return p;
}

void expect_frame_matches(int w, int h, int bpc, int content, const OptionPairs& opts) {
  std::string what = std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bpc) + "-bit content " +
                     std::to_string(content);
  for (const auto& [k, v] : opts) what += " " + k + "=" + v;
  SCOPED_TRACE(what);
  const OptionValues o(kSpec.options, opts, "float_adm");
  const Front front(o, RunSettings{});
  const std::vector<float> ref = plane(w, h, bpc, content, 1);
  const std::vector<float> dis = content == 2 ? plane(w, h, bpc, content, 1) : plane(w, h, bpc, content == 1 ? 1 : 0, 2);
  std::vector<float> scratch;
  std::vector<float> cur_r = ref, cur_d = dis;
  int cw = w, ch = h;
  ScaleWork work;
  for (int s = 0; s < 4; ++s) {
    Subbands cr, cd;
    dwt2(cur_r.data(), cw, ch, cr, false, scratch);
    dwt2(cur_d.data(), cw, ch, cd, false, scratch);
    const Subbands gr = cells_dwt(cur_r.data(), cw, ch), gd = cells_dwt(cur_d.data(), cw, ch);
    const std::size_t n = std::size_t(cr.a.w) * std::size_t(cr.a.h);
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(bits(gr.a.px[i]), bits(cr.a.px[i])) << "scale " << s;
      ASSERT_EQ(bits(gr.h.px[i]), bits(cr.h.px[i])) << "scale " << s;
      ASSERT_EQ(bits(gr.v.px[i]), bits(cr.v.px[i])) << "scale " << s;
      ASSERT_EQ(bits(gd.d.px[i]), bits(cd.d.px[i])) << "scale " << s;
    }
    const ScaleValues want = scale_values(cr, cd, front.factors(s), front.settings(), work);
    const ScaleValues got = cells_values(cr, cd, front.factors(s), front);
    EXPECT_EQ(bits(got.num), bits(want.num)) << "scale " << s << ": " << got.num << " vs " << want.num;
    EXPECT_EQ(bits(got.den), bits(want.den)) << "scale " << s << ": " << got.den << " vs " << want.den;
    EXPECT_EQ(bits(got.aim), bits(want.aim)) << "scale " << s << ": " << got.aim << " vs " << want.aim;
    cur_r.assign(cr.a.px.begin(), cr.a.px.begin() + std::ptrdiff_t(n));
    cur_d.assign(cd.a.px.begin(), cd.a.px.begin() + std::ptrdiff_t(n));
    cw = cr.a.w;
    ch = cr.a.h;
  }
}

TEST(FloatAdmCells, BandsAndScaleValuesEqualTheCpu) {
  for (int bpc : {8, 10, 12, 16})
    for (auto [w, h] : {std::pair{33, 33}, {34, 47}, {67, 37}, {176, 144}})
      for (int content : {0, 1, 2, 3}) expect_frame_matches(w, h, bpc, content, {});
  // Options: gain limit, CSF modes and display, noise weight (0 too), no masking, factor overrides.
  const OptionPairs sets[] = {
      {{"adm_enhn_gain_limit", "1"}},
      {{"adm_csf_mode", "1"}, {"adm_csf_scale", "2.5"}, {"adm_csf_diag_scale", "0.5"}},
      {{"adm_csf_mode", "2"}, {"adm_norm_view_dist", "1.5"}, {"adm_ref_display_height", "2160"}},
      {{"adm_noise_weight", "0"}},
      {{"adm_noise_weight", "1500"}},
      {{"adm_bypass_cm", "1"}},
      {{"adm_f1s0", "0.5"}, {"adm_f2s3", "2"}},
  };
  for (const auto& opts : sets) {
    expect_frame_matches(97, 61, 8, 1, opts);
    expect_frame_matches(97, 61, 10, 0, opts);
  }
}

}  // namespace
}  // namespace vqtwin::float_adm
