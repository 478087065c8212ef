// float_motion against an independent, deliberately plain transcription of its definition
// (spec: float_motion.md): per-pixel edge mirroring, an explicit 0.0f accumulator, libvmaf's
// float += double(fabs) SAD, the schedule table of §4 written out frame by frame.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>

#include "features/float_motion/blur.hpp"
#include "features/float_motion/kernels.hpp"
#include "features/float_motion/math.hpp"
#include "motion_test_util.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::test {
namespace {

using Plane = std::vector<float>;  // w*h, row stride w

int mirror_index(int i, int n) { return i < 0 ? -i : i >= n ? n - (i - n + 2) : i; }

std::vector<float> taps_of(int filter_size) {
  if (filter_size == 1) return {0.0f, 0.0f, 1.0f, 0.0f, 0.0f};
  if (filter_size == 3) return {float(0.166378498), float(0.667243004), float(0.166378498)};
  return {float(0.054488685), float(0.244201342), float(0.402619947), float(0.244201342), float(0.054488685)};
}

// Planes as libvmaf's pictures hold them: chroma (w >> 1) x (h >> 1), the top-left of the stored plane.
Plane reference_blur(const Picture& pic, int p, int filter_size) {
  const int w = pic.scored_width(p), h = pic.scored_height(p), bpc = pic.format().bitdepth;
  const float scale = bpc == 10 ? 4.0f : bpc == 12 ? 16.0f : bpc == 16 ? 256.0f : 1.0f;
  Plane src(std::size_t(w) * h), tmp(src.size()), out(src.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      src[y * w + x] = bpc == 8 ? float(sample(pic, p, x, y)) + -128 : float(sample(pic, p, x, y)) / scale + -128;
  const std::vector<float> f = taps_of(filter_size);
  const int n = int(f.size()), r = n / 2;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      float acc = 0;
      for (int k = 0; k < n; ++k) acc += f[k] * src[mirror_index(y - r + k, h) * w + x];
      tmp[y * w + x] = acc;
    }
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      float acc = 0;
      for (int k = 0; k < n; ++k) acc += f[k] * tmp[y * w + mirror_index(x - r + k, w)];
      out[y * w + x] = acc;
    }
  return out;
}

float reference_sad_score(const Plane& a, const Plane& b, int w, int h) {
  float accum = 0;
  for (int i = 0; i < h; ++i) {
    float line = 0;
    for (int j = 0; j < w; ++j) line += std::fabs(double(a[i * w + j] - b[i * w + j]));
    accum += line;
  }
  return accum / (w * h);
}

// The bilinear half-size resampler, from the formula: positions in double from a float ratio.
Plane reference_half(const Plane& src, int w, int h, int& dw, int& dh) {
  dw = int(w * 0.5 + 0.5);
  dh = int(h * 0.5 + 0.5);
  Plane out(std::size_t(dw) * dh);
  const float rx = float(w) / float(dw), ry = float(h) / float(dh);
  for (int y = 0; y < dh; ++y) {
    const float yy = float((y + 0.5) * ry - 0.5);
    const int y1 = std::min(int(std::floor(yy)), h - 1), y2 = std::min(int(std::ceil(yy)), h - 1);
    const float dy = yy - float(y1);
    for (int x = 0; x < dw; ++x) {
      const float xx = float((x + 0.5) * rx - 0.5);
      const int x1 = std::min(int(std::floor(xx)), w - 1), x2 = std::min(int(std::ceil(xx)), w - 1);
      const float dx = xx - float(x1);
      float acc = 0;
      acc += ((1 - dy) * (1 - dx)) * src[y1 * w + x1];
      acc += ((1 - dy) * dx) * src[y1 * w + x2];
      acc += (dy * (1 - dx)) * src[y2 * w + x1];
      acc += (dy * dx) * src[y2 * w + x2];
      out[y * dw + x] = acc;
    }
  }
  return out;
}

// libvmaf's float row stride for a w-wide plane: w floats rounded up to 32 bytes.
int libvmaf_stride(int w) { return (w * 4 + 31) / 32 * 32 / 4; }

