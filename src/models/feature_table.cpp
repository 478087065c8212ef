// The model-feature table: libvmaf's long collector names (its alias list), the short names our
// extractors write, and the libvmaf extractor names that provide them. The extractors are found by
// name only, so this table does not depend on their code.
#include "models/feature_table.hpp"

namespace vqtwin::models {
namespace {

struct Entry {
  std::string_view model_name;
  FeatureSource source;
};

constexpr Entry kTable[] = {
    // Float features (vmaf_float_* models).
    {"VMAF_feature_adm2_score", {"adm2", "float_adm"}},
    {"VMAF_feature_aim_score", {"aim", "float_adm"}},
    {"VMAF_feature_adm3_score", {"adm3", "float_adm"}},
    {"VMAF_feature_adm_scale0_score", {"adm_scale0", "float_adm"}},
    {"VMAF_feature_adm_scale1_score", {"adm_scale1", "float_adm"}},
    {"VMAF_feature_adm_scale2_score", {"adm_scale2", "float_adm"}},
    {"VMAF_feature_adm_scale3_score", {"adm_scale3", "float_adm"}},
    {"VMAF_feature_motion_score", {"motion", "float_motion"}},
    {"VMAF_feature_motion2_score", {"motion2", "float_motion"}},
    {"VMAF_feature_motion3_score", {"motion3", "float_motion"}},
    {"VMAF_feature_vif_scale0_score", {"vif_scale0", "float_vif"}},
    {"VMAF_feature_vif_scale1_score", {"vif_scale1", "float_vif"}},
    {"VMAF_feature_vif_scale2_score", {"vif_scale2", "float_vif"}},
    {"VMAF_feature_vif_scale3_score", {"vif_scale3", "float_vif"}},
    // Integer features (vmaf_v0.6.1, 4k, neg).
    {"VMAF_integer_feature_adm2_score", {"integer_adm2", "adm"}},
    {"VMAF_integer_feature_aim_score", {"integer_aim", "adm"}},
    {"VMAF_integer_feature_adm3_score", {"integer_adm3", "adm"}},
    {"integer_adm_scale0", {"integer_adm_scale0", "adm"}},
    {"integer_adm_scale1", {"integer_adm_scale1", "adm"}},
    {"integer_adm_scale2", {"integer_adm_scale2", "adm"}},
    {"integer_adm_scale3", {"integer_adm_scale3", "adm"}},
    {"VMAF_integer_feature_motion_score", {"integer_motion", "motion"}},
    {"VMAF_integer_feature_motion2_score", {"integer_motion2", "motion"}},
    {"VMAF_integer_feature_motion3_score", {"integer_motion3", "motion"}},
    // libvmaf has no alias for this one: it keeps its long name in the output too.
    {"VMAF_integer_feature_motion_sad_score", {"VMAF_integer_feature_motion_sad_score", "motion"}},
    {"VMAF_integer_feature_vif_scale0_score", {"integer_vif_scale0", "vif"}},
    {"VMAF_integer_feature_vif_scale1_score", {"integer_vif_scale1", "vif"}},
    {"VMAF_integer_feature_vif_scale2_score", {"integer_vif_scale2", "vif"}},
    {"VMAF_integer_feature_vif_scale3_score", {"integer_vif_scale3", "vif"}},
    // Banding and SpEED (the v1.0.16 models).
    {"Cambi_feature_cambi_score", {"cambi", "cambi"}},
    {"Speed_chroma_feature_speed_chroma_u_score", {"speed_chroma_u", "speed_chroma"}},
    {"Speed_chroma_feature_speed_chroma_v_score", {"speed_chroma_v", "speed_chroma"}},
    {"Speed_chroma_feature_speed_chroma_uv_score", {"speed_chroma_uv", "speed_chroma"}},
    {"Speed_temporal_feature_speed_temporal_score", {"speed_temporal", "speed_temporal"}},
};

}  // namespace

std::optional<FeatureSource> feature_source(std::string_view model_feature_name) {
  for (const Entry& e : kTable)
    if (e.model_name == model_feature_name) return e.source;
  return std::nullopt;
}

}  // namespace vqtwin::models
