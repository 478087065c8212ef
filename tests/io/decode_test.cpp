// Compressed input: clips encoded with ffmpeg (x264, x265, SVT-AV1, libaom, VP9, ProRes, FFV1; 8, 10
// and 12 bits) decode to exactly the frames ffmpeg itself writes as y4m, so every score is the y4m
// path's, bit for bit. The format is found from the content; a damaged packet is an error naming the
// frame, and the frames before it are kept.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>

#include "../support/golden_support.hpp"
#include "io_support.hpp"
#include "vqtwin/error.hpp"

namespace fs = std::filesystem;

namespace vqtwin::test {
namespace {

struct Codec {
  std::string name;     // also the clip's file name
  std::string pix_fmt;  // of the reference it encodes
  std::string args;     // encoder arguments
};

void PrintTo(const Codec& c, std::ostream* os) { *os << c.name; }

class Decode : public ::testing::TestWithParam<Codec> {};

TEST_P(Decode, FramesAndScoresAreThoseOfFfmpegsY4m) {
  const Codec& c = GetParam();
  const std::string ref = reference_in(c.pix_fmt);
  const std::string encoded = ffmpeg_clip(c.name, "-i " + ref + " " + c.args);
  const std::string decoded = ffmpeg_clip(c.name + ".y4m", "-i " + encoded + " -f yuv4mpegpipe");
  {
    auto a = open_source(encoded), b = open_source(decoded);
    expect_same_frames(*a, *b);
  }
  // VMAF (the default) and PSNR, at full precision: the compressed file scores as its y4m.
  auto scores = [&](const std::string& dist) {
    RunConfig cfg;
    cfg.reference = ref;
    cfg.distorted = dist;
    cfg.features = {"psnr"};
    cfg.threads = 2;
    return run_to_json(cfg);
  };
  const auto from_file = scores(encoded), from_y4m = scores(decoded);
  ASSERT_EQ(from_file["frames"].size(), 12u);
  const auto diffs = compare_outputs(from_file, from_y4m);
  std::string report;
  for (const auto& d : diffs) report += "\n  " + d;
  EXPECT_TRUE(diffs.empty()) << c.name << report;
}

const Codec kCodecs[] = {
    {"x264_8bit.mp4", "yuv420p", "-c:v libx264 -preset veryfast -crf 32 -bf 3"},
    {"x264_10bit.ts", "yuv420p10le", "-c:v libx264 -preset veryfast -crf 32"},
    {"x265_10bit.mkv", "yuv420p10le", "-c:v libx265 -preset ultrafast -crf 32 -x265-params log-level=error"},
    {"x265_8bit_422.mp4", "yuv422p", "-c:v libx265 -preset ultrafast -crf 32 -x265-params log-level=error"},
    {"svtav1_10bit.webm", "yuv420p10le", "-c:v libsvtav1 -preset 12 -crf 50"},
    {"aom_8bit.ivf", "yuv420p", "-c:v libaom-av1 -cpu-used 8 -crf 50 -row-mt 1"},
    {"vp9_8bit.webm", "yuv420p", "-c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 300k"},
    {"prores_10bit_422.mov", "yuv422p10le", "-c:v prores_ks -profile:v 1"},
    {"ffv1_12bit_444.mkv", "yuv444p12le", "-c:v ffv1"},
};

std::string codec_name(const ::testing::TestParamInfo<Codec>& info) {
  std::string n = info.param.name;
  for (char& ch : n)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Ffmpeg, Decode, ::testing::ValuesIn(kCodecs), codec_name);

struct CliOutcome {
  int status = -1;
  std::string err;
};

CliOutcome cli(const std::string& args) {
  const std::string err = clip_dir() + "/stderr.txt";
  const int raw = std::system((std::string(VQTWIN_CLI) + " -q " + args + " 2>" + err).c_str());
  std::ifstream in(err);
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, std::string((std::istreambuf_iterator<char>(in)), {})};
}

std::string json_frames(const std::string& file) {
  auto j = load_json(file);
  return j["frames"].dump();
}

TEST(DecodeDetection, ByContentNotByName) {
  const std::string ref = reference_in("yuv420p");
  const std::string mp4 = ffmpeg_clip("detect.mp4", "-i " + ref + " -c:v libx264 -preset veryfast -crf 30");
  const std::string disguised = clip_dir() + "/really_an_mp4.y4m", y4m_named_mp4 = clip_dir() + "/really_a_y4m.mp4";
  fs::copy_file(mp4, disguised, fs::copy_options::overwrite_existing);
  fs::copy_file(ref, y4m_named_mp4, fs::copy_options::overwrite_existing);
  ASSERT_EQ(cli("-r " + ref + " -d " + mp4 + " --json -o " + clip_dir() + "/a.json").status, 0);
  ASSERT_EQ(cli("-r " + y4m_named_mp4 + " -d " + disguised + " --json -o " + clip_dir() + "/b.json").status, 0);
  EXPECT_EQ(json_frames(clip_dir() + "/a.json"), json_frames(clip_dir() + "/b.json"));
  // Standard input (a format that needs no seeking).
  const std::string mkv = ffmpeg_clip("detect.mkv", "-i " + mp4 + " -c copy");
  ASSERT_EQ(cli("-r " + ref + " -d - --json -o " + clip_dir() + "/c.json < " + mkv).status, 0);
  EXPECT_EQ(json_frames(clip_dir() + "/a.json"), json_frames(clip_dir() + "/c.json"));
}

TEST(DecodeDetection, WhatCannotBeReadIsOneClearLine) {
  const std::string ref = reference_in("yuv420p");
  const std::string audio = ffmpeg_clip("tone.wav", "-f lavfi -i sine=duration=1");
  CliOutcome o = cli("-r " + ref + " -d " + audio);
  EXPECT_EQ(o.status, 1);
  EXPECT_EQ(o.err, "vqtwin: error: " + audio + ": not a y4m file, and FFmpeg (wav) finds no video stream in it; "
                   "for raw .yuv give --width --height --pixel_format --bitdepth\n");
  const std::string rgb = ffmpeg_clip("rgb.mkv", "-i " + ref + " -frames:v 2 -c:v ffv1 -pix_fmt gbrp");
  o = cli("-r " + ref + " -d " + rgb);
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.err.find(rgb + ": pixel format "), std::string::npos) << o.err;  // FFV1's RGB: bgr0 or gbrp
  EXPECT_NE(o.err.find(" is not planar Y'CbCr 4:2:0/4:2:2/4:4:4 or grey at 8/10/12/16 bits"), std::string::npos) << o.err;
  const std::string text = clip_dir() + "/notes.txt";
  std::ofstream(text) << "not a video at all\n";
  o = cli("-r " + ref + " -d " + text);
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.err.find(text + ": not a y4m file, and FFmpeg cannot read it"), std::string::npos) << o.err;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
}

