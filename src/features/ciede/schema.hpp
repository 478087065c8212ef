#pragma once
// ciede: identity (name, options, outputs), declared once for the CPU reference and every twin.
#include <array>
#include <string_view>

#include "core/feature_spec.hpp"
#include "core/options.hpp"

namespace vqtwin::ciede {

// libvmaf's ciede has no options.
inline constexpr std::span<const OptionSpec> kOptions{};

inline constexpr std::array<std::string_view, 1> kOutputs = {"ciede2000"};

// The feature as every implementation (CPU reference, device twins) presents it.
inline constexpr FeatureSpec kSpec{
    .name = "ciede",
    .other_names = {},
    .options = kOptions,
    .provided = kOutputs,
    .temporal = false,
};

}  // namespace vqtwin::ciede