// What libvmaf's resampler is handed for a w x h blurred plane: float_motion.c stores the plane's rows
// at the luma stride in a buffer whose padding is never written (zero), and motion.c reads that
// buffer as rows of the plane's own stride. Emulated with the buffer itself.
Plane as_resampled(const Plane& blur, int w, int h, int luma_stride) {
  std::vector<float> buffer(std::size_t(luma_stride) * h, 0.0f);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) buffer[std::size_t(y) * luma_stride + x] = blur[std::size_t(y) * w + x];
  const int read = libvmaf_stride(w);
  Plane out(std::size_t(w) * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) out[std::size_t(y) * w + x] = buffer[std::size_t(y) * read + x];
  return out;
}

struct Opts {
  bool debug = true, force_zero = false, add_uv = false, add_scale1 = false;
  int filter_size = 5;
  double fps = 1, mbf = 1, mbo = 40, max = 10000;
};

double score_of(const std::vector<Picture>& frames, std::size_t i, std::size_t j, const Opts& o) {
  double total = 0;
  for (int p = 0; p < (o.add_uv ? 3 : 1); ++p) {
    const int w = frames[i].scored_width(p), h = frames[i].scored_height(p);
    const Plane a = reference_blur(frames[i], p, o.filter_size), b = reference_blur(frames[j], p, o.filter_size);
    float s = reference_sad_score(a, b, w, h);
    if (o.add_scale1) {
      int dw, dh;
      const int luma_stride = libvmaf_stride(frames[i].scored_width(0));
      const Plane ha = reference_half(as_resampled(a, w, h, luma_stride), w, h, dw, dh);
      const Plane hb = reference_half(as_resampled(b, w, h, luma_stride), w, h, dw, dh);
      s = s + reference_sad_score(ha, hb, dw, dh);
    }
    total += s;
  }
  return total;
}

// Expected per-frame series, straight from the table of spec §4 (closed form).
struct Expected {
  std::vector<double> motion, motion2, motion3;
};
Expected expected_of(const std::vector<Picture>& frames, const Opts& o) {
  const std::size_t n = frames.size();
  Expected e;
  e.motion.assign(n, 0);
  e.motion2.assign(n, 0);
  e.motion3.assign(n, 0);
  if (o.force_zero) return e;
  auto clip = [&](double x) { return std::min(x * o.fps, o.max); };
  auto bclip = [&](double x) {
    const double m = x * o.fps;
    return std::min(m * o.mbf + (1 - o.mbf) * std::min(o.mbo, m), o.max);
  };
  std::vector<double> s(n, 0);  // s[i] = S(i-1, i)
  for (std::size_t i = 1; i < n; ++i) s[i] = score_of(frames, i - 1, i, o);
  for (std::size_t i = 1; i < n; ++i) e.motion[i] = clip(s[i]);
  for (std::size_t i = 1; i + 1 < n; ++i) {
    e.motion2[i] = clip(std::min(s[i], s[i + 1]));
    e.motion3[i] = bclip(std::min(s[i], s[i + 1]));
  }
  if (n > 1) {
    e.motion2[n - 1] = clip(s[n - 1]);
    e.motion3[n - 1] = bclip(s[n - 1]);
    e.motion3[0] = bclip(s[1]);
  }
  return e;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void expect_series(const RecordingSink& sink, const std::string& name, const std::vector<double>& want) {
  const std::vector<double> got = sink.series(name);
  ASSERT_EQ(got.size(), want.size()) << name;
  for (std::size_t i = 0; i < want.size(); ++i)
    EXPECT_TRUE(same_bits(got[i], want[i])) << name << "[" << i << "] = " << got[i] << ", want " << want[i];
}

OptionPairs pairs_of(const Opts& o) {
  OptionPairs p;
  if (!o.debug) p.emplace_back("debug", "false");
  if (o.force_zero) p.emplace_back("force_0", "true");
  if (o.add_uv) p.emplace_back("mau", "true");
  if (o.add_scale1) p.emplace_back("mdc", "true");
  if (o.filter_size != 5) p.emplace_back("mfs", std::to_string(o.filter_size));
  auto num = [](double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.17g", v);
    return std::string(b);
  };
  if (o.fps != 1) p.emplace_back("mfw", num(o.fps));
  if (o.mbf != 1) p.emplace_back("mbf", num(o.mbf));
  if (o.mbo != 40) p.emplace_back("mbo", num(o.mbo));
  if (o.max != 10000) p.emplace_back("mmxv", num(o.max));
  return p;
}

std::vector<Picture> random_frames(const PictureFormat& f, int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<Picture> frames;
  for (int i = 0; i < n; ++i) frames.push_back(random_picture(f, rng));
  return frames;
}

// Runs the extractor and checks every series against the closed form of the reference.
void check_against_reference(const std::vector<Picture>& frames, const Opts& o) {
  const auto info = find_extractor("float_motion");
  const OptionValues values(info->spec->options, pairs_of(o), "float_motion");
  const RecordingSink sink = run_frames("float_motion", pairs_of(o), frames);
  const Expected e = expected_of(frames, o);
  expect_series(sink, values.output_name("motion2"), e.motion2);
  expect_series(sink, values.output_name("motion3"), e.motion3);
  if (o.debug) expect_series(sink, values.output_name("motion"), e.motion);
  else EXPECT_TRUE(sink.series(values.output_name("motion")).empty());
}

TEST(FloatMotion, TapsAreLibvmafsBinary32Values) {
  using float_motion::kTaps5;
  EXPECT_EQ(std::bit_cast<std::uint32_t>(kTaps5[0]), 0x3D5F2F87u);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(kTaps5[1]), 0x3E7A0FEBu);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(kTaps5[2]), 0x3ECE2434u);
  EXPECT_EQ(kTaps5[3], kTaps5[1]);
  EXPECT_EQ(kTaps5[4], kTaps5[0]);
  // Their left-to-right fp32 sum is exactly 1, so a constant plane blurs to itself.
  float sum = 0;
  for (float t : kTaps5) sum += t;
  EXPECT_EQ(sum, 1.0f);
}

