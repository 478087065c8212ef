// speed's per-output functions of the CUDA twin (features/speed/cells.hpp), run on the host in the
// twin's arrangement (samples to float, the prescale through prescaled_at, the vertical pass at the
// kept rows, then the horizontal pass at the kept columns), against the CPU reference's
// Speed::decimate, bit for bit, over kernel scales, prescale methods and bit depths.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "features/float_vif/cells.hpp"
#include "features/float_vif/prescale.hpp"
#include "features/speed/cells.hpp"
#include "features/speed/core.hpp"
#include "features/speed/front.hpp"

namespace vqtwin::speed {
namespace {

std::uint32_t bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// The twin's Decimator (cuda.cu) as plain loops.
FloatPlane cells_decimate(const Speed& s, const FloatPlane& plane) {
  const Dimensions& d = s.dims();
  FloatPlane src = plane;
  if (s.resizes()) {
    const float rx = float(d.w) / float(d.scaled_w), ry = float(d.h) / float(d.scaled_h);
    const std::vector<float_vif::LanczosAxis> ax = float_vif::lanczos_axes(d.scaled_w, rx);
    const std::vector<float_vif::LanczosAxis> ay = float_vif::lanczos_axes(d.scaled_h, ry);
    src.resize(d.scaled_w, d.scaled_h);
    for (int y = 0; y < d.scaled_h; ++y)
      for (int x = 0; x < d.scaled_w; ++x)
        src.row(y)[x] = float_vif::prescaled_at(s.options().prescale_method, plane.px.data(), d.w, d.h, rx, ry,
                                                ax.data(), ay.data(), x, y);
  }
  const std::vector<float>& f = s.antialias();
  const int taps = int(f.size()), sw = d.scaled_w, sh = d.scaled_h;
  std::vector<float> cols(std::size_t(d.down_h) * std::size_t(sw));
  for (int i = 0; i < d.down_h; ++i)
    for (int x = sw - 1; x >= 0; --x)  // any order: each output is independent
      cols[std::size_t(i) * std::size_t(sw) + std::size_t(x)] =
          cells::column_at(src.px.data(), sw, sh, f.data(), taps, i * cells::kStep, x);
  FloatPlane out;
  out.resize(d.down_w, d.down_h);
  for (int i = 0; i < d.down_h; ++i)
    for (int j = 0; j < d.down_w; ++j)
      out.row(i)[j] =
          cells::row_at(cols.data() + std::size_t(i) * std::size_t(sw), sw, f.data(), taps, j * cells::kStep);
  return out;
}

struct Case {
  double ks, ps;
  float_vif::PrescaleMethod method;
  int bitdepth, w, h;
};

TEST(SpeedCells, DecimateMatchesCpu) {
  using M = float_vif::PrescaleMethod;
  const Case cases[] = {
      {1.0, 1.0, M::kNearest, 8, 176, 144},   {0.5, 1.0, M::kNearest, 10, 200, 96},
      {2.0, 1.0, M::kNearest, 12, 250, 170},  {4.0, 1.0, M::kNearest, 16, 330, 181},
      {1.0, 0.6, M::kBilinear, 8, 301, 200},  {1.0, 0.5, M::kBicubic, 10, 352, 288},
      {1.0, 1.5, M::kLanczos4, 8, 97, 83},    {1.0, 2.0, M::kNearest, 16, 90, 81},
      {1.0, 1.0005, M::kBilinear, 8, 160, 90},
  };
  std::mt19937 rng(7);
  for (const Case& c : cases) {
    Options o;
    o.kernelscale = c.ks;
    o.prescale = c.ps;
    o.prescale_method = c.method;
    const Speed s(o, make_dimensions(c.w, c.h, c.ps, "test"));
    // A plane as the twin converts it (cells::to_float) from random samples of the bit depth.
    FloatPlane plane;
    plane.resize(c.w, c.h);
    const float scaler = sample_scaler(c.bitdepth);
    std::uniform_int_distribution<int> sample(0, (1 << c.bitdepth) - 1);
    for (float& v : plane.px)
      v = c.bitdepth == 8 ? cells::to_float(std::uint8_t(sample(rng)), scaler)
                          : cells::to_float(std::uint16_t(sample(rng)), scaler);
    FloatPlane cpu, scratch;
    s.decimate(plane, cpu, scratch);
    const FloatPlane twin = cells_decimate(s, plane);
    ASSERT_EQ(cpu.w, twin.w);
    ASSERT_EQ(cpu.h, twin.h);
    for (int y = 0; y < cpu.h; ++y)
      for (int x = 0; x < cpu.w; ++x)
        ASSERT_EQ(bits(cpu.row(y)[x]), bits(twin.row(y)[x]))
            << "ks " << c.ks << " ps " << c.ps << " at (" << x << ", " << y << ")";
  }
}

// The split the twin relies on: decimate, then score_decimated, is score().
TEST(SpeedCells, ScoreIsDecimateThenScoreDecimated) {
  Options o;
  const Speed s(o, make_dimensions(320, 240, 1.0, "test"));
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> v(-128.0f, 127.0f);
  FloatPlane ref, dis, a, b, scratch;
  ref.resize(320, 240);
  dis.resize(320, 240);
  for (std::size_t i = 0; i < ref.px.size(); ++i) {
    ref.px[i] = v(rng);
    dis.px[i] = ref.px[i] * 0.5f + v(rng) * 0.25f;
  }
  const float whole = s.score(ref, dis, a, b, scratch);
  FloatPlane da, db;
  s.decimate(ref, da, scratch);
  s.decimate(dis, db, scratch);
  EXPECT_EQ(bits(whole), bits(s.score_decimated(da, db)));
  EXPECT_NE(whole, 0.0f);
}

}  // namespace
}  // namespace vqtwin::speed
