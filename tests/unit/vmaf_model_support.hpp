#pragma once
// Shared helpers of the VMAF model tests: the shared data, and stand-in extractor schemas so the
// prediction is tested independently of the extractors (only their option schemas matter to a
// model: they name the outputs).
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/extractor.hpp"
#include "models/vmaf_model.hpp"

namespace vqtwin::test {

inline std::string shared_path(const std::string& rel) { return std::string(VQTWIN_SHARED_DIR) + "/" + rel; }

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::string model_bytes(const std::string& version) { return slurp(shared_path("models/" + version + ".json")); }

// Golden folders holding VMAF runs.
inline std::vector<std::string> golden_pairs() {
  std::vector<std::string> pairs;
  for (const auto& e : std::filesystem::directory_iterator(shared_path("golden")))
    if (std::filesystem::exists(e.path() / "vmaf_v0.6.1.max.json")) pairs.push_back(e.path().filename().string());
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

// libvmaf's gain-limit options as the integer ADM and VIF extractors declare them (FEATURE_PARAM,
// alias egl, default 100): all a model needs of an extractor to name its outputs.
inline constexpr OptionSpec kStandInAdm[] = {
    opt_double("adm_enhn_gain_limit", "egl", 100.0, 1.0, 100.0, "gain limit", true)};
inline constexpr OptionSpec kStandInVif[] = {
    opt_double("vif_enhn_gain_limit", "egl", 100.0, 1.0, 100.0, "gain limit", true)};

inline const ExtractorInfo* stand_in_extractor(std::string_view name) {
  static const FeatureSpec specs[] = {{.name = "adm", .options = kStandInAdm},       {.name = "vif", .options = kStandInVif},
                                      {.name = "motion"},                            {.name = "float_adm", .options = kStandInAdm},
                                      {.name = "float_vif", .options = kStandInVif}, {.name = "float_motion"}};
  static const ExtractorInfo all[] = {{&specs[0], Backend::kCpu, specs[0].name}, {&specs[1], Backend::kCpu, specs[1].name},
                                      {&specs[2], Backend::kCpu, specs[2].name}, {&specs[3], Backend::kCpu, specs[3].name},
                                      {&specs[4], Backend::kCpu, specs[4].name}, {&specs[5], Backend::kCpu, specs[5].name}};
  for (const ExtractorInfo& e : all)
    if (e.name == name) return &e;
  return nullptr;
}

inline std::unique_ptr<models::Model> stand_in_model(const std::string& bytes, const std::string& source,
                                                     const models::ModelSettings& settings = {}) {
  return models::make_model(bytes, source, settings, stand_in_extractor);
}

}  // namespace vqtwin::test
