#pragma once
// float_vif: options and outputs, declared once for the CPU reference and every twin.
#include <array>
#include <string_view>

#include "core/feature_spec.hpp"
#include "core/options.hpp"

namespace vqtwin::float_vif {

inline constexpr OptionSpec kOptions[] = {
    opt_bool("debug", "", false, "also emit vif, vif_num, vif_den and the per-scale num/den"),
    opt_double("vif_enhn_gain_limit", "egl", 100.0, 1.0, 100.0,
               "largest gain g counted (1 = enhancement gives no credit)", true),
    opt_double("vif_kernelscale", "ks", 1.0, 0.1, 4.0,
               "Gaussian kernel width factor; one of the 21 values libvmaf lists", true),
    opt_double("vif_prescale", "ps", 1.0, 0.1, 4.0, "resize the luma plane by this factor first", true),
    opt_double("vif_scale1_min_val", "s1miv", 0.0, 0.0, 1.0, "lower clamp of vif_scale1", true),
    opt_double("vif_scale2_min_val", "s2miv", 0.0, 0.0, 1.0, "lower clamp of vif_scale2", true),
    opt_double("vif_scale3_min_val", "s3miv", 0.0, 0.0, 1.0, "lower clamp of vif_scale3", true),
    opt_string("vif_prescale_method", "pm", "nearest",
               "resampling of vif_prescale: nearest, bilinear, bicubic, lanczos4", true),
    opt_double("vif_sigma_nsq", "snsq", 2.0, 0.0, 5.0, "noise variance of the HVS model", true),
    opt_bool("vif_skip_scale0", "ssclz", false, "do not compute scale 0 (vif_scale0 = 0)", true),
};

inline constexpr std::array<std::string_view, 4> kScaleNames = {"vif_scale0", "vif_scale1", "vif_scale2",
                                                                 "vif_scale3"};
// debug=true: emitted after the four scores, in this order.
inline constexpr std::array<std::string_view, 11> kDebugNames = {
    "vif",           "vif_num",       "vif_den",       "vif_num_scale0", "vif_den_scale0", "vif_num_scale1",
    "vif_den_scale1", "vif_num_scale2", "vif_den_scale2", "vif_num_scale3", "vif_den_scale3"};

inline constexpr std::string_view kProvided[] = {"vif_scale0", "vif_scale1", "vif_scale2", "vif_scale3"};

// The feature as every implementation (CPU reference, device twins) presents it.
inline constexpr FeatureSpec kSpec{
    .name = "float_vif",
    .other_names = {},
    .options = kOptions,
    .provided = kProvided,
    .temporal = false,
};

}  // namespace vqtwin::float_vif
