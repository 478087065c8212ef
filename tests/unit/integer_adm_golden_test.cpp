// integer ADM (`adm`) against libvmaf 3.2's goldens, bit for bit: every per-frame integer_adm*
// value of the vmaf_v0.6.1 / vmaf_4k_v0.6.1 runs (default options) and of vmaf_v0.6.1neg
// (adm_enhn_gain_limit=1, the _egl_1 names), on every pair that has them. The pairs whose
// goldens hold no ADM (identical_* without a vmaf run) are checked for the identical-frame
// invariants instead.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "../support/golden_support.hpp"

namespace vqtwin::test {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kNames = {
    "integer_adm2",       "integer_aim",        "integer_adm3",       "integer_adm_scale0",
    "integer_adm_scale1", "integer_adm_scale2", "integer_adm_scale3",
};

std::vector<std::string> golden_pairs() {
  std::vector<std::string> pairs;
  for (const auto& e : fs::directory_iterator(shared_dir() + "/golden"))
    if (e.is_directory()) pairs.push_back(e.path().filename().string());
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

nlohmann::ordered_json run_adm(const std::string& pair, const std::string& feature) {
  RunConfig cfg;
  std::tie(cfg.reference, cfg.distorted) = inputs_of(pair);
  cfg.features = {feature};
  cfg.no_prediction = true;
  cfg.threads = 2;
  return run_to_json(cfg);
}

// Every frame of `golden` has our value for each name (+ suffix), ==, and nothing else differs
// in the frame count or the order of our names.
void expect_same(const nlohmann::ordered_json& ours, const std::string& golden_file, const std::string& suffix) {
  const auto golden = load_json(golden_file);
  ASSERT_EQ(ours["frames"].size(), golden["frames"].size()) << golden_file;
  int mismatches = 0;
  for (std::size_t f = 0; f < golden["frames"].size(); ++f) {
    const auto& mine = ours["frames"][f]["metrics"];
    const auto& theirs = golden["frames"][f]["metrics"];
    std::vector<std::string> order;
    for (const auto& [name, v] : mine.items()) order.push_back(name);
    std::vector<std::string> expected;
    for (const auto& n : kNames) expected.push_back(n + suffix);
    EXPECT_EQ(order, expected) << "frame " << f;
    for (const auto& n : expected) {
      ASSERT_TRUE(theirs.contains(n)) << golden_file << " lacks " << n;
      const double a = mine[n].get<double>(), b = theirs[n].get<double>();
      if (a != b && ++mismatches <= 10)
        ADD_FAILURE() << golden_file << " frame " << f << " " << n << ": ours " << a << " golden " << b;
    }
  }
  EXPECT_EQ(mismatches, 0) << golden_file;
}

class IntegerAdmGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(IntegerAdmGolden, BitExact) {
  const std::string& pair = GetParam();
  const std::string dir = shared_dir() + "/golden/" + pair + "/";
  const bool has_vmaf = fs::exists(dir + "vmaf_v0.6.1.max.json");
  const auto plain = run_adm(pair, "adm");
  if (has_vmaf) {
    expect_same(plain, dir + "vmaf_v0.6.1.max.json", "");
    expect_same(plain, dir + "vmaf_4k_v0.6.1.max.json", "");
    expect_same(run_adm(pair, "adm=adm_enhn_gain_limit=1"), dir + "vmaf_v0.6.1neg.max.json", "_egl_1");
  }
  if (pair.rfind("identical_", 0) == 0) {
    // Identical frames: q = 0 everywhere, so aim is exactly 0 and adm3 = 0.5 adm2 + 0.5; adm2 is
    // slightly above 1 (the fixed-point numerator against the float denominator), or exactly 1 on
    // a frame without detail (libvmaf gives the same, checked against its scalar build).
    ASSERT_FALSE(plain["frames"].empty());
    for (const auto& fr : plain["frames"]) {
      const auto& m = fr["metrics"];
      const double adm2 = m["integer_adm2"].get<double>();
      EXPECT_EQ(m["integer_aim"].get<double>(), 0.0);
      EXPECT_EQ(m["integer_adm3"].get<double>(), adm2 * 0.5 + (1 - 0.0) * 0.5);
      EXPECT_GE(adm2, 1.0);
      EXPECT_LT(adm2, 1.0001);
    }
  }
}

std::string pair_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string n = info.param;
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Shared, IntegerAdmGolden, ::testing::ValuesIn(golden_pairs()), pair_name);

}  // namespace
}  // namespace vqtwin::test
