#pragma once
// Which extractor computes a feature a model names, and under which output base name.
#include <optional>
#include <string_view>

namespace vqtwin::models {

struct FeatureSource {
  std::string_view output;     // our output base name, before option suffixes ("integer_adm2")
  std::string_view extractor;  // the CPU extractor's name ("adm")
};

// By libvmaf's name as models write it ("VMAF_integer_feature_adm2_score", "VMAF_feature_motion2_score",
// or a plain provided name such as "integer_adm_scale0"); nullopt when the table does not know it.
std::optional<FeatureSource> feature_source(std::string_view model_feature_name);

}  // namespace vqtwin::models
