// Integer motion (`motion`) against a plain transcription of the spec (spec: integer_motion.md): int64
// everywhere, floor division written out, mirrored indices per tap, the flush rules of §5 written
// frame by frame.
#include <gtest/gtest.h>

#include <cstring>

#include "features/integer_motion/math.hpp"
#include "features/integer_motion/sad.hpp"
#include "motion_test_util.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::test {
namespace {

std::int64_t floor_div(std::int64_t a, std::int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
int refl(int i, int n) { return i < 0 ? -i : i >= n ? 2 * n - 2 - i : i; }

std::uint64_t reference_sad(const Picture& prev, const Picture& cur) {
  const int w = cur.width(0), h = cur.height(0), bpc = cur.format().bitdepth;
  const std::int64_t f[5] = {3571, 16004, 26386, 16004, 3571};
  std::uint64_t sad = 0;
  std::vector<std::int64_t> v(w);
  for (int i = 0; i < h; ++i) {
    for (int j = 0; j < w; ++j) {
      std::int64_t acc = 0;
      for (int k = 0; k < 5; ++k) {
        const int r = refl(i - 2 + k, h);
        acc += f[k] * (std::int64_t(sample(prev, 0, j, r)) - std::int64_t(sample(cur, 0, j, r)));
      }
      v[j] = floor_div(acc + (std::int64_t(1) << (bpc - 1)), std::int64_t(1) << bpc);
    }
    std::uint32_t row = 0;
    for (int j = 0; j < w; ++j) {
      std::int64_t acc = 0;
      for (int k = 0; k < 5; ++k) acc += f[k] * v[refl(j - 2 + k, w)];
      const std::int64_t x = floor_div(acc + 32768, 65536);
      row += std::uint32_t(x < 0 ? -x : x);
    }
    sad += row;
  }
  return sad;
}

// Through the portable kernels; tests/cpu_check holds every other variant to them.
std::uint64_t sad_of(const Picture& prev, const Picture& cur,
                     const integer_motion::SadKernels& k = integer_motion::sad_kernels_for(0)) {
  integer_motion::DiffBlurSad sad(cur.width(0), cur.height(0), cur.format().bitdepth, k);
  if (cur.format().bitdepth > 8)
    return sad(prev.row<std::uint16_t>(0, 0), prev.stride(0), cur.row<std::uint16_t>(0, 0), cur.stride(0));
  return sad(prev.row<std::uint8_t>(0, 0), prev.stride(0), cur.row<std::uint8_t>(0, 0), cur.stride(0));
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(IntegerMotion, SadMatchesTheReferenceAtEveryDepthAndSize) {
  std::mt19937 rng(1);
  for (int bpc : {8, 9, 10, 12, 15, 16})
    for (auto [w, h] : {std::pair{3, 3}, {5, 4}, {37, 19}, {64, 9}, {3, 40}}) {
      SCOPED_TRACE(std::to_string(bpc) + "-bit " + std::to_string(w) + "x" + std::to_string(h));
      const PictureFormat f = format(w, h, bpc);
      const Picture a = random_picture(f, rng), b = random_picture(f, rng);
      EXPECT_EQ(sad_of(a, b), reference_sad(a, b));
      EXPECT_EQ(sad_of(b, a), reference_sad(b, a));
      EXPECT_EQ(sad_of(a, a), 0u);
      // Extremes: 0 against the largest sample, the widest accumulators.
      const unsigned top = (1u << bpc) - 1;
      const Picture lo = make_picture(f, [](int, int, int) { return 0u; });
      const Picture hi = make_picture(f, [&](int, int x, int y) { return (x + y) % 3 ? top : 0u; });
      EXPECT_EQ(sad_of(lo, hi), reference_sad(lo, hi));
      EXPECT_EQ(sad_of(hi, lo), reference_sad(hi, lo));
    }
}

TEST(IntegerMotion, NegativeDifferencesUseFloorShifts) {
  // The same SAD with C's truncating division in place of the floor shifts differs on ordinary
  // content (spec §3: 198 of 204 golden scores), so the equality above does check the shifts.
  std::mt19937 rng(9);
  const PictureFormat f = format(16, 12);
  const Picture a = random_picture(f, rng), b = random_picture(f, rng);
  const int w = 16, h = 12;
  const std::int64_t taps[5] = {3571, 16004, 26386, 16004, 3571};
  std::uint64_t truncated = 0;
  for (int i = 0; i < h; ++i) {
    std::vector<std::int64_t> v(w);
    for (int j = 0; j < w; ++j) {
      std::int64_t acc = 0;
      for (int k = 0; k < 5; ++k)
        acc += taps[k] * (std::int64_t(sample(a, 0, j, refl(i - 2 + k, h))) - sample(b, 0, j, refl(i - 2 + k, h)));
      v[j] = (acc + 128) / 256;
    }
    for (int j = 0; j < w; ++j) {
      std::int64_t acc = 0;
      for (int k = 0; k < 5; ++k) acc += taps[k] * v[refl(j - 2 + k, w)];
      const std::int64_t x = (acc + 32768) / 65536;
      truncated += std::uint64_t(x < 0 ? -x : x);
    }
  }
  EXPECT_EQ(sad_of(a, b), reference_sad(a, b));
  EXPECT_NE(sad_of(a, b), truncated);
}

TEST(IntegerMotion, FrameScoreFromTheGoldenWorkedValues) {
  // spec §6: sd_576x324_8bit_420 frame 1, hd_1280x720_10bit_420 frame 1 (an SAD above 2^32).
  EXPECT_TRUE(same_bits(integer_motion::frame_score(62584016, 576, 324, 1.0, 10000.0), 1.309953770683299));
  EXPECT_TRUE(same_bits(integer_motion::frame_score(4354305862ull, 1280, 720, 1.0, 10000.0), 18.455954072740344));
  EXPECT_TRUE(same_bits(integer_motion::frame_score(93660398, 576, 324, 1.0, 10000.0), 1.9604173615799683));
  EXPECT_EQ(integer_motion::frame_score(62584016, 576, 324, 1.0, 1.25), 1.25);
}

TEST(IntegerMotion, FlushScheduleByHand) {
  using integer_motion::motion23;
  integer_motion::Schedule s;
  std::vector<double> m2, m3;
  motion23({0, 3, 1, 4, 2}, s, m2, m3);
  EXPECT_EQ(m2, (std::vector<double>{0, 1, 1, 2, 2}));
  EXPECT_EQ(m3, (std::vector<double>{3, 1, 1, 2, 2}));  // motion3[0] = the score of frames (0, 1)
  motion23({0}, s, m2, m3);
  EXPECT_EQ(m2, std::vector<double>{0});
  EXPECT_EQ(m3, std::vector<double>{0});
  motion23({}, s, m2, m3);
  EXPECT_TRUE(m2.empty());
  // Moving average: mean of this and the previous blended value (the stamp before the lag).
  s.moving_average = true;
  motion23({0, 3, 1, 4, 2}, s, m2, m3);
  EXPECT_EQ(m3, (std::vector<double>{3, 2, 1, 1.5, 2}));
  // Five-frame window: sad[i] = score of (i-2, i); motion2[2] = sad[3]; then min(sad[i-1], sad[i+1]).
  s = {};
  s.five_frame_window = true;
  motion23({0, 0, 5, 3, 7, 1, 6}, s, m2, m3);
  EXPECT_EQ(m2, (std::vector<double>{0, 0, 3, 5, 1, 6, 6}));
  EXPECT_EQ(m3, (std::vector<double>{5, 5, 3, 5, 1, 6, 6}));
  motion23({0, 0, 5}, s, m2, m3);  // the last-frame rule first
  EXPECT_EQ(m2, (std::vector<double>{0, 0, 5}));
  motion23({0, 0}, s, m2, m3);
  EXPECT_EQ(m3, (std::vector<double>{0, 0}));
  // Blend and clip: min(m*0.5 + 0.5*min(2, m), 3).
  s = {};
  s.blend_factor = 0.5;
  s.blend_offset = 2;
  s.max_val = 3;
  motion23({0, 1, 8, 9}, s, m2, m3);
  EXPECT_EQ(m3, (std::vector<double>{1, 1, 3, 3}));
  EXPECT_EQ(m2, (std::vector<double>{0, 1, 8, 9}));  // motion2 is not clipped again
}

TEST(IntegerMotion, ExtractorMatchesTheReferenceScores) {
  std::mt19937 rng(3);
  const PictureFormat f = format(21, 11, 10, ChromaFormat::k444);
  std::vector<Picture> frames;
  for (int i = 0; i < 6; ++i) frames.push_back(random_picture(f, rng));
  for (bool window : {false, true}) {
    SCOPED_TRACE(window ? "five-frame window" : "default");
    const unsigned lag = window ? 2 : 1;
    OptionPairs o = {{"debug", "true"}, {"mfw", "1.7"}, {"mmxv", "9000"}};
    if (window) o.emplace_back("mffw", "true");
    const RecordingSink s = run_frames("integer_motion", o, frames);
    const std::string sfx = window ? "_mffw_mfw_1.7_mmxv_9000" : "_mfw_1.7_mmxv_9000";
    std::vector<double> sad(frames.size(), 0.0);
    for (std::size_t i = lag; i < frames.size(); ++i)
      sad[i] = std::min(double(reference_sad(frames[i - lag], frames[i])) / 256. / (21 * 11) * 1.7, 9000.0);
    const std::vector<double> got = s.series("VMAF_integer_feature_motion_sad_score" + sfx);
    ASSERT_EQ(got.size(), sad.size());
    for (std::size_t i = 0; i < sad.size(); ++i) EXPECT_TRUE(same_bits(got[i], sad[i])) << i;
    EXPECT_EQ(s.series("integer_motion" + sfx), got);  // debug: the same value
    integer_motion::Schedule sch;
    sch.max_val = 9000;
    sch.five_frame_window = window;
    std::vector<double> m2, m3;
    integer_motion::motion23(sad, sch, m2, m3);
    EXPECT_EQ(s.series("integer_motion2" + sfx), m2);
    EXPECT_EQ(s.series("integer_motion3" + sfx), m3);
    // Only the SAD (and debug) score at extract; motion2/motion3 all at flush, frame by frame.
    for (const Put& p : s.puts)
      EXPECT_EQ(p.at_flush, p.name.starts_with("integer_motion2") || p.name.starts_with("integer_motion3")) << p.name;
  }
}

TEST(IntegerMotion, NamesAndDefaults) {
  std::mt19937 rng(4);
  const PictureFormat f = format(8, 8);
  std::vector<Picture> frames;
  for (int i = 0; i < 3; ++i) frames.push_back(random_picture(f, rng));
  auto names = [&](const OptionPairs& o) { return run_frames("motion", o, frames).names(); };
  EXPECT_EQ(names({}), (std::vector<std::string>{"VMAF_integer_feature_motion_sad_score", "integer_motion2",
                                                 "integer_motion3"}));
  EXPECT_EQ(names({{"debug", "true"}}),
            (std::vector<std::string>{"VMAF_integer_feature_motion_sad_score", "integer_motion", "integer_motion2",
                                      "integer_motion3"}));
  EXPECT_EQ(names({{"motion_fps_weight", "2"}}),
            (std::vector<std::string>{"VMAF_integer_feature_motion_sad_score_mfw_2", "integer_motion2_mfw_2",
                                      "integer_motion3_mfw_2"}));
  EXPECT_EQ(names({{"mbo", "3"}, {"mbf", "0.5"}})[1], "integer_motion2_mbf_0.5_mbo_3");
  EXPECT_EQ(names({{"mma", "true"}, {"mffw", "true"}, {"mbf", "0.7"}, {"mbo", "2"}})[0],
            "VMAF_integer_feature_motion_sad_score_mbf_0.7_mbo_2_mffw_mma");
  const RecordingSink z = run_frames("motion", {{"force_0", "true"}, {"debug", "true"}}, frames);
  EXPECT_EQ(z.names(), (std::vector<std::string>{"VMAF_integer_feature_motion_sad_score_force_0", "integer_motion_force_0",
                                                 "integer_motion2_force_0", "integer_motion3_force_0"}));
  for (const Put& p : z.puts) EXPECT_EQ(p.value, 0.0);
  // Both names find it; models ask for integer_motion2.
  EXPECT_EQ(find_extractor("integer_motion"), find_extractor("motion"));
  EXPECT_EQ(find_provider("integer_motion2"), find_extractor("motion"));
  EXPECT_EQ(find_provider("VMAF_integer_feature_motion_sad_score"), find_extractor("motion"));
}

TEST(IntegerMotion, RefusesTinyPlanes) {
  auto init = [](const PictureFormat& f, const OptionPairs& o = {}) { make_extractor("motion", o)->init(f); };
  EXPECT_THROW(init(format(2, 5)), Error);
  EXPECT_THROW(init(format(5, 2)), Error);
  EXPECT_THROW(init(format(2, 2), {{"force_0", "true"}}), Error);
  EXPECT_NO_THROW(init(format(3, 3)));
  EXPECT_NO_THROW(init(format(3, 3, 16, ChromaFormat::k400)));
  EXPECT_THROW(make_extractor("motion", {{"motion_blend_factor", "1.5"}}), Error);
  try {
    init(format(2, 5));
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
  }
}

}  // namespace
}  // namespace vqtwin::test