// The portable kernels; tests/cpu_check holds every other variant to them.
TEST(FloatMotion, BlurAndSadMatchTheReferenceForEveryDepth) {
  const float_motion::Kernels portable = float_motion::kernels_for(0);
  const float_motion::Kernels* k = &portable;
  for (int bpc : {8, 10, 12, 16})
    for (int fs : {5, 3, 1})
      for (auto [w, h] : {std::pair{3, 3}, {37, 19}, {70, 5}, {4, 33}}) {
        SCOPED_TRACE(std::to_string(bpc) + "-bit mfs " + std::to_string(fs) + " " + std::to_string(w) + "x" +
                     std::to_string(h));
        const auto frames = random_frames(format(w, h, bpc), 2, unsigned(bpc * 100 + fs + w));
        float_motion::PlaneBlur blur(w, h, fs, *k);
        std::vector<float> a(std::size_t(w) * h), b(a.size());
        EXPECT_EQ(blur.run(frames[0], 0, a.data(), nullptr), 0.0f);
        const float total = blur.run(frames[1], 0, b.data(), a.data());
        const Plane ra = reference_blur(frames[0], 0, fs), rb = reference_blur(frames[1], 0, fs);
        for (std::size_t i = 0; i < a.size(); ++i) {
          ASSERT_EQ(a[i], ra[i]) << "pixel " << i;  // == : equal values, a zero of either sign
          ASSERT_EQ(b[i], rb[i]) << "pixel " << i;
        }
        EXPECT_EQ(std::bit_cast<std::uint32_t>(float_motion::sad_mean(total, w, h)),
                  std::bit_cast<std::uint32_t>(reference_sad_score(rb, ra, w, h)));
      }
}

TEST(FloatMotion, HandComputedConstantFrames) {
  // Flat frames 128, 129, 131, 131: blurs are exactly 0, 1, 3, 3 (the taps sum to 1), so
  // S(0,1) = 1, S(1,2) = 2, S(2,3) = 0.
  const PictureFormat f = format(8, 6);
  std::vector<Picture> frames;
  for (unsigned v : {128u, 129u, 131u, 131u}) frames.push_back(make_picture(f, [v](int, int, int) { return v; }));
  RecordingSink s = run_frames("float_motion", {}, frames);
  EXPECT_EQ(s.series("motion"), (std::vector<double>{0, 1, 2, 0}));
  EXPECT_EQ(s.series("motion2"), (std::vector<double>{0, 1, 0, 0}));
  EXPECT_EQ(s.series("motion3"), (std::vector<double>{1, 1, 0, 0}));
  // fps weight 2, clip at 3, blend 0.5 towards offset 1: motion3 = min(0.5 m + 0.5 min(1, m), 3).
  s = run_frames("float_motion", {{"mfw", "2"}, {"mmxv", "3"}, {"mbf", "0.5"}, {"mbo", "1"}}, frames);
  EXPECT_EQ(s.series("motion_mbf_0.5_mbo_1_mfw_2_mmxv_3"), (std::vector<double>{0, 2, 3, 0}));
  EXPECT_EQ(s.series("motion2_mbf_0.5_mbo_1_mfw_2_mmxv_3"), (std::vector<double>{0, 2, 0, 0}));
  EXPECT_EQ(s.series("motion3_mbf_0.5_mbo_1_mfw_2_mmxv_3"), (std::vector<double>{1.5, 1.5, 0, 0}));
}

