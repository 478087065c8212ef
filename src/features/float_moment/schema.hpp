#pragma once
// float_moment: identity (name, options, outputs), declared once for the CPU reference and every twin.
#include <array>
#include <string_view>

#include "core/feature_spec.hpp"
#include "core/options.hpp"

namespace vqtwin::float_moment {

// libvmaf's float_moment has no options.
inline constexpr std::span<const OptionSpec> kOptions{};

// Written per frame, in this order.
inline constexpr std::array<std::string_view, 4> kOutputs = {
    "float_moment_ref1st", "float_moment_dis1st", "float_moment_ref2nd", "float_moment_dis2nd"};

// What a model may name to get this extractor: libvmaf lists "float_moment" (not an output name),
// so no model can request one of the four outputs by its own name there either.
inline constexpr std::string_view kProvided[] = {"float_moment"};

// The feature as every implementation (CPU reference, device twins) presents it.
inline constexpr FeatureSpec kSpec{
    .name = "float_moment",
    .other_names = {},
    .options = kOptions,
    .provided = kProvided,
    .outputs = kOutputs,
    .temporal = false,
};

}  // namespace vqtwin::float_moment