TEST(DecodeErrors, DamagedPacketNamesTheFrameAndKeepsTheFramesBefore) {
  const std::string ref = sd_reference();
  const std::string good = ffmpeg_clip("whole.mkv", "-i " + ref + " -c:v libx264 -preset veryfast -crf 23 -g 12");
  // Damage 3000 bytes in the middle of the file (inside a packet of the second half).
  std::ifstream in(good, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), {});
  for (std::size_t i = bytes.size() / 2; i < bytes.size() / 2 + 3000; ++i) bytes[i] = char(bytes[i] * 7 + 13);
  const std::string bad = clip_dir() + "/damaged.mkv";
  std::ofstream(bad, std::ios::binary) << bytes;
  const std::string out = clip_dir() + "/damaged.json";
  const CliOutcome o = cli("-r " + ref + " -d " + bad + " --json -o " + out);
  EXPECT_EQ(o.status, 1);
  const std::string prefix = "vqtwin: error: " + bad + ": frame ";
  ASSERT_EQ(o.err.rfind(prefix, 0), 0u) << o.err;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
  const unsigned frame = unsigned(std::stoul(o.err.substr(prefix.size())));
  EXPECT_GT(frame, 0u);
  EXPECT_LT(frame, 48u);
  // The frames before it were scored and written, VMAF included.
  const auto j = load_json(out);
  EXPECT_EQ(j["frames"].size(), frame);
  EXPECT_TRUE(j["pooled_metrics"].contains("vmaf"));
}

}  // namespace
}  // namespace vqtwin::test
