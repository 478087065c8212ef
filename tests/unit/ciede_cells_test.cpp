// ciede's certified cells (features/ciede/cells.hpp), the per-pixel form the CUDA twin runs, on the host
// against math.hpp's scalar functions (the C library's calls): every value a cell calls certain must be the
// scalar one, bit for bit, on random and video-like colours and on every differing pixel of the first frame
// of each shared fixture. The share of pixels left to the fallback is printed.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>

#include "../support/ciede_pairs.hpp"
#include "../support/golden_support.hpp"
#include "features/ciede/cells.hpp"
#include "features/ciede/front.hpp"
#include "features/ciede/math.hpp"
#include "io/picture_source.hpp"

namespace vqtwin::test {
namespace {

using ciede::Lab;

std::uint32_t bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
bool same(const Lab& a, const Lab& b) { return bits(a.l) == bits(b.l) && bits(a.a) == bits(b.a) && bits(a.b) == bits(b.b); }

// The constants the cells write for the library's folded calls.
TEST(CiedeCells, ConstantsAreTheLibrarys) {
  volatile float x = 25.f;
  volatile double y = 25.0;
  EXPECT_EQ(bits(powf(x, 7)), bits(ciede::cells::kPow25_7f));
  EXPECT_EQ(pow(y, 7), ciede::cells::kPow25_7);
}

TEST(CiedeCells, ToLabEqualsScalar) {
  long uncertain = 0, total = 0;
  // One colour: the cells' L*a*b* equals the scalar reference's wherever the cells call it certain.
  auto check = [&](unsigned y, unsigned u, unsigned v, unsigned bpc, const char* kind) -> ::testing::AssertionResult {
    ++total;
    int good = 1;
    const Lab lab = ciede::cells::to_lab(y, u, v, bpc, good);
    if (!good) ++uncertain;
    if (!good || same(lab, ciede::to_lab(y, u, v, bpc))) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << bpc << kind << ": " << y << " " << u << " " << v;
  };
  for (unsigned c = 0; c < (1u << 24); c += 7) ASSERT_TRUE(check(c >> 16, (c >> 8) & 255, c & 255, 8, ""));
  std::mt19937 rng(5);
  for (unsigned bpc : {10u, 12u, 16u})
    for (int k = 0; k < 200000; ++k) {
      const unsigned max = (1u << bpc) - 1, y = rng() & max, u = rng() & max, v = rng() & max;
      ASSERT_TRUE(check(y, u, v, bpc, ""));
    }
  // Wild colours: any 16-bit word at 10 and 12 bits (the twin meets them; linear values up to 4e5).
  for (unsigned bpc : {10u, 12u})
    for (int k = 0; k < 200000; ++k) {
      const unsigned r = rng();
      const unsigned y = r % 3 == 0 ? 65535u : rng() & 65535u, u = r % 5 == 0 ? 65535u : rng() & 65535u, v = rng() & 65535u;
      ASSERT_TRUE(check(y, u, v, bpc, " (wild)"));
    }
  std::printf("ciede cells: %ld of %ld colours uncertain (%.3f %%)\n", uncertain, total, 100.0 * uncertain / total);
}

// The twin's per-pixel form (cells::difference) on pairs of wild colours (any 16-bit word at 10 and 12 bits,
// any sample at 8 and 16) against the scalar reference.
TEST(CiedeCells, WildDifferenceEqualsScalar) {
  std::mt19937 rng(41);
  long uncertain = 0, total = 0;
  for (unsigned bpc : {8u, 10u, 12u, 16u})
    for (int k = 0; k < 50000; ++k, ++total) {
      const unsigned word = bpc == 8 ? 255u : 65535u;
      unsigned s[6];
      for (unsigned& x : s) x = rng() % 3 == 0 ? word : rng() & word;
      int good = 1;
      const float d = ciede::cells::difference(s[0], s[1], s[2], s[3], s[4], s[5], bpc, good);
      if (!good) {
        ++uncertain;
        continue;
      }
      const float want = ciede::ciede2000(ciede::to_lab(s[0], s[1], s[2], bpc), ciede::to_lab(s[3], s[4], s[5], bpc));
      ASSERT_EQ(bits(d), bits(want)) << bpc << ": " << s[0] << " " << s[1] << " " << s[2] << " / " << s[3] << " " << s[4]
                                     << " " << s[5];
    }
  std::printf("ciede cells: %ld of %ld wild pairs uncertain (%.3f %%)\n", uncertain, total, 100.0 * uncertain / total);
}


// Random L*a*b* (axes, neutral and opposite hues) and video-like pairs; `plant`: the twin's planted bug.
long difference_mismatches(bool plant, long& uncertain, long& total) {
  std::mt19937 rng(29);
  long mismatches = 0;
  auto one = [&](const Lab& a, const Lab& b) {
    int good = 1;
    const float d = plant ? ciede::cells::ciede2000<true>(a, b, good) : ciede::cells::ciede2000(a, b, good);
    ++total;
    if (!good) return void(++uncertain);
    mismatches += bits(d) != bits(ciede::ciede2000(a, b));
  };
  for (int k = 0; k < 100000; ++k) {
    const Lab a = random_lab(rng);
    Lab b = rng() % 7 == 0 ? a : random_lab(rng);
    if (rng() % 5 == 0) b = {a.l, -a.a, -a.b};
    one(a, b);
  }
  for (unsigned bpc : {8u, 10u, 16u})
    for (int k = 0; k < 100000; ++k) {
      Lab a, b;
      video_like_pair(rng, bpc, a, b);
      one(a, b);
    }
  return mismatches;
}

TEST(CiedeCells, DifferenceEqualsScalar) {
  long uncertain = 0, total = 0;
  EXPECT_EQ(difference_mismatches(false, uncertain, total), 0);
  std::printf("ciede cells: %ld of %ld pairs uncertain (%.3f %%)\n", uncertain, total, 100.0 * uncertain / total);
}

// The twin's planted bug (ciede_cuda_short_sin) gives other bits than the library here too.
TEST(CiedeCells, PlantedShortSineDiffers) {
  long uncertain = 0, total = 0;
  EXPECT_GT(difference_mismatches(true, uncertain, total), 0);
}

// Every differing pixel of a fixture frame: the cells as the twin runs them (cells::difference) against front.hpp's scalar pixel_difference (what the twin's host fallback computes).
template <class T>
void check_frame(const Picture& ref, const Picture& dist, long& differing, long& uncertain) {
  const PictureFormat& f = ref.format();
  const ciede::ChromaMap map = ciede::accept(f);
  const unsigned bpc = unsigned(f.bitdepth);
  for (int y = 0; y < f.height; ++y) {
    const ciede::ChromaRow cr = map.row(y);
    for (int x = 0; x < f.width; ++x) {
      const unsigned ry = ref.row<T>(0, y)[x], ru = map.sample<T>(ref, 1, cr, x), rv = map.sample<T>(ref, 2, cr, x);
      const unsigned dy = dist.row<T>(0, y)[x], du = map.sample<T>(dist, 1, cr, x), dv = map.sample<T>(dist, 2, cr, x);
      if (ry == dy && ru == du && rv == dv) continue;
      ++differing;
      int good = 1;
      const float d = ciede::cells::difference(ry, ru, rv, dy, du, dv, bpc, good);
      if (!good) {
        ++uncertain;
        continue;
      }
      ASSERT_EQ(bits(d), bits(ciede::pixel_difference<T>(map, ref, dist, x, y))) << x << "," << y;
    }
  }
}

// The first frame of each pair (CI time; every staged frame runs on the device through the harness and CLI).
TEST(CiedeCells, FixtureFramesEqualScalar) {
  constexpr int kFrames = 1;
  const char* pairs[] = {"sd_576x324_8bit_420", "odd_853x480_8bit_444", "hd_1280x720_10bit_420", "hd_1280x720_8bit_444"};
  int checked = 0;
  for (const char* pair : pairs) {
    const auto [rp, dp] = inputs_of(pair);
    if (!std::filesystem::exists(rp) || !std::filesystem::exists(dp)) continue;
    auto rs = open_picture_source(rp, {}), ds = open_picture_source(dp, {});
    Picture ref(rs->format()), dist(ds->format());
    long differing = 0, uncertain = 0, pixels = 0;
    for (int frame = 0; frame < kFrames && rs->read(ref) && ds->read(dist); ++frame) {
      pixels += long(ref.format().width) * ref.format().height;
      if (ref.format().bitdepth == 8) check_frame<std::uint8_t>(ref, dist, differing, uncertain);
      else check_frame<std::uint16_t>(ref, dist, differing, uncertain);
      if (HasFatalFailure()) return;
    }
    std::printf("ciede cells, %s (%d frame): %ld pixels, %ld differ, %ld uncertain (%.3f %% of the differing)\n", pair,
                kFrames, pixels, differing, uncertain, differing ? 100.0 * uncertain / differing : 0.0);
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "no decoded fixtures";
}

}  // namespace
}  // namespace vqtwin::test
