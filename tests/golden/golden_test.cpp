// Every golden of ../shared/golden (libvmaf 3.2's own output at %.17g, and the fork's integer SSIM)
// reproduced bit for bit: each (pair, run) of runs.tsv is one test.
#include <gtest/gtest.h>

#include "../support/golden_support.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::test {
namespace {

class Golden : public ::testing::TestWithParam<GoldenRun> {};

TEST_P(Golden, BitExact) {
  const GoldenRun& g = GetParam();
  RunConfig cfg;
  std::tie(cfg.reference, cfg.distorted) = inputs_of(g.pair);
  apply_args(g.args, cfg);
  cfg.threads = 2;
  // Models by version, through the search path (never a path baked into the build).
  setenv("VQTWIN_MODEL_PATH", (shared_dir() + "/models").c_str(), 1);
  nlohmann::ordered_json ours;
  try {
    ours = run_to_json(cfg);
  } catch (const Error& e) {
    FAIL() << g.pair << " " << g.run << ": " << e.what();
  }
  const auto golden = load_json(g.golden);
  std::vector<std::pair<std::string, std::string>> rename;
  if (g.run == "ssim") rename.emplace_back("integer_ssim", "ssim");  // the fork's name (DECISIONS.md §1)
  const auto diffs = compare_outputs(ours, golden, rename);
  std::string report;
  for (const auto& d : diffs) report += "\n  " + d;
  EXPECT_TRUE(diffs.empty()) << g.pair << " / " << g.run << " (" << g.args << ")" << report;
}

std::string test_name(const ::testing::TestParamInfo<GoldenRun>& info) {
  std::string n = info.param.pair + "__" + info.param.run;
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Shared, Golden, ::testing::ValuesIn(golden_runs()), test_name);

}  // namespace
}  // namespace vqtwin::test
