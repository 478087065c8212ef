#pragma once
// float_adm: options and outputs, declared once for the CPU reference and every twin.
#include <array>
#include <string_view>

#include "core/feature_spec.hpp"
#include "core/options.hpp"

namespace vqtwin::float_adm {

inline constexpr OptionSpec kOptions[] = {
    opt_bool("debug", "", false, "also emit adm, adm_num, adm_den and the per-scale num/den"),
    opt_double("adm_enhn_gain_limit", "egl", 100.0, 1.0, 100.0,
               "largest gain counted as restored detail (1 = enhancement gives no credit)", true),
    opt_double("adm_norm_view_dist", "nvd", 3.0, 0.75, 24.0, "viewing distance in display heights", true),
    opt_double("adm_noise_weight", "nw", 0.03125, 0.0, 1500.0, "weight of the noise floor in the sums", true),
    opt_double("adm_csf_scale", "scf", 1.0, 0.0, 50.0, "Barten CSF factor of the h/v bands (adm_csf_mode=1)", true),
    opt_double("adm_csf_diag_scale", "scfd", 1.0, 0.0, 50.0, "Barten CSF factor of the d band (adm_csf_mode=1)",
               true),
    opt_int("adm_ref_display_height", "rdf", 1080, 1, 4320, "reference display height in pixels", true),
    opt_int("adm_csf_mode", "csf", 0, 0, 9, "CSF: 1 Barten, 2 ADM native, any other value Watson", true),
    opt_int("adm_bypass_cm", "bcm", 0, 0, 1, "1 = no contrast masking threshold", true),
    opt_bool("adm_adm3_apply_hm", "aah", false, "adm3 = harmonic mean of adm2 and aim", true),
    opt_double("adm_p_norm", "apn", 3.0, 1.0, 20.0, "exponent of the pooling norm", true),
    opt_double("adm_dlm_weight", "dlmw", 0.5, 0.0, 1.0, "weight of adm2 in adm3", true),
    opt_double("adm_min_val", "min", 0.0, 0.0, 1.0, "lower clamp of adm3", true),
    opt_double("adm_f1s0", "f1s0", -1.0, -1.0, 10.0, "h/v CSF factor of scale 0 (< 0: from the CSF)", true),
    opt_double("adm_f1s1", "f1s1", -1.0, -1.0, 10.0, "h/v CSF factor of scale 1 (< 0: from the CSF)", true),
    opt_double("adm_f1s2", "f1s2", -1.0, -1.0, 10.0, "h/v CSF factor of scale 2 (< 0: from the CSF)", true),
    opt_double("adm_f1s3", "f1s3", -1.0, -1.0, 10.0, "h/v CSF factor of scale 3 (< 0: from the CSF)", true),
    opt_double("adm_f2s0", "f2s0", -1.0, -1.0, 10.0, "d CSF factor of scale 0 (< 0: from the CSF)", true),
    opt_double("adm_f2s1", "f2s1", -1.0, -1.0, 10.0, "d CSF factor of scale 1 (< 0: from the CSF)", true),
    opt_double("adm_f2s2", "f2s2", -1.0, -1.0, 10.0, "d CSF factor of scale 2 (< 0: from the CSF)", true),
    opt_double("adm_f2s3", "f2s3", -1.0, -1.0, 10.0, "d CSF factor of scale 3 (< 0: from the CSF)", true),
    // libvmaf declares the range 0..3 but defaults to -1; -1 (no scale skipped) is accepted here.
    opt_int("adm_skip_aim_scale", "sasc", -1, -1, 3, "leave this scale out of aim", true),
    opt_bool("adm_skip_scale0", "ssz", false, "do not compute scale 0 (adm_scale0 = 0)", true),
};

inline constexpr std::array<std::string_view, 7> kNames = {"adm2",       "aim",        "adm3",      "adm_scale0",
                                                           "adm_scale1", "adm_scale2", "adm_scale3"};
// debug=true: emitted after the seven scores, in this order.
inline constexpr std::array<std::string_view, 11> kDebugNames = {
    "adm",            "adm_num",        "adm_den",        "adm_num_scale0", "adm_den_scale0", "adm_num_scale1",
    "adm_den_scale1", "adm_num_scale2", "adm_den_scale2", "adm_num_scale3", "adm_den_scale3"};

inline constexpr std::string_view kProvided[] = {"adm2",       "aim",        "adm3",      "adm_scale0",
                                          "adm_scale1", "adm_scale2", "adm_scale3"};

// The feature as every implementation (CPU reference, device twins) presents it.
inline constexpr FeatureSpec kSpec{
    .name = "float_adm",
    .other_names = {},
    .options = kOptions,
    .provided = kProvided,
    .temporal = false,
};

}  // namespace vqtwin::float_adm
