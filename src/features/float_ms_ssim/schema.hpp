#pragma once
// float_ms_ssim: options and outputs, declared once for the CPU reference and every twin.
#include <array>
#include <string_view>

#include "core/feature_spec.hpp"
#include "core/options.hpp"

namespace vqtwin::float_ms_ssim {

inline constexpr OptionSpec kOptions[] = {
    opt_bool("enable_lcs", "", false, "also emit the per-level means float_ms_ssim_{l,c,s}_scale0..4"),
    opt_bool("enable_db", "", false, "write the score as -10 log10(1 - score) dB"),
    opt_bool("clip_db", "", false, "cap the dB score at ceil(10 log10(2 peak^2 w h)) instead of +inf"),
};

inline constexpr std::string_view kScoreName = "float_ms_ssim";
inline constexpr std::array<std::string_view, 5> kLNames = {
    "float_ms_ssim_l_scale0", "float_ms_ssim_l_scale1", "float_ms_ssim_l_scale2",
    "float_ms_ssim_l_scale3", "float_ms_ssim_l_scale4"};
inline constexpr std::array<std::string_view, 5> kCNames = {
    "float_ms_ssim_c_scale0", "float_ms_ssim_c_scale1", "float_ms_ssim_c_scale2",
    "float_ms_ssim_c_scale3", "float_ms_ssim_c_scale4"};
inline constexpr std::array<std::string_view, 5> kSNames = {
    "float_ms_ssim_s_scale0", "float_ms_ssim_s_scale1", "float_ms_ssim_s_scale2",
    "float_ms_ssim_s_scale3", "float_ms_ssim_s_scale4"};

inline constexpr std::string_view kProvided[] = {kScoreName};

// The feature as every implementation (CPU reference, device twins) presents it.
inline constexpr FeatureSpec kSpec{
    .name = "float_ms_ssim",
    .other_names = {},
    .options = kOptions,
    .provided = kProvided,
    .temporal = false,
};

}  // namespace vqtwin::float_ms_ssim
