// run_ladder against its independent reference: each rendition scored by run() alone. Every per-frame
// value, pooled value, aggregate, frame count, conversion note and error must be the same, bit for bit,
// whatever each rendition asks (other sizes scaled as --scale does, other bit depths, subsampling,
// skips, --sync auto, frame counts, threads) and whatever goes wrong (a missing or damaged distorted
// input, a damaged reference).
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "../support/golden_support.hpp"
#include "io_support.hpp"
#include "vqtwin/error.hpp"
#include "vqtwin/ladder.hpp"
#include "vqtwin/run.hpp"

namespace vqtwin::test {
namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void expect_same_results(const Results& ladder, const Results& alone, const std::string& label) {
  SCOPED_TRACE(label);
  ASSERT_EQ(ladder.names(), alone.names());
  ASSERT_EQ(ladder.frame_count(), alone.frame_count());
  EXPECT_EQ(ladder.frames, alone.frames);
  EXPECT_EQ(ladder.scores, alone.scores);
  EXPECT_EQ(ladder.width, alone.width);
  EXPECT_EQ(ladder.height, alone.height);
  EXPECT_EQ(ladder.input_conversions, alone.input_conversions);
  EXPECT_EQ(ladder.sync_offset, alone.sync_offset);
  int differences = 0;
  for (const std::string& name : alone.names()) {
    for (unsigned f = 0; f < alone.frame_count(); ++f) {
      const auto a = ladder.value(name, f), b = alone.value(name, f);
      ASSERT_EQ(a.has_value(), b.has_value()) << name << " frame " << f;
      if (a && !same_bits(*a, *b) && differences++ < 5)
        ADD_FAILURE() << name << " frame " << f << ": " << *a << " vs " << *b;
    }
    const auto pa = ladder.pooled(name, {PoolMethod::kHarmonicMean}), pb = alone.pooled(name, {PoolMethod::kHarmonicMean});
    EXPECT_EQ(pa.has_value(), pb.has_value()) << name;
    if (pa && pb) {
      EXPECT_TRUE(same_bits(*pa, *pb)) << name;
    }
  }
  ASSERT_EQ(ladder.aggregates().size(), alone.aggregates().size());
  for (std::size_t i = 0; i < alone.aggregates().size(); ++i) {
    EXPECT_EQ(ladder.aggregates()[i].first, alone.aggregates()[i].first);
    EXPECT_TRUE(same_bits(ladder.aggregates()[i].second, alone.aggregates()[i].second));
  }
  EXPECT_EQ(differences, 0);
}

struct Alone {
  std::unique_ptr<Results> results = std::make_unique<Results>();
  std::string error;
};

Alone run_alone(const RunConfig& c) {
  Alone a;
  try {
    run(c, *a.results);
  } catch (const Error& e) {
    a.error = e.what();
  }
  return a;
}

// Runs `renditions` as a ladder and each alone; compares them; returns the ladder's results.
std::vector<std::unique_ptr<RenditionResult>> check_ladder(const std::vector<RunConfig>& renditions) {
  auto ladder = run_ladder(renditions);
  EXPECT_EQ(ladder.size(), renditions.size());
  for (std::size_t i = 0; i < renditions.size(); ++i) {
    const Alone alone = run_alone(renditions[i]);
    const std::string label = "rendition " + std::to_string(i) + " (" + renditions[i].distorted + ")";
    EXPECT_EQ(ladder[i]->error, alone.error) << label;
    expect_same_results(ladder[i]->results, *alone.results, label);
  }
  return ladder;
}

RunConfig base(const std::string& distorted) {
  RunConfig c;
  c.reference = sd_reference();
  c.distorted = distorted;
  c.threads = 1;
  return c;
}

std::string sd_distorted() { return fixtures_dir() + "/sd_576x324_8bit_420_dist.y4m"; }

TEST(Ladder, EachRenditionIsItsOwnRunBitForBit) {
  const std::string small = ffmpeg_clip("ladder_320x180.mkv", "-i " + sd_distorted() + " -vf scale=320:180 -c:v libx264 -crf 32");
  const std::string large = ffmpeg_clip("ladder_704x396.mp4", "-i " + sd_distorted() + " -vf scale=704:396 -c:v libx264 -crf 20");
  const std::string short_clip = ffmpeg_clip("ladder_short.y4m", "-i " + sd_distorted() + " -frames:v 20");
  const std::string shifted = ffmpeg_clip("ladder_shifted.y4m", "-i " + sd_distorted() + " -vf trim=start_frame=1");
  std::vector<RunConfig> r;
  r.push_back(base(sd_distorted()));  // VMAF, 1 thread
  r.push_back(base(fixtures_dir() + "/sd_576x324_8bit_420_b_dist.y4m"));
  r.back().threads = 3;
  r.back().subsample = 3;
  r.back().features = {"psnr=enable_apsnr=true", "float_ssim"};
  r.push_back(base(small));
  r.back().scale = "auto";
  r.push_back(base(large));
  r.back().scale = "auto";
  r.back().threads = 2;
  r.push_back(base(short_clip));  // shorter than the reference: the length warning counts the reference on
  r.push_back(base(shifted));
  r.back().sync = "auto";
  r.push_back(base(sd_distorted()));
  r.back().frame_skip_ref = 2;
  r.back().frame_skip_dist = 1;
  r.back().frame_cnt = 17;
  r.back().no_prediction = true;
  r.back().features = {"float_motion", "motion"};
  auto ladder = check_ladder(r);
  for (const auto& one : ladder) EXPECT_EQ(one->error, "");
  EXPECT_EQ(ladder[2]->results.input_conversions.size(), 1u);  // scaled, as --scale auto does
  ASSERT_TRUE(ladder[5]->results.sync_offset.has_value());
  EXPECT_EQ(*ladder[5]->results.sync_offset, -1);
  EXPECT_EQ(ladder[0]->results.frame_count(), 48u);
  EXPECT_EQ(ladder[4]->results.frame_count(), 20u);
}

TEST(Ladder, OneRenditionFailingLeavesTheOthers) {
  const std::string damaged = clip_dir() + "/ladder_damaged.y4m";
  {
    // 10 whole frames, then a truncated one.
    std::ifstream in(sd_distorted(), std::ios::binary);
    std::string data((std::istreambuf_iterator<char>(in)), {});
    const std::size_t header = data.find('\n') + 1, frame = 6 + 576 * 324 * 3 / 2;
    std::ofstream(damaged, std::ios::binary) << data.substr(0, header + 10 * frame + 100);
  }
  std::vector<RunConfig> r{base(sd_distorted()), base(clip_dir() + "/no_such_file.y4m"), base(damaged),
                           base(sd_distorted())};
  r[3].features = {"no_such_feature"};
  r.push_back(base(ffmpeg_clip("ladder_small_noscale.y4m", "-i " + sd_distorted() + " -frames:v 4 -vf scale=320:180")));
  auto ladder = check_ladder(r);
  EXPECT_EQ(ladder[0]->error, "");
  EXPECT_NE(ladder[1]->error.find("no_such_file.y4m"), std::string::npos);
  EXPECT_NE(ladder[2]->error.find("truncated"), std::string::npos);
  EXPECT_EQ(ladder[2]->results.frame_count(), 10u);  // the frames before the damage are kept
  EXPECT_NE(ladder[3]->error.find("no_such_feature"), std::string::npos);
  EXPECT_NE(ladder[4]->error.find("--scale auto"), std::string::npos);
  EXPECT_EQ(ladder[0]->results.frame_count(), 48u);
}

// --scale WxH converts the reference too: once for all the renditions that ask for the same size.
TEST(Ladder, BothScaledToOneSize) {
  const std::string small = ffmpeg_clip("ladder_320x180.mkv", "-i " + sd_distorted() + " -vf scale=320:180 -c:v libx264 -crf 32");
  std::vector<RunConfig> r{base(sd_distorted()), base(small), base(sd_distorted())};
  for (auto& c : r) {
    c.scale = "400x226";
    c.frame_cnt = 12;
    c.features = {"psnr"};
  }
  r[2].scale = "auto";  // another reference format: the reference opened a second time
  r[2].features = {"float_ssim"};
  check_ladder(r);
}

// Renditions of other bit depths: the reference is needed at 8 and at 10 bits (--common_bitdepth), so it
// is read once per format; each rendition still equals its own run.
TEST(Ladder, RenditionsOfOtherBitDepths) {
  const std::string ref8 = reference_in("yuv420p");
  const std::string dist10 = ffmpeg_clip("ladder_dist10.mkv", "-i " + sd_distorted() +
                                                                  " -frames:v 12 -pix_fmt yuv420p10le -c:v libx265 -x265-params log-level=error:crf=30");
  std::vector<RunConfig> r{base(sd_distorted()), base(dist10), base(dist10)};
  for (auto& c : r) {
    c.reference = ref8;
    c.common_bitdepth = true;
  }
  r[2].common_bitdepth = false;  // an error for this one alone
  auto ladder = check_ladder(r);
  EXPECT_EQ(ladder[0]->error, "");  // 12 frames against 48: a warning only
  EXPECT_EQ(ladder[1]->error, "");
  EXPECT_NE(ladder[2]->error.find("--common_bitdepth"), std::string::npos);
}

TEST(Ladder, ADamagedReferenceIsEveryRenditionsErrorAtItsFrame) {
  const std::string damaged = clip_dir() + "/ladder_damaged_ref.y4m";
  {
    std::ifstream in(sd_reference(), std::ios::binary);
    std::string data((std::istreambuf_iterator<char>(in)), {});
    const std::size_t header = data.find('\n') + 1, frame = 6 + 576 * 324 * 3 / 2;
    std::ofstream(damaged, std::ios::binary) << data.substr(0, header + 7 * frame + 50);
  }
  std::vector<RunConfig> r{base(sd_distorted()), base(sd_distorted()), base(fixtures_dir() + "/sd_576x324_8bit_420_b_dist.y4m")};
  for (auto& c : r) c.reference = damaged;
  r[1].frame_skip_ref = 3;
  r[2].threads = 4;
  auto ladder = check_ladder(r);
  for (const auto& one : ladder) EXPECT_NE(one->error.find("truncated"), std::string::npos) << one->error;
  EXPECT_EQ(ladder[0]->results.frame_count(), 7u);
  EXPECT_EQ(ladder[1]->results.frame_count(), 4u);
}

TEST(Ladder, RefusesRenditionsOfAnotherReference) {
  std::vector<RunConfig> r{base(sd_distorted()), base(sd_distorted())};
  r[1].reference = sd_distorted();
  EXPECT_THROW(run_ladder(r), Error);
  r[1].reference = r[0].reference;
  r[1].max_pixels = 1000;
  EXPECT_THROW(run_ladder(r), Error);
  EXPECT_TRUE(run_ladder({}).empty());
}

}  // namespace
}  // namespace vqtwin::test
