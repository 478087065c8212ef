#pragma once
// psnr_hvs: identity (name, options, outputs), declared once for the CPU reference and every twin.
#include <array>
#include <string_view>

#include "core/feature_spec.hpp"
#include "core/options.hpp"

namespace vqtwin::psnr_hvs {

// libvmaf's psnr_hvs has no options.
inline constexpr std::span<const OptionSpec> kOptions{};

// Written per frame, in this order (libvmaf's provided list, which models may name).
inline constexpr std::array<std::string_view, 4> kOutputs = {"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"};

// The feature as every implementation (CPU reference, device twins) presents it.
inline constexpr FeatureSpec kSpec{
    .name = "psnr_hvs",
    .other_names = {},
    .options = kOptions,
    .provided = kOutputs,
    .temporal = false,
};

}  // namespace vqtwin::psnr_hvs
