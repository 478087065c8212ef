// --scale gives the pictures of ffmpeg's own scale filter (-vf scale=W:H:flags=bicubic), sample for
// sample: 8-bit 4:2:0 (the filter's MPEG-2 chroma position), 10-bit, an odd size, full-range yuvj
// 4:4:4 from a decoder, y4m that says XCOLORRANGE=FULL, and --scale WxH on both inputs.
#include <gtest/gtest.h>

#include "../support/golden_support.hpp"
#include "io/inputs.hpp"
#include "io_support.hpp"

namespace vqtwin::test {
namespace {

struct ScaleCase {
  std::string name;
  std::string small_args;  // ffmpeg arguments making the distorted clip from the reference
  std::string pix_fmt;     // of the reference
};

void PrintTo(const ScaleCase& c, std::ostream* os) { *os << c.name; }

class Scale : public ::testing::TestWithParam<ScaleCase> {};

// ffmpeg's pipeline: the clip scaled to WxH and written as y4m.
std::string ffmpeg_scaled(const std::string& clip, int w, int h) {
  return ffmpeg_clip(std::filesystem::path(clip).filename().string() + "_" + std::to_string(w) + "x" + std::to_string(h) + ".y4m",
                     "-i " + clip + " -vf scale=" + std::to_string(w) + ":" + std::to_string(h) +
                         ":flags=bicubic -f yuv4mpegpipe");
}

InputOptions scale_options(const std::string& scale) {
  InputOptions o;
  o.source.decode_threads = 2;
  o.scale = scale;
  return o;
}

TEST_P(Scale, AutoGivesFfmpegsPixels) {
  const ScaleCase& c = GetParam();
  const std::string ref = reference_in(c.pix_fmt);
  const std::string small = ffmpeg_clip(c.name, "-i " + ref + " " + c.small_args);
  Inputs in = open_inputs(ref, small, scale_options("auto"));
  ASSERT_EQ(in.conversions.size(), 1u);
  EXPECT_EQ(in.conversions[0].first, "scale");
  auto expected = open_source(ffmpeg_scaled(small, 576, 324));
  expect_same_frames(*in.dist, *expected);
}

const ScaleCase kCases[] = {
    {"up_8bit_420.y4m", "-vf scale=400:226 -f yuv4mpegpipe", "yuv420p"},
    {"down_8bit_420.mkv", "-vf scale=768:432 -c:v libx264 -preset veryfast -crf 30", "yuv420p"},
    {"odd_8bit_420.y4m", "-vf scale=353:199 -f yuv4mpegpipe", "yuv420p"},
    {"up_10bit_420.mkv", "-vf scale=320:180 -c:v libx265 -preset ultrafast -x265-params log-level=error", "yuv420p10le"},
    {"full_range_444.mp4", "-vf scale=288:162,format=yuvj444p -c:v libx264 -preset veryfast -color_range pc", "yuv444p"},
    {"full_range_tagged.y4m", "-vf scale=288:162,format=yuv444p -color_range pc -f yuv4mpegpipe", "yuv444p"},
};

std::string case_name(const ::testing::TestParamInfo<ScaleCase>& info) {
  std::string n = info.param.name;
  for (char& ch : n)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Ffmpeg, Scale, ::testing::ValuesIn(kCases), case_name);

TEST(ScaleBoth, SizeScalesBothInputs) {
  const std::string ref = reference_in("yuv420p");
  const std::string small = ffmpeg_clip("both_small.y4m", "-i " + ref + " -vf scale=320:180 -f yuv4mpegpipe");
  Inputs in = open_inputs(ref, small, scale_options("480x270"));
  EXPECT_EQ(in.format.width, 480);
  ASSERT_EQ(in.conversions.size(), 1u);
  EXPECT_EQ(in.conversions[0].second, "reference 576x324 to 480x270, distorted 320x180 to 480x270, bicubic (ffmpeg "
                                      "-vf scale=480:270:flags=bicubic)");
  expect_same_frames(*in.ref, *open_source(ffmpeg_scaled(ref, 480, 270)));
  expect_same_frames(*in.dist, *open_source(ffmpeg_scaled(small, 480, 270)));
}

TEST(ScaleBoth, ScoresAreThoseOfTheFfmpegPipeline) {
  const std::string ref = reference_in("yuv420p");
  const std::string small = ffmpeg_clip("score_small.mp4", "-i " + ref + " -vf scale=320:180 -c:v libx264 -preset veryfast");
  RunConfig cfg;
  cfg.reference = ref;
  cfg.distorted = small;
  cfg.scale = "auto";
  cfg.threads = 2;
  const auto ours = run_to_json(cfg);
  cfg.distorted = ffmpeg_scaled(small, 576, 324);
  cfg.scale.clear();
  const auto pipeline = run_to_json(cfg);
  EXPECT_TRUE(compare_outputs(ours, pipeline).empty());
  EXPECT_EQ(ours["input"]["scale"], "distorted 320x180 to 576x324, bicubic (ffmpeg -vf scale=576:324:flags=bicubic)");
}

}  // namespace
}  // namespace vqtwin::test
