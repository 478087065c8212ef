// float_motion's per-output functions of the CUDA twin (features/float_motion/cells.hpp), run on the
// host in the twin's order (per row the vertical pass, the horizontal pass and |blur - previous| per
// column, the row's SAD in column order; the half-size planes one output at a time), against the CPU
// reference's blurred planes and SAD totals (the portable kernels), bit for bit.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "features/float_motion/blur.hpp"
#include "features/float_motion/cells.hpp"
#include "motion_test_util.hpp"

namespace vqtwin::float_motion {
namespace {

std::uint32_t bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// The twin's blur of plane p (w x h region) into `out`, with the row SADs against `prev` (if any).
template <class T>
float cells_blur(const Picture& pic, int p, int w, int h, const BlurTaps& t, float* out, const float* prev) {
  const T* plane = pic.row<T>(p, 0);
  const std::ptrdiff_t stride = pic.stride(p);
  const float scale = luma_scale(pic.format().bitdepth);
  std::vector<float> vert(static_cast<std::size_t>(w)), diff(static_cast<std::size_t>(w)),
      rows(static_cast<std::size_t>(h));
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) vert[std::size_t(x)] = t.identity ? 0.0f : vertical_at(plane, stride, h, scale, t, x, y);
    for (int x = w - 1; x >= 0; --x) {  // any column order: each output is independent
      const float v = t.identity ? sample_at(plane, stride, scale, x, y) : horizontal_at(vert.data(), w, t, x);
      out[std::size_t(y) * w + x] = v;
      if (prev) diff[std::size_t(x)] = std::fabs(v - prev[std::size_t(y) * w + x]);
    }
    if (prev) rows[std::size_t(y)] = rows_in_order(diff.data(), w);  // the device thread's loop
  }
  return prev ? rows_in_order(rows.data(), h) : 0.0f;
}

void check(int w, int h, int bpc, ChromaFormat c, int filter_size, std::mt19937& rng) {
  SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bpc) + "-bit filter " +
               std::to_string(filter_size));
  const PictureFormat f = test::format(w, h, bpc, c);
  const unsigned top = (1u << bpc) - 1;
  std::uniform_int_distribution<int> noise(-20, 20);
  const Picture a = test::random_picture(f, rng);
  const Picture b = test::make_picture(f, [&](int p, int x, int y) {
    return unsigned(std::clamp(int(test::sample(a, p, x, y)) + noise(rng) * int(1u << (bpc - 8)), 0, int(top)));
  });
  const BlurTaps t = blur_taps(filter_size);
  for (int p = 0; p < f.num_planes(); ++p) {
    const int pw = f.scored_width(p), ph = f.scored_height(p);
    if (pw < 3 || ph < 3) continue;
    const std::size_t n = std::size_t(pw) * ph;
    std::vector<float> cpu_a(n), cpu_b(n), dev_a(n), dev_b(n);
    PlaneBlur blur(pw, ph, filter_size, kernels_for(0));
    blur.run(a, p, cpu_a.data(), nullptr);
    const float want = blur.run(b, p, cpu_b.data(), cpu_a.data());
    float got = 0;
    if (bpc > 8) {
      cells_blur<std::uint16_t>(a, p, pw, ph, t, dev_a.data(), nullptr);
      got = cells_blur<std::uint16_t>(b, p, pw, ph, t, dev_b.data(), dev_a.data());
    } else {
      cells_blur<std::uint8_t>(a, p, pw, ph, t, dev_a.data(), nullptr);
      got = cells_blur<std::uint8_t>(b, p, pw, ph, t, dev_b.data(), dev_a.data());
    }
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(bits(dev_b[i]), bits(cpu_b[i])) << "plane " << p << " sample " << i;
    EXPECT_EQ(bits(got), bits(want)) << "plane " << p;
    // motion_add_scale1: the half-size planes and their SAD.
    const HalfResampler half(pw, ph);
    const int dw = half.width(), dh = half.height();
    std::vector<float> ha(std::size_t(dw) * dh), hb(ha.size()), ga(ha.size()), gb(ha.size());
    half.run(cpu_a.data(), ha.data());
    half.run(cpu_b.data(), hb.data());
    for (int y = 0; y < dh; ++y)
      for (int x = 0; x < dw; ++x) {
        ga[std::size_t(y) * dw + x] = half_at(dev_a.data(), pw, ph, dw, dh, x, y);
        gb[std::size_t(y) * dw + x] = half_at(dev_b.data(), pw, ph, dw, dh, x, y);
      }
    for (std::size_t i = 0; i < ha.size(); ++i) ASSERT_EQ(bits(gb[i]), bits(hb[i])) << "half plane " << p << " " << i;
    std::vector<float> rows(static_cast<std::size_t>(dh));
    for (int y = 0; y < dh; ++y)
      rows[std::size_t(y)] = row_sad(gb.data() + std::size_t(y) * dw, ga.data() + std::size_t(y) * dw, dw);
    EXPECT_EQ(bits(rows_in_order(rows.data(), dh)), bits(sad_total(hb.data(), ha.data(), dw, dh, kernels_for(0))))
        << "half plane " << p;
  }
}

TEST(FloatMotionCells, BlurAndSadEqualTheCpu) {
  std::mt19937 rng(31);
  for (int bpc : {8, 10, 12, 16})
    for (auto [w, h] : {std::pair{3, 3}, {7, 5}, {33, 35}, {161, 91}})
      for (int fs : {1, 3, 5}) check(w, h, bpc, ChromaFormat::k420, fs, rng);
  check(853, 481, 8, ChromaFormat::k444, 5, rng);
  check(177, 99, 10, ChromaFormat::k422, 5, rng);
}

}  // namespace
}  // namespace vqtwin::float_motion
