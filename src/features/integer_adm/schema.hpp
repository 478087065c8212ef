#pragma once
// integer ADM (libvmaf's `adm` extractor): options and outputs, declared once for the CPU reference
// and every twin (spec: integer_adm.md).
#include <array>
#include <string_view>

#include "core/feature_spec.hpp"
#include "core/options.hpp"

namespace vqtwin::integer_adm {

inline constexpr OptionSpec kOptions[] = {
    opt_bool("debug", "", false, "also emit integer_adm, the total and per-scale numerators and denominators"),
    opt_double("adm_csf_scale", "scf", 1.0, 0.0, 50.0,
               "scale of the h/v CSF terms (only used by adm_csf_mode=1, which integer ADM refuses)", true),
    opt_double("adm_csf_diag_scale", "scfd", 1.0, 0.0, 50.0,
               "scale of the diagonal CSF term (only used by adm_csf_mode=1, which integer ADM refuses)", true),
    opt_double("adm_dlm_weight", "dlmw", 0.5, 0.0, 1.0,
               "weight of DLM against AIM in adm3; 1 is DLM only", true),
    opt_double("adm_enhn_gain_limit", "egl", 100.0, 1.0, 100.0,
               "limit on the enhancement gain; 1 disables enhancement entirely", true),
    opt_double("adm_norm_view_dist", "nvd", 3.0, 0.75, 24.0,
               "viewing distance / display height (nvd * rdh must be at least 3240)", true),
    opt_int("adm_ref_display_height", "rdh", 1080, 1, 4320, "reference display height in pixels", true),
    opt_int("adm_csf_mode", "csf", 0, 0, 3,
            "contrast sensitivity function: 0 Watson 1997, 2 Barten-Watson blend, 3 its MAE variant "
            "(1, Barten, is refused: its weights overflow the fixed-point pipeline)",
            true),
    opt_double("adm_noise_weight", "nw", 0.03125, 0.0, 1500.0, "noise weight", true),
    opt_bool("adm_skip_aim", "", false, "skip AIM (aim = 0); does not rename the outputs"),
    opt_bool("adm_skip_scale0", "ssz", false, "skip scale 0 (its ratio becomes 0)", true),
    opt_double("adm_min_val", "min", 0.0, 0.0, 1.0, "lower clip of adm3", true),
};

// Base output names in libvmaf's append order (models ask for integer_adm2 under the name
// VMAF_integer_feature_adm2_score; the JSON shows these aliases).
inline constexpr std::array<std::string_view, 7> kMainNames = {
    "integer_adm2",       "integer_aim",        "integer_adm3",       "integer_adm_scale0",
    "integer_adm_scale1", "integer_adm_scale2", "integer_adm_scale3",
};
// With debug=true, appended after the main names, in this order.
inline constexpr std::array<std::string_view, 11> kDebugNames = {
    "integer_adm",            "integer_adm_num",        "integer_adm_den",
    "integer_adm_num_scale0", "integer_adm_den_scale0", "integer_adm_num_scale1",
    "integer_adm_den_scale1", "integer_adm_num_scale2", "integer_adm_den_scale2",
    "integer_adm_num_scale3", "integer_adm_den_scale3",
};

inline constexpr std::string_view kOtherNames[] = {"integer_adm"};
inline constexpr std::string_view kProvided[] = {
    "integer_adm2",           "integer_aim",            "integer_adm3",           "integer_adm_scale0",
    "integer_adm_scale1",     "integer_adm_scale2",     "integer_adm_scale3",     "integer_adm",
    "integer_adm_num",        "integer_adm_den",        "integer_adm_num_scale0", "integer_adm_den_scale0",
    "integer_adm_num_scale1", "integer_adm_den_scale1", "integer_adm_num_scale2", "integer_adm_den_scale2",
    "integer_adm_num_scale3", "integer_adm_den_scale3",
};

// The feature as every implementation (CPU reference, device twins) presents it.
inline constexpr FeatureSpec kSpec{
    .name = "adm",
    .other_names = kOtherNames,
    .options = kOptions,
    .provided = kProvided,
    .temporal = false,
};

}  // namespace vqtwin::integer_adm
