#pragma once
// float_ansnr: identity (name, options, outputs), declared once for the CPU reference and every twin.
#include <array>
#include <string_view>

#include "core/feature_spec.hpp"
#include "core/options.hpp"

namespace vqtwin::float_ansnr {

// libvmaf's float_ansnr has no options.
inline constexpr std::span<const OptionSpec> kOptions{};

// Written per frame, in this order.
inline constexpr std::array<std::string_view, 2> kOutputs = {"float_ansnr", "float_anpsnr"};

// What a model may name: libvmaf lists only "float_ansnr" (float_anpsnr is written, not provided).
inline constexpr std::string_view kProvided[] = {"float_ansnr"};

// The feature as every implementation (CPU reference, device twins) presents it.
inline constexpr FeatureSpec kSpec{
    .name = "float_ansnr",
    .other_names = {},
    .options = kOptions,
    .provided = kProvided,
    .outputs = kOutputs,
    .temporal = false,
};

}  // namespace vqtwin::float_ansnr
