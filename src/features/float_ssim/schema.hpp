#pragma once
// float_ssim: options and outputs, declared once for the CPU reference and every twin.
#include <string_view>

#include "core/feature_spec.hpp"
#include "core/options.hpp"

namespace vqtwin::float_ssim {

inline constexpr OptionSpec kOptions[] = {
    opt_bool("enable_lcs", "", false, "also emit float_ssim_l, float_ssim_c and float_ssim_s"),
    opt_bool("enable_db", "", false, "write the score as -10 log10(1 - score) dB"),
    opt_bool("clip_db", "", false, "cap the dB score at ceil(10 log10(2 peak^2 w h)) instead of +inf"),
    opt_int("scale", "", 0, 0, 10, "decimation factor: 0 = auto (min(w, h) / 256 rounded), 1 = none"),
};

inline constexpr std::string_view kScoreName = "float_ssim";
inline constexpr std::string_view kLName = "float_ssim_l";
inline constexpr std::string_view kCName = "float_ssim_c";
inline constexpr std::string_view kSName = "float_ssim_s";

inline constexpr std::string_view kProvided[] = {kScoreName};

// The feature as every implementation (CPU reference, device twins) presents it.
inline constexpr FeatureSpec kSpec{
    .name = "float_ssim",
    .other_names = {},
    .options = kOptions,
    .provided = kProvided,
    .temporal = false,
};

}  // namespace vqtwin::float_ssim
