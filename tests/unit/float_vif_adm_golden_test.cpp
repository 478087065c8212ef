// float_vif and float_adm against libvmaf's own numbers: every per-frame vif_scale0..3, adm2, aim,
// adm3 and adm_scale0..3 of golden/<pair>/vmaf_float_v0.6.1.max.json, bit for bit, on every pair
// that has that golden (the full model run also needs float_motion and the model; this test needs
// only these two extractors).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "../support/golden_support.hpp"

namespace vqtwin::test {
namespace {

namespace fs = std::filesystem;

constexpr const char* kGoldenRun = "vmaf_float_v0.6.1.max.json";

std::vector<std::string> pairs_with_float_golden() {
  std::vector<std::string> out;
  const fs::path root = fs::path(shared_dir()) / "golden";
  if (!fs::is_directory(root)) return out;
  for (const auto& e : fs::directory_iterator(root))
    if (e.is_directory() && fs::exists(e.path() / kGoldenRun)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

struct FeatureCase {
  const char* feature;
  std::vector<std::string> names;
};

const FeatureCase kCases[] = {
    {"float_vif", {"vif_scale0", "vif_scale1", "vif_scale2", "vif_scale3"}},
    {"float_adm", {"adm2", "aim", "adm3", "adm_scale0", "adm_scale1", "adm_scale2", "adm_scale3"}},
};

class FloatVifAdmGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(FloatVifAdmGolden, PerFrameValuesBitExact) {
  const std::string pair = GetParam();
  std::pair<std::string, std::string> inputs;
  try {
    inputs = inputs_of(pair);
  } catch (const std::exception& e) {
    GTEST_SKIP() << e.what();
  }
  if (!fs::exists(inputs.first) || !fs::exists(inputs.second)) GTEST_SKIP() << "fixtures not decoded: " << inputs.first;
  const auto golden = load_json(shared_dir() + "/golden/" + pair + "/" + kGoldenRun);
  const auto& gframes = golden["frames"];

  for (const FeatureCase& c : kCases) {
    RunConfig cfg;
    cfg.reference = inputs.first;
    cfg.distorted = inputs.second;
    cfg.features = {c.feature};
    cfg.no_prediction = true;
    cfg.threads = 2;  // non-temporal extractors: the result must not depend on it
    const auto ours = run_to_json(cfg);
    const auto& frames = ours["frames"];
    ASSERT_EQ(frames.size(), gframes.size()) << c.feature;

    std::size_t compared = 0, differing = 0;
    std::string first_diff;
    for (std::size_t i = 0; i < frames.size(); ++i) {
      const auto& m = frames[i]["metrics"];
      const auto& g = gframes[i]["metrics"];
      // Our extractor emits exactly these names, in the golden's order.
      std::vector<std::string> keys;
      for (auto it = m.begin(); it != m.end(); ++it) keys.push_back(it.key());
      ASSERT_EQ(keys, c.names) << c.feature << " frame " << i;
      for (const std::string& name : c.names) {
        ASSERT_TRUE(g.contains(name)) << name;
        ++compared;
        const double a = m[name].get<double>(), b = g[name].get<double>();
        if (!same_bits(a, b)) {
          if (differing++ == 0)
            first_diff = name + " frame " + std::to_string(i) + ": " + m[name].dump(17) + " != " + g[name].dump(17);
        }
      }
    }
    EXPECT_EQ(differing, 0u) << c.feature << " on " << pair << ": " << differing << " of " << compared
                             << " values differ; first: " << first_diff;
    EXPECT_EQ(compared, frames.size() * c.names.size());
  }
}

INSTANTIATE_TEST_SUITE_P(Shared, FloatVifAdmGolden, ::testing::ValuesIn(pairs_with_float_golden()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(FloatVifAdmGolden);

}  // namespace
}  // namespace vqtwin::test
