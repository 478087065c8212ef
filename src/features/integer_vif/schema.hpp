#pragma once
// integer VIF (`vif`): options and outputs, declared once for the CPU reference and every twin.
#include <array>
#include <string_view>

#include "core/feature_spec.hpp"
#include "core/options.hpp"

namespace vqtwin::integer_vif {

inline constexpr double kDefaultGainLimit = 100.0;

// Names, aliases, defaults, ranges and FEATURE_PARAM flags as libvmaf 3.2 declares them: the two
// FEATURE_PARAM options name the outputs (`_egl_<%g>`, `_ssclz`), `debug` does not.
inline constexpr OptionSpec kOptions[] = {
    opt_bool("debug", "", false, "also emit integer_vif, its num/den and the per-scale num/den"),
    opt_double("vif_enhn_gain_limit", "egl", kDefaultGainLimit, 1.0, kDefaultGainLimit,
               "cap on the enhancement gain g in the numerator (>= 1; 1 disables any gain)",
               /*feature_param=*/true),
    opt_bool("vif_skip_scale0", "ssclz", false, "skip the scale-0 statistics (scale 0 reported as 0)",
             /*feature_param=*/true),
};

// The four model inputs, in output order (libvmaf's VMAF_integer_feature_vif_scaleN_score aliases).
inline constexpr std::array<std::string_view, 4> kScaleNames = {
    "integer_vif_scale0", "integer_vif_scale1", "integer_vif_scale2", "integer_vif_scale3"};

// debug=true outputs, each in the order libvmaf appends them after the scale scores.
inline constexpr std::string_view kDebugScore = "integer_vif";
inline constexpr std::string_view kDebugNum = "integer_vif_num";
inline constexpr std::string_view kDebugDen = "integer_vif_den";
inline constexpr std::array<std::string_view, 4> kDebugNumScale = {
    "integer_vif_num_scale0", "integer_vif_num_scale1", "integer_vif_num_scale2", "integer_vif_num_scale3"};
inline constexpr std::array<std::string_view, 4> kDebugDenScale = {
    "integer_vif_den_scale0", "integer_vif_den_scale1", "integer_vif_den_scale2", "integer_vif_den_scale3"};

inline constexpr std::string_view kOtherNames[] = {"integer_vif"};
inline constexpr std::string_view kProvided[] = {"integer_vif_scale0", "integer_vif_scale1", "integer_vif_scale2",
                                          "integer_vif_scale3"};

// The feature as every implementation (CPU reference, device twins) presents it.
inline constexpr FeatureSpec kSpec{
    .name = "vif",
    .other_names = kOtherNames,
    .options = kOptions,
    .provided = kProvided,
    .temporal = false,
};

}  // namespace vqtwin::integer_vif
