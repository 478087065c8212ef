// integer VIF's per-output functions of the CUDA twin (features/integer_vif/cells.hpp), run on the
// host in the twin's order (every vertical moment of a scale, then every pixel's statistic, then the
// two downsampling passes), against the CPU reference's sums (the portable kernel set).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <string>
#include <vector>

#include "features/integer_vif/cells.hpp"
#include "features/integer_vif/kernels.hpp"
#include "features/integer_vif/log_table.hpp"
#include "features/integer_vif/pipeline.hpp"

namespace vqtwin::integer_vif {
namespace {

// The twin's frame (cuda.cu, frame()) with the kernels as plain loops.
template <class T>
std::array<Accum, kNumScales> cells_sums(const FrameSetup& s, const T* x0, std::ptrdiff_t sx0, const T* y0,
                                         std::ptrdiff_t sy0) {
  const std::uint16_t* table = log2_table();
  auto scale_sums = [&](const auto* x, std::ptrdiff_t sx, const auto* y, std::ptrdiff_t sy, int w, int h, int scale) {
    const Taps k = taps_of(scale);
    const MomentShifts sh = moment_shifts(s.bpc, scale);
    const std::size_t n = std::size_t(w) * h;
    std::vector<std::uint32_t> mx(n), my(n), mxx(n), myy(n), mxy(n);
    for (int row = 0; row < h; ++row)
      for (int col = 0; col < w; ++col) {
        const Moments m = vertical_moments_at(x, sx, y, sy, h, k, sh, col, row);
        const std::size_t i = std::size_t(row) * w + col;
        mx[i] = m.mx, my[i] = m.my, mxx[i] = m.mxx, myy[i] = m.myy, mxy[i] = m.mxy;
      }
    Accum a;
    for (int row = 0; row < h; ++row) {
      const std::size_t o = std::size_t(row) * w;
      const MomentRow r = {mx.data() + o, my.data() + o, mxx.data() + o, myy.data() + o, mxy.data() + o};
      for (int col = w - 1; col >= 0; --col) {
        const Sigmas sg = sigmas_at(r, w, k, col);
        accumulate_pixel(sg.s1, sg.s2, sg.s12, s.gain_limit, table, a);
      }
    }
    return a;
  };
  auto downsample = [&](const auto* x, std::ptrdiff_t stride, int w, int h, int from_scale) {
    const Taps k = taps_of(from_scale + 1);
    std::vector<std::uint32_t> v(std::size_t(w) * (h / 2));
    for (int r = 0; r < h / 2; ++r)
      for (int c = 0; c < w; ++c)
        v[std::size_t(r) * w + c] = downsample_vertical_at(x, stride, h, k, downsample_shift(s.bpc, from_scale), c, r);
    std::vector<std::uint16_t> out(std::size_t(w / 2) * (h / 2));
    for (int r = 0; r < h / 2; ++r)
      for (int c = 0; c < w / 2; ++c)
        out[std::size_t(r) * (w / 2) + c] = downsample_horizontal_at(v.data() + std::size_t(r) * w, w, k, c);
    return out;
  };
  std::array<Accum, kNumScales> sums{};
  int w = s.width, h = s.height;
  if (!s.skip_scale0) sums[0] = scale_sums(x0, sx0, y0, sy0, w, h, 0);
  std::vector<std::uint16_t> x = downsample(x0, sx0, w, h, 0), y = downsample(y0, sy0, w, h, 0);
  for (int scale = 1; scale < kNumScales; ++scale) {
    w /= 2;
    h /= 2;
    sums[scale] = scale_sums(x.data(), w, y.data(), w, w, h, scale);
    if (scale + 1 < kNumScales) {
      x = downsample(x.data(), w, w, h, scale);
      y = downsample(y.data(), w, w, h, scale);
    }
  }
  return sums;
}

// kWild: any 16-bit word in a 10/12-bit plane (samples of 2^bpc or more, which libvmaf accepts).
enum class Content { kRandom, kNoisyCopy, kCheckerMax, kMaxVsZero, kGradient, kFlat, kWild, kBlocksInverted };

template <class T>
void check(int w, int h, int bpc, Content c, double egl, bool skip, std::mt19937& rng) {
  SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bpc) + "-bit content " +
               std::to_string(int(c)) + " egl " + std::to_string(egl) + (skip ? " skip" : ""));
  const std::ptrdiff_t stride = w + 5;  // the twin reads planes with the host picture's stride
  const unsigned top = (1u << bpc) - 1;
  std::vector<T> x(std::size_t(stride) * h), y(x.size());
  std::uniform_int_distribution<unsigned> any(0, top);
  std::uniform_int_distribution<int> noise(-9, 9);
  for (int r = 0; r < h; ++r)
    for (int col = 0; col < w; ++col) {
      unsigned a = 0, b = 0;
      switch (c) {
        case Content::kRandom: a = any(rng), b = any(rng); break;
        case Content::kWild: a = unsigned(rng()) & 0xFFFFu, b = unsigned(rng()) & 0xFFFFu; break;
        // The twin harness's "extreme" pair: 7x5 blocks of 0 / max, the distorted picture inverted.
        case Content::kBlocksInverted: a = ((col / 7 + r / 5) & 1) ? top : 0, b = top - a; break;
        case Content::kNoisyCopy: a = any(rng), b = unsigned(std::clamp(int(a) + noise(rng), 0, int(top))); break;
        case Content::kCheckerMax: a = ((r + col) & 1) ? top : 0, b = ((r / 2 + col) & 1) ? top : 0; break;
        case Content::kMaxVsZero: a = top, b = (col % 7 == 0) ? top : 0; break;
        case Content::kGradient: a = unsigned(col * top / w), b = unsigned(r * top / h); break;
        case Content::kFlat: a = top / 3, b = top / 3 + 1; break;
      }
      x[std::size_t(r) * stride + col] = T(a);
      y[std::size_t(r) * stride + col] = T(b);
    }
  FrameSetup s;
  s.width = w, s.height = h, s.bpc = bpc, s.gain_limit = egl, s.skip_scale0 = skip;
  Workspace ws;
  const auto want = frame_sums(reference_kernels(), s, {x.data(), stride}, {y.data(), stride}, ws);
  const auto got = cells_sums<T>(s, x.data(), stride, y.data(), stride);
  for (int k = 0; k < kNumScales; ++k) {
    EXPECT_EQ(got[k].num_log, want[k].num_log) << "scale " << k;
    EXPECT_EQ(got[k].den_log, want[k].den_log) << "scale " << k;
    EXPECT_EQ(got[k].lin_sigma2, want[k].lin_sigma2) << "scale " << k;
    EXPECT_EQ(got[k].lin_count, want[k].lin_count) << "scale " << k;
  }
}

