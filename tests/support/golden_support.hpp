#pragma once
// Helpers of the golden tests: the shared data's layout, and running vqtwin in-process on a pair.
#include <nlohmann/json.hpp>
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
};

std::string shared_dir();
std::string fixtures_dir();
// Every (pair, run) of runs.tsv that has a golden file (<run>.max.json, or fork_ssim.json for "ssim").
std::vector<GoldenRun> golden_runs();
// Reference and distorted .y4m of a golden folder (identical_* compare a ref with itself).
std::pair<std::string, std::string> inputs_of(const std::string& pair);
// Fills features/models/no_prediction/frame_cnt of `cfg` from an argument text of runs.tsv.
void apply_args(const std::string& args, RunConfig& cfg);
// Runs vqtwin and returns its JSON at --precision max, parsed (keys kept in order).
nlohmann::ordered_json run_to_json(const RunConfig& cfg);
nlohmann::ordered_json load_json(const std::string& path);
// Differences between two vmaf JSON documents (frames, pooled, aggregate; exact values, names,
// order); empty when equal. `rename` maps our names to the golden's (e.g. integer_ssim → ssim).
std::vector<std::string> compare_outputs(const nlohmann::ordered_json& ours, const nlohmann::ordered_json& golden,
                                         const std::vector<std::pair<std::string, std::string>>& rename = {},
                                         std::size_t max_reports = 20);

}  // namespace vqtwin::test

namespace vqtwin::test {
inline void PrintTo(const GoldenRun& g, std::ostream* os) { *os << g.pair << "/" << g.run; }
}  // namespace vqtwin::test
