#pragma once
// integer_ssim: options and outputs, declared once for the CPU reference and every twin.
#include <array>
#include <string_view>

#include "core/feature_spec.hpp"
#include "core/options.hpp"

namespace vqtwin::integer_ssim {

inline constexpr OptionSpec kOptions[] = {
    opt_bool("enable_db", "", false, "write the score as -10 log10(1 - score) dB"),
    opt_bool("clip_db", "", false, "cap the dB score at ceil(10 log10(2 peak^2 w h)) instead of +inf"),
};

inline constexpr std::string_view kScoreName = "integer_ssim";
// The fork's extractor name.
inline constexpr std::string_view kOtherNames[] = {"ssim"};

inline constexpr std::string_view kProvided[] = {kScoreName};

// The feature as every implementation (CPU reference, device twins) presents it.
inline constexpr FeatureSpec kSpec{
    .name = "integer_ssim",
    .other_names = kOtherNames,
    .options = kOptions,
    .provided = kProvided,
    .temporal = false,
};

}  // namespace vqtwin::integer_ssim