TEST(FloatMotion, ScheduleOfExtractAndFlush) {
  const PictureFormat f = format(8, 6);
  std::vector<Picture> frames;
  for (unsigned v : {128u, 129u, 131u}) frames.push_back(make_picture(f, [v](int, int, int) { return v; }));
  const RecordingSink s = run_frames("float_motion", {}, frames);
  // extract(0): motion2[0], motion[0]; extract(1): motion[1], motion3[0];
  // extract(2): motion[2], motion2[1], motion3[1]; flush: motion2[2], motion3[2].
  const std::vector<std::tuple<std::string, unsigned, bool>> want = {
      {"motion2", 0, false}, {"motion", 0, false},  {"motion", 1, false}, {"motion3", 0, false},
      {"motion", 2, false},  {"motion2", 1, false}, {"motion3", 1, false}, {"motion2", 2, true},
      {"motion3", 2, true}};
  ASSERT_EQ(s.puts.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(s.puts[i].name, std::get<0>(want[i])) << i;
    EXPECT_EQ(s.puts[i].frame, std::get<1>(want[i])) << i;
    EXPECT_EQ(s.puts[i].at_flush, std::get<2>(want[i])) << i;
  }
  // The order libvmaf's JSON shows: motion2 motion motion3.
  EXPECT_EQ(s.names(), (std::vector<std::string>{"motion2", "motion", "motion3"}));
}

TEST(FloatMotion, SingleFrameAndForceZero) {
  const PictureFormat f = format(8, 6);
  const auto frames = random_frames(f, 1, 3);
  RecordingSink s = run_frames("float_motion", {}, frames);
  EXPECT_EQ(s.series("motion2"), std::vector<double>{0});
  EXPECT_EQ(s.series("motion"), std::vector<double>{0});
  EXPECT_EQ(s.series("motion3"), std::vector<double>{0});
  EXPECT_TRUE(s.puts.back().at_flush);

  const auto three = random_frames(f, 3, 4);
  s = run_frames("float_motion", {{"motion_force_zero", "true"}}, three);
  EXPECT_EQ(s.names(), (std::vector<std::string>{"motion2_force_0", "motion3_force_0", "motion_force_0"}));
  for (const Put& p : s.puts) {
    EXPECT_EQ(p.value, 0.0);
    EXPECT_FALSE(p.at_flush);  // libvmaf removes flush with force_0
  }
  EXPECT_EQ(s.puts.size(), 9u);
}

TEST(FloatMotion, OutputNamesCarryNonDefaultOptions) {
  const PictureFormat f = format(16, 10, 8, ChromaFormat::k444);
  const auto frames = random_frames(f, 2, 5);
  auto names = [&](const OptionPairs& o) { return run_frames("float_motion", o, frames).names(); };
  EXPECT_EQ(names({{"motion_fps_weight", "2.0"}}), (std::vector<std::string>{"motion2_mfw_2", "motion_mfw_2", "motion3_mfw_2"}));
  EXPECT_EQ(names({{"motion_blend_factor", "0.5"}, {"motion_blend_offset", "2.0"}})[0], "motion2_mbf_0.5_mbo_2");
  EXPECT_EQ(names({{"mmxv", "8"}, {"mfw", "2"}})[0], "motion2_mfw_2_mmxv_8");
  EXPECT_EQ(names({{"motion_max_val", "39.9"}})[0], "motion2_mmxv_39.9");
  EXPECT_EQ(names({{"motion_filter_size", "3"}})[0], "motion2_mfs_3");
  EXPECT_EQ(names({{"motion_add_uv", "true"}})[0], "motion2_mau");
  EXPECT_EQ(names({{"motion_add_scale1", "true"}})[0], "motion2_mdc");
  EXPECT_EQ(names({{"debug", "false"}}), (std::vector<std::string>{"motion2", "motion3"}));
  // A value equal to the default is no suffix; out of range is refused at creation.
  EXPECT_EQ(names({{"motion_fps_weight", "1.0"}})[0], "motion2");
  EXPECT_THROW(make_extractor("float_motion", {{"motion_max_val", "10001"}}), Error);
  EXPECT_THROW(make_extractor("float_motion", {{"motion_filter_size", "10"}}), Error);
}

