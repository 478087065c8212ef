// integer VIF against libvmaf's goldens: every per-frame integer_vif_scale* value of the
// vmaf_v0.6.1 run (default options) and of the vmaf_v0.6.1neg run (vif_enhn_gain_limit=1), bit
// for bit, on every pair that has them. Only the vif extractor runs (no model, no ADM/motion).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "../support/golden_support.hpp"

namespace vqtwin::test {
namespace {

struct VifGoldenCase {
  std::string pair;
  std::string golden;   // file name in the pair's folder
  std::string feature;  // --feature text
  std::string suffix;   // of the output names
};

std::vector<VifGoldenCase> vif_cases() {
  std::vector<VifGoldenCase> out;
  const std::string root = shared_dir() + "/golden";
  if (!std::filesystem::exists(root)) return out;
  std::vector<std::string> pairs;
  for (const auto& e : std::filesystem::directory_iterator(root))
    if (e.is_directory()) pairs.push_back(e.path().filename().string());
  std::sort(pairs.begin(), pairs.end());
  for (const auto& p : pairs) {
    if (std::filesystem::exists(root + "/" + p + "/vmaf_v0.6.1.max.json"))
      out.push_back({p, "vmaf_v0.6.1.max.json", "vif", ""});
    if (std::filesystem::exists(root + "/" + p + "/vmaf_v0.6.1neg.max.json"))
      out.push_back({p, "vmaf_v0.6.1neg.max.json", "vif=vif_enhn_gain_limit=1", "_egl_1"});
  }
  return out;
}

void PrintTo(const VifGoldenCase& c, std::ostream* os) { *os << c.pair << " " << c.feature; }

class IntegerVifGolden : public ::testing::TestWithParam<VifGoldenCase> {};

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST_P(IntegerVifGolden, EveryFrameBitExact) {
  const VifGoldenCase& c = GetParam();
  const auto [ref, dist] = inputs_of(c.pair);
  if (!std::filesystem::exists(ref) || !std::filesystem::exists(dist)) GTEST_SKIP() << "fixtures not decoded";
  RunConfig cfg;
  cfg.reference = ref;
  cfg.distorted = dist;
  cfg.features = {c.feature};
  cfg.no_prediction = true;
  const auto ours = run_to_json(cfg);
  const auto gold = load_json(shared_dir() + "/golden/" + c.pair + "/" + c.golden);
  const auto& fo = ours["frames"];
  const auto& fg = gold["frames"];
  ASSERT_EQ(fo.size(), fg.size());
  int compared = 0, mismatches = 0;
  for (std::size_t i = 0; i < fg.size(); ++i) {
    const auto& mo = fo[i]["metrics"];
    // Only our four names, in libvmaf's order.
    std::vector<std::string> names;
    for (auto it = mo.begin(); it != mo.end(); ++it) names.push_back(it.key());
    ASSERT_EQ(names, (std::vector<std::string>{"integer_vif_scale0" + c.suffix, "integer_vif_scale1" + c.suffix,
                                               "integer_vif_scale2" + c.suffix, "integer_vif_scale3" + c.suffix}));
    for (const auto& name : names) {
      ASSERT_TRUE(fg[i]["metrics"].contains(name)) << name;
      const double g = fg[i]["metrics"][name].get<double>();
      const double o = mo[name].get<double>();
      ++compared;
      if (!same_bits(o, g)) {
        ++mismatches;
        ADD_FAILURE() << "frame " << i << " " << name << ": " << o << " != golden " << g;
        if (mismatches > 10) return;
      }
    }
  }
  EXPECT_EQ(compared, int(fg.size()) * 4);
}

INSTANTIATE_TEST_SUITE_P(Shared, IntegerVifGolden, ::testing::ValuesIn(vif_cases()),
                         [](const ::testing::TestParamInfo<VifGoldenCase>& p) {
                           std::string n = p.param.pair + (p.param.suffix.empty() ? "__default" : "__egl_1");
                           for (char& ch : n)
                             if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(IntegerVifGolden);

}  // namespace
}  // namespace vqtwin::test
