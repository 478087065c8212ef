// integer motion's per-output functions of the CUDA twin (features/integer_motion/cells.hpp), run
// on the host as the twin's kernels run them (V of every sample, then |X| per row, uint32 row totals
// in uint64), against the CPU reference's SAD (the portable and the selected kernels of sad.cpp).
#include <gtest/gtest.h>

#include <vector>

#include "common/cpu.hpp"
#include "features/integer_motion/cells.hpp"
#include "features/integer_motion/sad.hpp"
#include "motion_test_util.hpp"

namespace vqtwin::test {
namespace {

// The twin's two kernels, as plain loops (any order gives the same integers).
template <class T>
std::uint64_t cells_sad(const Picture& prev, const Picture& cur) {
  const int w = cur.width(0), h = cur.height(0), bpc = cur.format().bitdepth;
  std::vector<std::int32_t> v(std::size_t(w) * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      v[std::size_t(y) * w + x] = integer_motion::vertical_at(prev.row<T>(0, 0), prev.stride(0), cur.row<T>(0, 0),
                                                               cur.stride(0), h, bpc, x, y);
  std::uint64_t sad = 0;
  for (int y = 0; y < h; ++y) {
    std::uint64_t row = 0;
    for (int x = w - 1; x >= 0; --x) row += integer_motion::horizontal_abs_at(v.data() + std::size_t(y) * w, w, x);
    sad += integer_motion::row_total(row);
  }
  return sad;
}

std::uint64_t cells_sad_of(const Picture& prev, const Picture& cur) {
  return cur.format().bitdepth > 8 ? cells_sad<std::uint16_t>(prev, cur) : cells_sad<std::uint8_t>(prev, cur);
}

std::uint64_t cpu_sad(const Picture& prev, const Picture& cur, const integer_motion::SadKernels& k) {
  integer_motion::DiffBlurSad sad(cur.width(0), cur.height(0), cur.format().bitdepth, k);
  if (cur.format().bitdepth > 8) {
    // As the extractor: 64-bit vertical sums when a sample is 2^bpc or more.
    std::uint32_t any = 0;
    for (const Picture* p : {&prev, &cur})
      for (int y = 0; y < p->height(0); ++y)
        for (int x = 0; x < p->width(0); ++x) any |= p->row<std::uint16_t>(0, y)[x];
    return sad(prev.row<std::uint16_t>(0, 0), prev.stride(0), cur.row<std::uint16_t>(0, 0), cur.stride(0),
               (any >> cur.format().bitdepth) != 0);
  }
  return sad(prev.row<std::uint8_t>(0, 0), prev.stride(0), cur.row<std::uint8_t>(0, 0), cur.stride(0));
}

void expect_same_sad(const Picture& a, const Picture& b) {
  const std::uint64_t want = cpu_sad(a, b, integer_motion::sad_kernels_for(0));
  EXPECT_EQ(cells_sad_of(a, b), want);
  EXPECT_EQ(cpu_sad(a, b, integer_motion::sad_kernels_for(cpu::flags())), want);
}

TEST(IntegerMotionCells, SadEqualsTheCpuAtEveryDepthAndSize) {
  std::mt19937 rng(11);
  for (int bpc : {8, 9, 10, 12, 15, 16})
    for (auto [w, h] : {std::pair{3, 3}, {4, 3}, {3, 7}, {5, 4}, {37, 19}, {64, 9}, {161, 91}}) {
      SCOPED_TRACE(std::to_string(bpc) + "-bit " + std::to_string(w) + "x" + std::to_string(h));
      const PictureFormat f = format(w, h, bpc);
      const unsigned top = (1u << bpc) - 1;
      const Picture a = random_picture(f, rng), b = random_picture(f, rng);
      const Picture zero = make_picture(f, [](int, int, int) { return 0u; });
      const Picture edges = make_picture(f, [&](int, int x, int y) { return (x + y) % 3 ? top : 0u; });
      const Picture ramp = make_picture(f, [&](int, int x, int y) { return unsigned(x * 7 + y * 3) & top; });
      expect_same_sad(a, b);
      expect_same_sad(b, a);
      expect_same_sad(zero, edges);
      expect_same_sad(edges, zero);
      expect_same_sad(ramp, a);
      EXPECT_EQ(cells_sad_of(a, a), 0u);
    }
}

TEST(IntegerMotionCells, SadEqualsTheCpuWithSamplesOutOfRange) {
  // 10/12-bit words holding any 16-bit value (libvmaf accepts them; the CPU then sums in 64 bits).
  std::mt19937 rng(12);
  for (int bpc : {10, 12})
    for (auto [w, h] : {std::pair{3, 3}, {37, 19}, {161, 91}}) {
      SCOPED_TRACE(std::to_string(bpc) + "-bit " + std::to_string(w) + "x" + std::to_string(h));
      const PictureFormat f = format(w, h, bpc);
      const Picture a = make_picture(f, [&](int, int, int) { return unsigned(rng()) & 0xFFFFu; });
      const Picture b = make_picture(f, [&](int, int, int) { return unsigned(rng()) & 0xFFFFu; });
      expect_same_sad(a, b);
    }
}

TEST(IntegerMotionCells, RowTotalsWrapAtThirtyTwoBitsAsTheCpus) {
  // Rows of 70000 extreme 16-bit samples: each row's |X| sum passes 2^32 and wraps in both.
  const PictureFormat f = format(70000, 3, 16);
  const Picture zero = make_picture(f, [](int, int, int) { return 0u; });
  const Picture top = make_picture(f, [](int, int, int) { return 65535u; });
  const std::uint64_t want = cpu_sad(zero, top, integer_motion::sad_kernels_for(0));
  EXPECT_EQ(cells_sad_of(zero, top), want);
  std::uint64_t unwrapped = 0;  // what a 64-bit row sum would give: different, so the test can fail
  for (int x = 0; x < 70000; ++x) unwrapped += 65535;  // |X| = 65535 everywhere (a flat difference)
  EXPECT_NE(want, 3 * unwrapped);
  EXPECT_EQ(want, 3 * std::uint64_t(std::uint32_t(unwrapped)));
}

}  // namespace
}  // namespace vqtwin::test