TEST(FloatMotion, EveryOptionMatchesTheReference) {
  const auto sd = random_frames(format(23, 17, 8, ChromaFormat::k420), 5, 11);
  const auto hbd = random_frames(format(19, 12, 10, ChromaFormat::k422), 4, 12);
  std::vector<Opts> sets(12);
  sets[1].debug = false;
  sets[2].fps = 2.5;
  sets[3].mbf = 0.5, sets[3].mbo = 2;
  sets[4].max = 2, sets[4].mbf = 0.3, sets[4].mbo = 0.7;
  sets[5].filter_size = 3;
  sets[6].filter_size = 1;
  sets[7].add_uv = true;
  sets[8].add_scale1 = true;
  sets[9].force_zero = true;
  // Both together: the chroma planes' half-size pass reads them at their own stride (as_resampled).
  sets[10].add_uv = true, sets[10].add_scale1 = true;
  sets[11].add_uv = true, sets[11].add_scale1 = true, sets[11].filter_size = 3, sets[11].mbf = 0.5;
  for (std::size_t i = 0; i < sets.size(); ++i) {
    SCOPED_TRACE("option set " + std::to_string(i));
    check_against_reference(sd, sets[i]);
    check_against_reference(hbd, sets[i]);
  }
}

TEST(FloatMotion, HalfSizeResamplerOnOddAndEvenSizes) {
  EXPECT_EQ(float_motion::half_size(853), 427);
  EXPECT_EQ(float_motion::half_size(480), 240);
  EXPECT_EQ(float_motion::half_size(3), 2);
  // Even sizes: a 2x2 mean in the order ((a/4 + b/4) + c/4) + d/4.
  Plane src(4 * 2);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = float(i) * 1.1f - 3.0f;
  float_motion::HalfResampler half(4, 2);
  ASSERT_EQ(half.width(), 2);
  ASSERT_EQ(half.height(), 1);
  Plane out(2);
  half.run(src.data(), out.data());
  for (int x = 0; x < 2; ++x) {
    float acc = 0.25f * src[2 * x];
    acc += 0.25f * src[2 * x + 1];
    acc += 0.25f * src[4 + 2 * x];
    acc += 0.25f * src[4 + 2 * x + 1];
    EXPECT_EQ(out[x], acc);
  }
  // Odd sizes against the formula.
  std::mt19937 rng(2);
  std::uniform_real_distribution<float> u(-100, 100);
  for (auto [w, h] : {std::pair{853, 5}, {7, 9}, {3, 3}}) {
    Plane p(std::size_t(w) * h);
    for (float& v : p) v = u(rng);
    int dw, dh;
    const Plane want = reference_half(p, w, h, dw, dh);
    float_motion::HalfResampler r(w, h);
    Plane got(std::size_t(dw) * dh);
    r.run(p.data(), got.data());
    for (std::size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], want[i]) << w << "x" << h << " at " << i;
  }
}

TEST(FloatMotion, RefusesWhatItCannotCompute) {
  auto init = [](const PictureFormat& f, const OptionPairs& o = {}) { make_extractor("float_motion", o)->init(f); };
  EXPECT_THROW(init(format(2, 8)), Error);
  EXPECT_THROW(init(format(8, 2)), Error);
  EXPECT_NO_THROW(init(format(3, 3)));
  EXPECT_NO_THROW(init(format(2, 2), {{"mfs", "3"}}));  // 3 taps reach one sample each way
  EXPECT_THROW(init(format(1, 2), {{"mfs", "3"}}), Error);
  EXPECT_THROW(init(format(2, 8), {{"mfs", "1"}}), Error);  // the pass-through still reads 5 taps
  EXPECT_THROW(init(format(8, 4), {{"mau", "true"}}), Error);  // 4:2:0 chroma 4x2
  EXPECT_NO_THROW(init(format(8, 6), {{"mau", "true"}}));
  EXPECT_THROW(init(format(8, 8, 8, ChromaFormat::k400), {{"mau", "true"}}), Error);
  EXPECT_THROW(init(format(8, 8, 9)), Error);
  EXPECT_NO_THROW(init(format(1, 1), {{"force_0", "true"}}));  // reads no pixel
  try {
    init(format(2, 8));
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("float_motion"), std::string::npos);
  }
}

}  // namespace
}  // namespace vqtwin::test
