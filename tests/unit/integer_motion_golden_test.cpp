// Integer motion against the VMAF model goldens: those runs need VIF, ADM and the model too, so this
// test runs `--feature motion` alone and compares its three outputs per frame (and pooled), bit for
// bit, with every vmaf_*.max.json that holds them.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "../support/golden_support.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::test {
namespace {

namespace fs = std::filesystem;

const char* const kNames[] = {"VMAF_integer_feature_motion_sad_score", "integer_motion2", "integer_motion3"};

struct MotionGolden {
  std::string pair, golden;
};
void PrintTo(const MotionGolden& g, std::ostream* os) { *os << g.pair << " vs " << g.golden; }

std::vector<MotionGolden> motion_goldens() {
  std::vector<MotionGolden> out;
  std::vector<std::string> pairs;
  for (const auto& e : fs::directory_iterator(shared_dir() + "/golden"))
    if (e.is_directory()) pairs.push_back(e.path().filename().string());
  std::sort(pairs.begin(), pairs.end());
  for (const auto& pair : pairs)
    for (const char* run : {"vmaf_v0.6.1", "vmaf_v0.6.1neg", "vmaf_4k_v0.6.1"}) {
      const std::string file = shared_dir() + "/golden/" + pair + "/" + run + ".max.json";
      if (fs::exists(file)) out.push_back({pair, file});
    }
  return out;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

class IntegerMotionGolden : public ::testing::TestWithParam<MotionGolden> {};

TEST_P(IntegerMotionGolden, BitExact) {
  const MotionGolden& g = GetParam();
  RunConfig cfg;
  std::tie(cfg.reference, cfg.distorted) = inputs_of(g.pair);
  cfg.no_prediction = true;
  cfg.features = {"motion"};
  cfg.threads = 2;
  nlohmann::ordered_json ours;
  try {
    ours = run_to_json(cfg);
  } catch (const Error& e) {
    FAIL() << g.pair << ": " << e.what();
  }
  const auto gold = load_json(g.golden);
  const auto& fo = ours["frames"];
  const auto& fg = gold["frames"];
  ASSERT_EQ(fo.size(), fg.size());
  int checked = 0;
  for (std::size_t i = 0; i < fo.size(); ++i) {
    // Our names in our order: exactly the three, in the golden's relative order.
    std::vector<std::string> names;
    for (auto it = fo[i]["metrics"].begin(); it != fo[i]["metrics"].end(); ++it) names.push_back(it.key());
    ASSERT_EQ(names, std::vector<std::string>(std::begin(kNames), std::end(kNames))) << "frame " << i;
    for (const char* n : kNames) {
      const double a = fo[i]["metrics"][n].get<double>(), b = fg[i]["metrics"][n].get<double>();
      EXPECT_TRUE(same_bits(a, b)) << g.pair << " frame " << i << " " << n << ": " << a << " != golden " << b;
      ++checked;
    }
  }
  for (const char* n : kNames)
    for (auto it = gold["pooled_metrics"][n].begin(); it != gold["pooled_metrics"][n].end(); ++it)
      EXPECT_TRUE(same_bits(ours["pooled_metrics"][n][it.key()].get<double>(), it->get<double>()))
          << g.pair << " pooled " << n << " " << it.key();
  EXPECT_EQ(checked, int(3 * fg.size()));
}

std::string test_name(const ::testing::TestParamInfo<MotionGolden>& info) {
  std::string n = info.param.pair + "__" + fs::path(info.param.golden).stem().stem().string();
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Shared, IntegerMotionGolden, ::testing::ValuesIn(motion_goldens()), test_name);

}  // namespace
}  // namespace vqtwin::test

namespace vqtwin::test {
namespace {

// Temporal extractors take frames in order whatever the thread count; the outputs (values, names and
// their order) must not depend on it.
TEST(MotionThreads, ResultsDoNotDependOnTheThreadCount) {
  auto run_with = [](unsigned threads) {
    RunConfig cfg;
    std::tie(cfg.reference, cfg.distorted) = inputs_of("odd_853x480_8bit_444");
    cfg.no_prediction = true;
    cfg.features = {"motion=debug=true", "float_motion=motion_add_uv=true:motion_add_scale1=true", "float_motion",
                    "float_psnr"};
    cfg.threads = threads;
    auto j = run_to_json(cfg);
    j.erase("fps");
    return j.dump();
  };
  const std::string one = run_with(1);
  EXPECT_EQ(one, run_with(2));
  EXPECT_EQ(one, run_with(3));
}

}  // namespace
}  // namespace vqtwin::test
