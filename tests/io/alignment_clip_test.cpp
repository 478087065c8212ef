// The alignment safety net on real clips: an encode that was cut short, one that lost its first frame
// and one with an extra frame are reported (with the option that fixes them), aligned pairs are not.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <fstream>

#include "../support/golden_support.hpp"
#include "io_support.hpp"

namespace vqtwin::test {
namespace {

struct Outcome {
  int status = -1;
  std::string err;
};

Outcome cli(const std::string& args) {
  const std::string err = clip_dir() + "/align_stderr.txt";
  const int raw = std::system((std::string(VQTWIN_CLI) + " -q " + args + " -o " + clip_dir() + "/align.json 2>" + err).c_str());
  std::ifstream in(err);
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, std::string((std::istreambuf_iterator<char>(in)), {})};
}

std::string sd_distorted() { return fixtures_dir() + "/sd_576x324_8bit_420_dist.y4m"; }

TEST(AlignmentClips, ACutEncodeIsReported) {
  const std::string cut = ffmpeg_clip("cut.mp4", "-i " + sd_distorted() + " -frames:v 24 -c:v libx264 -preset veryfast");
  Outcome o = cli("-r " + sd_reference() + " -d " + cut + " -n --feature psnr");
  EXPECT_EQ(o.status, 0);
  EXPECT_EQ(o.err, "vqtwin: warning: " + cut + " ended after 24 frames, " + sd_reference() +
                       " has 48; scored 24; --strict_length makes this an error\n");
  o = cli("-r " + cut + " -d " + sd_reference() + " -n --feature psnr --strict_length");
  EXPECT_EQ(o.status, 1);
  EXPECT_EQ(o.err, "vqtwin: error: " + cut + " ended after 24 frames, " + sd_reference() +
                       " has 48; scored 24 (--strict_length)\n");
}

TEST(AlignmentClips, AShiftedEncodeIsReportedAndSyncAutoAlignsIt) {
  const std::string late = ffmpeg_clip(
      "late.mp4", "-i " + sd_distorted() + " -vf trim=start_frame=1,setpts=PTS-STARTPTS -c:v libx264 -preset veryfast -crf 18");
  Outcome o = cli("-r " + sd_reference() + " -d " + late + " -n --feature psnr --frame_cnt 40");
  EXPECT_NE(o.err.find("vqtwin: warning: " + late + " lacks the first 1 frame of " + sd_reference()), std::string::npos)
      << o.err;
  EXPECT_NE(o.err.find("; --frame_skip_ref 1 aligns them, --sync auto applies it"), std::string::npos) << o.err;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
  // The reference cut instead: the distorted has an extra frame at its start.
  const std::string ref_late = ffmpeg_clip(
      "ref_late.y4m", "-i " + sd_reference() + " -vf trim=start_frame=2,setpts=PTS-STARTPTS -f yuv4mpegpipe");
  o = cli("-r " + ref_late + " -d " + sd_distorted() + " -n --feature psnr --frame_cnt 40");
  EXPECT_NE(o.err.find(sd_distorted() + " has 2 frames more at its start than " + ref_late), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("--frame_skip_dist 2 aligns them"), std::string::npos) << o.err;
  // --sync auto: VMAF as with the right skip.
  RunConfig cfg;
  cfg.reference = sd_reference();
  cfg.distorted = late;
  cfg.threads = 2;
  cfg.sync = "auto";
  const auto synced = run_to_json(cfg);
  cfg.sync.clear();
  cfg.frame_skip_ref = 1;
  EXPECT_TRUE(compare_outputs(synced, run_to_json(cfg)).empty());
  EXPECT_EQ(synced["input"]["sync_offset"], -1);
}

TEST(AlignmentClips, AlignedPairsAreSilent) {
  for (const std::string pair : {"sd_576x324_8bit_420", "sd_576x324_8bit_420_b", "odd_853x480_8bit_444",
                                 "hd_1280x720_8bit_444", "hd_1280x720_10bit_420"}) {
    const Outcome o = cli("-r " + fixtures_dir() + "/" + pair + "_ref.y4m -d " + fixtures_dir() + "/" + pair +
                          "_dist.y4m -n --feature psnr --frame_cnt 10");
    EXPECT_EQ(o.status, 0) << pair;
    EXPECT_EQ(o.err, "") << pair;
  }
  const std::string encoded = ffmpeg_clip("aligned.mp4", "-i " + sd_distorted() + " -c:v libx264 -preset veryfast -crf 35");
  const Outcome o = cli("-r " + sd_reference() + " -d " + encoded + " -n --feature psnr");
  EXPECT_EQ(o.err, "");
}

}  // namespace
}  // namespace vqtwin::test
