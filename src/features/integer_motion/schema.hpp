#pragma once
// integer motion (libvmaf's `motion`): options and outputs, declared once for the CPU reference and
// every twin.
#include <string_view>

#include "core/feature_spec.hpp"
#include "core/options.hpp"

namespace vqtwin::integer_motion {

// As libvmaf declares them (the order does not matter for names: suffixes sort by option name).
inline constexpr OptionSpec kOptions[] = {
    opt_bool("motion_force_zero", "force_0", false, "emit 0 for every motion score", true),
    opt_double("motion_blend_factor", "mbf", 1.0, 0.0, 1.0,
               "motion3 = score*mbf + (1-mbf)*min(mbo, score)", true),
    opt_double("motion_blend_offset", "mbo", 40.0, 0.0, 1000.0, "the offset of motion_blend_factor", true),
    opt_double("motion_fps_weight", "mfw", 1.0, 0.0, 5.0, "multiply every score by this fps correction", true),
    opt_double("motion_max_val", "mmxv", 10000.0, 0.0, 10000.0, "clip every score to this maximum", true),
    opt_bool("motion_five_frame_window", "mffw", false, "compare frame i with frame i-2 (five-frame window)", true),
    opt_bool("motion_moving_average", "mma", false, "motion3 = mean of this and the previous blended score", true),
    opt_bool("debug", "", false, "also emit integer_motion (the same value as the SAD score)"),
};

// Output base names, in libvmaf's provided order. The SAD score has no short alias.
inline constexpr std::string_view kSad = "VMAF_integer_feature_motion_sad_score";
inline constexpr std::string_view kMotion = "integer_motion";
inline constexpr std::string_view kMotion2 = "integer_motion2";
inline constexpr std::string_view kMotion3 = "integer_motion3";

inline constexpr std::string_view kOtherNames[] = {"integer_motion"};
inline constexpr std::string_view kProvided[] = {kSad, kMotion, kMotion2, kMotion3};

// The feature as every implementation (CPU reference, device twins) presents it.
inline constexpr FeatureSpec kSpec{
    .name = "motion",
    .other_names = kOtherNames,
    .options = kOptions,
    .provided = kProvided,
    .temporal = true,
    // Frame i's score needs frame i - lag; motion2 needs the scores of i - lag + 1 and i + 1, motion3 the
    // frame before's motion2 (math.hpp, motion23): exact from 2 * lag frames after an instance's start,
    // and up to the frame before the last it extracted.
    .reach = [](const OptionValues& o) {
      const unsigned lag = o.get_bool("motion_five_frame_window") ? 2 : 1;
      return FrameReach{2 * lag, 1};
    },
};

}  // namespace vqtwin::integer_motion
