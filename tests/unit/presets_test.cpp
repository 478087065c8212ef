// The --aom_ctc / --nflx_ctc presets expand to libvmaf 3.2's lists (tools/cli_parse.c), and the common
// bit depth of v6.0+ reads the shallower input shifted up.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "../support/golden_support.hpp"
#include "vqtwin/error.hpp"
#include "vqtwin/run.hpp"

namespace vqtwin::test {
namespace {

using Texts = std::vector<std::string>;

const Texts kAomModels = {"version=vmaf_v0.6.1:name=vmaf", "version=vmaf_v0.6.1neg:name=vmaf_neg"};
const Texts kAomV1Features = {"psnr=reduced_hbd_peak=true:enable_apsnr=true:min_sse=0.5", "ciede",
                              "float_ssim=enable_db=true:clip_db=true", "float_ms_ssim=enable_db=true:clip_db=true",
                              "psnr_hvs"};

RunConfig preset(const std::string& flag, const std::string& version, RunConfig c = {}) {
  apply_preset(flag, version, c);
  return c;
}

TEST(Presets, AomCtcVersions) {
  for (const char* v : {"v1.0", "v2.0"}) {
    const RunConfig c = preset("aom_ctc", v);
    EXPECT_EQ(c.models, kAomModels) << v;
    EXPECT_EQ(c.features, kAomV1Features) << v;
    EXPECT_FALSE(c.common_bitdepth) << v;
  }
  Texts with_cambi = kAomV1Features;
  with_cambi.push_back("cambi");
  for (const char* v : {"v3.0", "v4.0", "v5.0", "v6.0"}) {
    const RunConfig c = preset("aom_ctc", v);
    EXPECT_EQ(c.models, kAomModels) << v;
    EXPECT_EQ(c.features, with_cambi) << v;
    EXPECT_EQ(c.common_bitdepth, std::string(v) == "v6.0") << v;
  }
  // v7.0: v6.0 with its float_ssim replaced in place.
  Texts v7 = with_cambi;
  v7[2] = "float_ssim=scale=1:enable_db=true:clip_db=true";
  const RunConfig c7 = preset("aom_ctc", "v7.0");
  EXPECT_EQ(c7.features, v7);
  EXPECT_TRUE(c7.common_bitdepth);
}

TEST(Presets, NflxCtc) {
  const RunConfig c = preset("nflx_ctc", "v1.0");
  EXPECT_EQ(c.models, (Texts{"version=vmaf_4k_v0.6.1:name=vmaf", "version=vmaf_4k_v0.6.1neg:name=vmaf_neg"}));
  EXPECT_EQ(c.features,
            (Texts{"psnr=enable_chroma=true:enable_apsnr=true", "float_ssim=enable_db=true:clip_db=true", "cambi"}));
  EXPECT_FALSE(c.common_bitdepth);
}

TEST(Presets, AppendAfterWhatCameBefore) {
  RunConfig given;
  given.features = {"float_psnr", "float_ssim=scale=2"};
  given.models = {"version=vmaf_v0.6.1neg:name=neg"};
  const RunConfig c = preset("aom_ctc", "v2.0", given);
  EXPECT_EQ(c.features.front(), "float_psnr");
  EXPECT_EQ(c.features[1], "float_ssim=scale=2");
  EXPECT_EQ(c.models.front(), "version=vmaf_v0.6.1neg:name=neg");
  // v7.0 replaces the first feature named float_ssim, even one given before the flag (libvmaf does).
  const RunConfig c7 = preset("aom_ctc", "v7.0", given);
  EXPECT_EQ(c7.features[1], "float_ssim=scale=1:enable_db=true:clip_db=true");
  EXPECT_EQ(c7.features[4], "float_ssim=enable_db=true:clip_db=true");
}

TEST(Presets, UnknownVersions) {
  RunConfig c;
  EXPECT_THROW(apply_preset("aom_ctc", "v8.0", c), Error);
  EXPECT_THROW(apply_preset("aom_ctc", "proposed", c), Error);
  EXPECT_THROW(apply_preset("nflx_ctc", "v2.0", c), Error);
  EXPECT_THROW(apply_preset("xyz_ctc", "v1.0", c), Error);
  EXPECT_TRUE(c.features.empty() && c.models.empty());
}

// A one-frame 4:2:0 y4m of `depth` bits whose samples are base[p] + (x + y) % 7, all shifted by `shift`.
std::string write_y4m(const std::string& path, int w, int h, int depth, int shift) {
  std::string data = "YUV4MPEG2 W" + std::to_string(w) + " H" + std::to_string(h) + " C420" +
                     (depth > 8 ? "p" + std::to_string(depth) : "jpeg") + "\nFRAME\n";
  const int cw = (w + 1) / 2, ch = (h + 1) / 2;
  const unsigned base[3] = {60, 120, 130};
  for (int p = 0; p < 3; ++p)
    for (int y = 0; y < (p ? ch : h); ++y)
      for (int x = 0; x < (p ? cw : w); ++x) {
        const unsigned v = (base[p] + unsigned((x + y) % 7)) << shift;
        data.push_back(char(v & 255));
        if (depth > 8) data.push_back(char(v >> 8));
      }
  std::ofstream(path, std::ios::binary) << data;
  return path;
}

TEST(Presets, CommonBitDepthShiftsTheShallowerInputUp) {
  const std::string dir = std::filesystem::temp_directory_path() / ("vqtwin_presets_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  RunConfig c;
  c.reference = write_y4m(dir + "/r8.y4m", 32, 16, 8, 0);
  c.distorted = write_y4m(dir + "/d10.y4m", 32, 16, 10, 2);  // the same picture at 10 bits
  c.features = {"psnr", "float_moment"};
  c.no_prediction = true;
  EXPECT_THROW(run_to_json(c), Error);  // without the preset's flag: differing depths are an error
  c.common_bitdepth = true;
  const auto out = run_to_json(c);
  const auto& m = out["frames"][0]["metrics"];
  EXPECT_EQ(m["psnr_y"].get<double>(), 72.0);  // identical at 10 bits: the 10-bit cap
  EXPECT_EQ(m["float_moment_ref1st"].get<double>(), m["float_moment_dis1st"].get<double>());
  // The other way round too.
  std::swap(c.reference, c.distorted);
  EXPECT_EQ(run_to_json(c)["frames"][0]["metrics"]["psnr_y"].get<double>(), 72.0);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace vqtwin::test
