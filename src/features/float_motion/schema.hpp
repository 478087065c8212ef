#pragma once
// float_motion: options and outputs, declared once for the CPU reference and every twin.
#include <string_view>

#include "core/feature_spec.hpp"
#include "core/options.hpp"

namespace vqtwin::float_motion {

// Declaration order and ranges as libvmaf's float_motion; every option but `debug` is a feature
// parameter, so a non-default value renames the outputs (motion2_mfw_2, motion2_force_0, ...).
inline constexpr OptionSpec kOptions[] = {
    opt_bool("debug", "", true, "also emit the per-frame motion score (motion)"),
    opt_bool("motion_force_zero", "force_0", false, "emit 0 for every motion score", true),
    opt_double("motion_fps_weight", "mfw", 1.0, 0.0, 5.0, "multiply every score by this fps correction", true),
    opt_double("motion_blend_factor", "mbf", 1.0, 0.0, 1.0,
               "motion3 = score*mbf + (1-mbf)*min(mbo, score)", true),
    opt_double("motion_blend_offset", "mbo", 40.0, 0.0, 1000.0, "the offset of motion_blend_factor", true),
    opt_bool("motion_add_scale1", "mdc", false, "add the score of the half-size blurred frames", true),
    opt_int("motion_filter_size", "mfs", 5, 0, 9, "blur: 1 = none, 3 = 3-tap, anything else = 5-tap", true),
    opt_bool("motion_add_uv", "mau", false, "add the scores of the U and V planes", true),
    opt_double("motion_max_val", "mmxv", 10000.0, 0.0, 10000.0, "clip every score to this maximum", true),
};

inline constexpr std::string_view kMotion = "motion";    // debug: the score of frames (i-1, i)
inline constexpr std::string_view kMotion2 = "motion2";  // min of the two neighbouring scores
inline constexpr std::string_view kMotion3 = "motion3";  // motion2 blended

inline constexpr std::string_view kProvided[] = {kMotion, kMotion2, kMotion3};

// The feature as every implementation (CPU reference, device twins) presents it.
inline constexpr FeatureSpec kSpec{
    .name = "float_motion",
    .other_names = {},
    .options = kOptions,
    .provided = kProvided,
    .temporal = true,
    .libvmaf_temporal = true,  // VMAF_FEATURE_EXTRACTOR_TEMPORAL in libvmaf: sets the output order
    // Frame i's values need the scores S(i-1, i) and S(i, i+1) (front.hpp): exact from the second frame
    // an instance extracts, and up to the frame before the last.
    .reach = [](const OptionValues&) { return FrameReach{1, 1}; },
};

}  // namespace vqtwin::float_motion
