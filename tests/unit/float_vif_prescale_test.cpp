// float_vif's vif_prescale / vif_prescale_method (spec: float_vif.md §8) against libvmaf 3.2.0's own
// numbers: tests/expected/libvmaf_vif_prescale.json (tools/dev/record_vif_prescale.sh; its "source" says
// how it was made). Every method at factors below and above 1 and at the range's ends, on 8-bit 4:2:0,
// odd-sized 4:4:4 and 10-bit fixture pairs; each case runs vqtwin's run() and compares every per-frame
// value and name bit for bit. This is the only independent check of the prescale: the CPU and the CUDA
// twin share its per-sample code (cells.hpp's prescaled_at).
#include <gtest/gtest.h>

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "../support/golden_support.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::test {
namespace {

struct PrescaleCase {
  std::string pair, feature;
  unsigned frame_cnt;
  nlohmann::ordered_json frames;  // libvmaf's frames array (frameNum, metrics)
};
[[maybe_unused]] void PrintTo(const PrescaleCase& c, std::ostream* os) { *os << c.pair << " --feature " << c.feature; }

const std::string kExpected = std::string(VQTWIN_EXPECTED_DIR) + "/libvmaf_vif_prescale.json";

std::vector<PrescaleCase> load_cases() {
  const auto doc = load_json(kExpected);
  std::vector<PrescaleCase> out;
  for (const auto& c : doc.at("cases"))
    out.push_back({c.at("pair").get<std::string>(), c.at("feature").get<std::string>(),
                   doc.at("frame_cnt").get<unsigned>(), c.at("frames")});
  return out;
}

// Only the frames are recorded (the pooled values come from the shared pooling code, checked by the goldens).
nlohmann::ordered_json frames_only(const nlohmann::ordered_json& frames) {
  nlohmann::ordered_json doc;
  doc["frames"] = frames;
  doc["pooled_metrics"] = nlohmann::ordered_json::object();
  doc["aggregate_metrics"] = nlohmann::ordered_json::object();
  return doc;
}

class VifPrescale : public ::testing::TestWithParam<PrescaleCase> {};

TEST_P(VifPrescale, EqualsLibvmaf) {
  const PrescaleCase& c = GetParam();
  RunConfig cfg;
  std::tie(cfg.reference, cfg.distorted) = inputs_of(c.pair);
  for (const auto& f : {cfg.reference, cfg.distorted})
    if (!std::filesystem::exists(f))
      GTEST_SKIP() << "fixture " << f << " absent (ctest's decode_fixtures decodes shared/fixtures into "
                   << fixtures_dir() << ")";
  cfg.features = {c.feature};
  cfg.no_prediction = true;
  cfg.frame_cnt = c.frame_cnt;
  cfg.threads = 2;
  nlohmann::ordered_json ours;
  try {
    ours = run_to_json(cfg);
  } catch (const Error& e) {
    FAIL() << c.pair << " " << c.feature << ": " << e.what();
  }
  ASSERT_EQ(c.frames.size(), c.frame_cnt) << "expected data of " << c.feature;
  const auto diffs = compare_outputs(frames_only(ours["frames"]), frames_only(c.frames));
  std::string report;
  for (const auto& d : diffs) report += "\n  " + d;
  EXPECT_TRUE(diffs.empty()) << c.pair << " --feature " << c.feature << report;
}

std::string case_name(const ::testing::TestParamInfo<PrescaleCase>& info) {
  std::string feature = info.param.feature.substr(info.param.feature.find('=') + 1);
  return name_part(info.param.pair + "__" + feature);
}

INSTANTIATE_TEST_SUITE_P(Libvmaf, VifPrescale, ::testing::ValuesIn(load_cases()), case_name);

// The expected file holds every case the recording script lists (a truncated file would pass fewer).
TEST(VifPrescaleData, HoldsEveryCase) {
  const auto cases = load_cases();
  EXPECT_EQ(cases.size(), 45u);
  for (const auto& c : cases) EXPECT_EQ(c.frames.size(), 3u) << c.feature;
}

}  // namespace
}  // namespace vqtwin::test
