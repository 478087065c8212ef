#pragma once
// Helpers of the golden tests: the shared data's layout, and running vqtwin in-process on a pair.
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "vqtwin/run.hpp"

namespace vqtwin::test {

struct GoldenRun {
  std::string pair;      // golden folder, e.g. "sd_576x324_8bit_420" or "identical_576x324_8bit_420"
  std::string run;       // run name from runs.tsv
  std::string args;      // its vqtwin arguments
  std::string golden;    // path of the golden JSON
  std::string backend;   // RunConfig::backend the run uses ("cpu", ...)
  // The rcpss table of the CPU that made the golden (golden_rcpss.tsv); empty when that file has no
  // line for the run (the test then fails, naming it).
  std::optional<Rcpss> rcpss;
};

// One extractor run alone against the values it contributed to a golden of a larger run (a model
// run computes VIF, ADM and motion together): its outputs, by name, per frame and pooled.
struct SliceRun {
  std::string pair;
  std::string golden;              // path of the golden JSON
  std::string feature;             // --feature text
  std::vector<std::string> names;  // exactly our outputs, in this order
  std::string backend;
  unsigned frame_cnt = 0;          // the golden run's --frame_cnt (0 = all frames)
  std::optional<Rcpss> rcpss;      // as GoldenRun::rcpss, for the golden's run
};

std::string shared_dir();
std::string fixtures_dir();
// The backends the golden suite runs once each: VQTWIN_GOLDEN_BACKENDS (space-separated RunConfig
// backend names), default "cpu". A device backend adds its name there (e.g. "cpu cuda").
std::vector<std::string> golden_backends();
// The RunConfig backend of one of those names (vqtwin::Error for an unknown one).
Backend backend_of(const std::string& name);
// The CPU whose rcpss table made each golden run, by run name: tests/support/golden_rcpss.tsv, which
// encodes what the golden READMEs say (amd for the first runs and the fork's, intel for the added runs).
std::optional<Rcpss> golden_rcpss(const std::string& run);
// Every (pair, run) of runs.tsv that has a golden file (<run>.max.json, or fork_ssim.json for "ssim"),
// once per backend.
std::vector<GoldenRun> golden_runs();
// Every feature slice the goldens hold (integer VIF, ADM and motion from the vmaf runs, float VIF and
// ADM from the float vmaf runs), on every pair that has the golden, once per backend.
std::vector<SliceRun> slice_runs();
// A test-name fragment: the text with every character other than [A-Za-z0-9] turned into '_'.
std::string name_part(std::string text);
// Reference and distorted .y4m of a golden folder (identical_* compare a ref with itself).
std::pair<std::string, std::string> inputs_of(const std::string& pair);
// Fills features/models/no_prediction/frame_cnt of `cfg` from an argument text of runs.tsv.
void apply_args(const std::string& args, RunConfig& cfg);
// Runs vqtwin and returns its JSON at --precision max, parsed (keys kept in order).
// `results` as the CLI's JSON at --precision max (with its --subsample), parsed.
nlohmann::ordered_json results_to_json(const Results& results, unsigned subsample = 1);
nlohmann::ordered_json run_to_json(const RunConfig& cfg);
nlohmann::ordered_json load_json(const std::string& path);
// Differences between two vmaf JSON documents (frames, pooled, aggregate; exact values, names,
// order); empty when equal. `rename` maps our names to the golden's (e.g. integer_ssim → ssim).
std::vector<std::string> compare_outputs(const nlohmann::ordered_json& ours, const nlohmann::ordered_json& golden,
                                         const std::vector<std::pair<std::string, std::string>>& rename = {},
                                         std::size_t max_reports = 20);
// Differences between our run of one extractor and a golden of a larger run: every frame holds
// exactly `names` in this order, each equal bit for bit to the golden's value of that name, and
// so are the pooled values of those names; empty when equal.
std::vector<std::string> compare_slice(const nlohmann::ordered_json& ours, const nlohmann::ordered_json& golden,
                                       const std::vector<std::string>& names, std::size_t max_reports = 20);

}  // namespace vqtwin::test

namespace vqtwin::test {
inline void PrintTo(const GoldenRun& g, std::ostream* os) { *os << g.pair << "/" << g.run << " on " << g.backend; }
inline void PrintTo(const SliceRun& s, std::ostream* os) {
  *os << s.pair << " --feature " << s.feature << " vs " << s.golden << " on " << s.backend;
}
}  // namespace vqtwin::test
