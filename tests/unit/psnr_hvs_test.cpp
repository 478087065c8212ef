// psnr_hvs against a hand-computed case (a DC-only difference, derived on paper from Daala's lifting
// steps), the block layout, and its vector path against the one-block scalar path bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "features/psnr_hvs/math.hpp"
#include "motion_test_util.hpp"
#include "vqtwin/error.hpp"

// The vector block code is instantiated and inlined in this file only (see cells.hpp).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace vqtwin::test {
namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

std::map<std::string, double> hvs_of(const Picture& r, const Picture& d) {
  auto e = make_extractor("psnr_hvs");
  RecordingSink sink;
  e->init(r.format());
  e->extract(r, d, 0, sink);
  EXPECT_EQ(sink.names(), (std::vector<std::string>{"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"}));
  std::map<std::string, double> out;
  for (const Put& p : sink.puts) out[p.name] = p.value;
  return out;
}

TEST(PsnrHvs, HandComputedFlatDifference) {
  // Flat luma 100 vs 104 (16x16: blocks at x, y = 0 and 7), equal chroma. Daala's 8x8 DCT of a flat
  // block of v is 8v at DC and 0 elsewhere (worked through its lifting steps by hand: the first pass
  // gives 283 for v = 100 and 294 for v = 104, the second 800 and 832). So every block has one term,
  // (32 * csf_y[0])^2, no masking (no AC energy); 4 blocks of 64 samples.
  const PictureFormat f = format(16, 16, 8, ChromaFormat::k444);
  const Picture a = make_picture(f, [](int p, int, int) { return p ? 77u : 100u; });
  const Picture b = make_picture(f, [](int p, int, int) { return p ? 77u : 104u; });
  const float term = (32.0f * 1.6193873005f) * (32.0f * 1.6193873005f);
  float total = 0;
  for (int i = 0; i < 4; ++i) total += term;
  const float score = total / 256.0f / float(255 * 255);
  auto v = hvs_of(a, b);
  EXPECT_TRUE(same_bits(v["psnr_hvs_y"], 10 * (-1 * std::log10(double(score)))));
  EXPECT_NEAR(v["psnr_hvs_y"], 31.9026, 1e-4);
  EXPECT_TRUE(std::isinf(v["psnr_hvs_cb"]) && std::isinf(v["psnr_hvs_cr"]));  // no difference: 10 * -log10(0)
  EXPECT_TRUE(same_bits(v["psnr_hvs"], 10 * (-1 * std::log10(double(score) * .8 + .1 * (0.0 + 0.0)))));
}

TEST(PsnrHvs, BlocksStepBySevenWhileAWholeBlockFits) {
  EXPECT_EQ(psnr_hvs::block_count(7), 0);
  EXPECT_EQ(psnr_hvs::block_count(8), 1);
  EXPECT_EQ(psnr_hvs::block_count(14), 1);
  EXPECT_EQ(psnr_hvs::block_count(15), 2);
  EXPECT_EQ(psnr_hvs::block_count(1920), 274);  // x = 0, 7, ..., 1911 (1911 < 1913)
  // A difference in the last column of a 15-wide plane is seen by the second block (x = 7); in a 14-wide
  // plane no block reaches column 13, so the pictures score as identical (+inf dB).
  for (int w : {14, 15}) {
    const PictureFormat f = format(w, 8, 8, ChromaFormat::k444);
    const Picture a = make_picture(f, [](int, int, int) { return 50u; });
    const Picture b = make_picture(f, [&](int p, int x, int) { return p == 0 && x == w - 1 ? 90u : 50u; });
    EXPECT_EQ(std::isinf(hvs_of(a, b)["psnr_hvs_y"]), w == 14) << w;
  }
}

// Each lane of the vector block code equals the scalar code for that block, bit for bit.
TEST(PsnrHvs, VectorLanesEqualTheScalarBlock) {
  using namespace psnr_hvs;
  std::mt19937 rng(7);
  for (int bpc : {8, 10, 12})
    for (int plane = 0; plane < 3; ++plane) {
      const Tables t = make_tables(csf_of(plane));
      for (int round = 0; round < 40; ++round) {
        const std::int32_t max = (1 << bpc) - 1;
        std::int32_t s[kLanes][64], d[kLanes][64];
        for (int l = 0; l < kLanes; ++l)
          for (int k = 0; k < 64; ++k) {
            // Mixtures of noise, flat blocks, extremes and small differences.
            const int kind = (round + l) % 4;
            s[l][k] = kind == 0 ? std::int32_t(rng() % (max + 1)) : kind == 1 ? max / 3 : kind == 2 ? (k & 1) * max : k * 9 % (max + 1);
            d[l][k] = kind == 3 ? s[l][k] : std::clamp<std::int32_t>(s[l][k] + std::int32_t(rng() % 9) - 4, 0, max);
          }
        VInt vs[64], vd[64];
        for (int k = 0; k < 64; ++k)
          for (int l = 0; l < kLanes; ++l) vs[k][l] = s[l][k], vd[k][l] = d[l][k];
        VFloat vt[64];
        block_terms<VInt, VFloat>(vs, vd, t, vt);
        for (int l = 0; l < kLanes; ++l) {
          float st[64];
          block_terms<std::int32_t, float>(s[l], d[l], t, st);
          for (int k = 0; k < 64; ++k) ASSERT_TRUE(same_bits(float(vt[k][l]), st[k])) << bpc << " " << l << " " << k;
        }
      }
    }
}

TEST(PsnrHvs, Refusals) {
  EXPECT_THROW(make_extractor("psnr_hvs")->init(format(64, 64, 16)), Error);  // libvmaf: bpc <= 12
  EXPECT_THROW(make_extractor("psnr_hvs")->init(format(64, 64, 8, ChromaFormat::k400)), Error);
  EXPECT_THROW(make_extractor("psnr_hvs")->init(format(15, 64)), Error);  // 4:2:0 chroma 7 wide
  EXPECT_THROW(make_extractor("psnr_hvs")->init(format(7, 7, 8, ChromaFormat::k444)), Error);
  EXPECT_NO_THROW(make_extractor("psnr_hvs")->init(format(16, 16)));
  EXPECT_NO_THROW(make_extractor("psnr_hvs")->init(format(17, 17, 12)));
}

}  // namespace
}  // namespace vqtwin::test
