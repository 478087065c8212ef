// Properties of the shared fixtures that no golden states (the golden comparisons themselves are in
// tests/golden): integer ADM on identical frames, and temporal extractors independent of --threads.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "../support/golden_support.hpp"

namespace vqtwin::test {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> identical_pairs() {
  std::vector<std::string> out;
  const fs::path root = fs::path(shared_dir()) / "golden";
  if (!fs::is_directory(root)) return out;
  for (const auto& e : fs::directory_iterator(root))
    if (e.is_directory() && e.path().filename().string().rfind("identical_", 0) == 0)
      out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

class IdenticalFrames : public ::testing::TestWithParam<std::string> {};

// Identical frames: q = 0 everywhere, so aim is exactly 0 and adm3 = 0.5 adm2 + 0.5; adm2 is
// slightly above 1 (the fixed-point numerator against the float denominator), or exactly 1 on a
// frame without detail (libvmaf gives the same, checked against its scalar build).
TEST_P(IdenticalFrames, IntegerAdmInvariants) {
  RunConfig cfg;
  std::tie(cfg.reference, cfg.distorted) = inputs_of(GetParam());
  cfg.features = {"adm"};
  cfg.no_prediction = true;
  cfg.threads = 2;
  const auto ours = run_to_json(cfg);
  ASSERT_FALSE(ours["frames"].empty());
  for (const auto& fr : ours["frames"]) {
    const auto& m = fr["metrics"];
    const double adm2 = m["integer_adm2"].get<double>();
    EXPECT_EQ(m["integer_aim"].get<double>(), 0.0);
    EXPECT_EQ(m["integer_adm3"].get<double>(), adm2 * 0.5 + (1 - 0.0) * 0.5);
    EXPECT_GE(adm2, 1.0);
    EXPECT_LT(adm2, 1.0001);
  }
}

INSTANTIATE_TEST_SUITE_P(Shared, IdenticalFrames, ::testing::ValuesIn(identical_pairs()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return name_part(p.param); });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(IdenticalFrames);

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
