#pragma once
// float_psnr: identity (name, options, outputs), declared once for the CPU reference and every twin.
#include <string_view>

#include "core/feature_spec.hpp"
#include "core/options.hpp"

namespace vqtwin::float_psnr {

inline constexpr std::string_view kName = "float_psnr";
inline constexpr std::string_view kProvided[] = {kName};

// The feature as every implementation (CPU reference, device twins) presents it.
inline constexpr FeatureSpec kSpec{
    .name = "float_psnr",
    .other_names = {},
    .options = {},
    .provided = kProvided,
    .temporal = false,
};

}  // namespace vqtwin::float_psnr
