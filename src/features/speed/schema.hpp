#pragma once
// speed_chroma and speed_temporal (libvmaf's SpEED extractors): options and outputs, declared once
// for the CPU references and every twin. Names, aliases, defaults and ranges are libvmaf 3.2's
// (speed.c); every option renames the outputs when not at its default.
#include <string_view>

#include "core/feature_spec.hpp"
#include "core/options.hpp"

namespace vqtwin::speed {

#define VQTWIN_SPEED_COMMON_OPTIONS                                                                              \
  opt_double("speed_kernelscale", "ks", 1.0, 0.1, 4.0,                                                            \
             "scale of the Gaussian kernels (one of VIF's 21 kernel scales)", true),                              \
      opt_double("speed_prescale", "ps", 1.0, 0.1, 4.0, "resize the plane by this factor first", true),          \
      opt_string("speed_prescale_method", "psm", "nearest",                                                       \
                 "resize method: nearest, bilinear, bicubic, lanczos4", true),                                    \
      opt_double("speed_sigma_nn", "snn", 0.29, 0.1, 2.0, "standard deviation of the neural noise", true),       \
      opt_double("speed_nn_floor", "nnf", 0.0, 0.0, 1.0, "neural noise floor, a fraction of speed_sigma_nn", true), \
      opt_double("speed_max_val", "mxv", 1000.0, 0.0, 1000.0,                                                     \
                 "clip the scores to this maximum (speed_temporal: accepted, names the output, unused)", true)

inline constexpr OptionSpec kChromaOptions[] = {
    VQTWIN_SPEED_COMMON_OPTIONS,
    opt_int("speed_weight_var_mode", "wvm", 0, 0, 6,
            "variance weighting: 0 each its own, 1 ref's, 2 dist's, 3 their mean, 4 ref / mean, 5 ref / 3:1, "
            "6 ref / 1:3",
            true),
};

inline constexpr OptionSpec kTemporalOptions[] = {
    VQTWIN_SPEED_COMMON_OPTIONS,
    opt_bool("speed_use_ref_diff", "urd", false,
             "the distorted frame difference is taken against the reference (prev dist - current ref)", true),
};

#undef VQTWIN_SPEED_COMMON_OPTIONS

inline constexpr std::string_view kChromaU = "speed_chroma_u";
inline constexpr std::string_view kChromaV = "speed_chroma_v";
inline constexpr std::string_view kChromaUV = "speed_chroma_uv";
inline constexpr std::string_view kTemporal = "speed_temporal";

inline constexpr std::string_view kChromaProvided[] = {kChromaU, kChromaV, kChromaUV};
inline constexpr std::string_view kTemporalProvided[] = {kTemporal};

// The features as every implementation (CPU reference, device twins) presents them.
inline constexpr FeatureSpec kChromaSpec{
    .name = "speed_chroma",
    .other_names = {},
    .options = kChromaOptions,
    .provided = kChromaProvided,
    .temporal = false,
    .libvmaf_temporal = false,
};
inline constexpr FeatureSpec kTemporalSpec{
    .name = "speed_temporal",
    .other_names = {},
    .options = kTemporalOptions,
    .provided = kTemporalProvided,
    .temporal = true,
    .libvmaf_temporal = true,  // VMAF_FEATURE_EXTRACTOR_TEMPORAL in libvmaf: sets the output order
};

}  // namespace vqtwin::speed