TEST(IntegerVifCells, FrameSumsEqualTheCpuAtEveryDepthSizeAndOption) {
  std::mt19937 rng(5);
  const Content contents[] = {Content::kRandom, Content::kNoisyCopy, Content::kCheckerMax,     Content::kMaxVsZero,
                              Content::kGradient, Content::kFlat,     Content::kBlocksInverted};
  for (int bpc : {8, 10, 12, 16})
    for (auto [w, h] : {std::pair{16, 16}, {17, 19}, {33, 35}, {64, 48}, {129, 95}})
      for (Content c : contents) {
        if (bpc == 8) check<std::uint8_t>(w, h, bpc, c, 100.0, false, rng);
        else check<std::uint16_t>(w, h, bpc, c, 100.0, false, rng);
      }
  // The CPU takes its reference kernels for such frames (libvmaf's 16-bit means and downsampled rows).
  for (int bpc : {10, 12})
    for (auto [w, h] : {std::pair{16, 16}, {33, 35}, {129, 95}}) check<std::uint16_t>(w, h, bpc, Content::kWild, 100.0, false, rng);
  for (double egl : {1.0, 1.5, 2.5})
    for (bool skip : {false, true}) {
      check<std::uint8_t>(176, 144, 8, Content::kNoisyCopy, egl, skip, rng);
      check<std::uint16_t>(99, 70, 10, Content::kNoisyCopy, egl, skip, rng);
      check<std::uint16_t>(41, 37, 16, Content::kRandom, egl, skip, rng);
    }
}

}  // namespace
}  // namespace vqtwin::integer_vif
