#pragma once
// psnr: options and outputs, declared once for the CPU reference and every twin.
#include <array>
#include <string_view>

#include "core/feature_spec.hpp"
#include "core/options.hpp"

namespace vqtwin::psnr {

inline constexpr OptionSpec kOptions[] = {
    opt_bool("enable_chroma", "", true, "compute psnr_cb and psnr_cr too (off for 4:0:0)"),
    opt_bool("enable_mse", "", false, "also emit mse_y, mse_cb, mse_cr"),
    opt_bool("enable_apsnr", "", false, "emit the clip's aggregate PSNR apsnr_y/cb/cr at the end"),
    opt_bool("reduced_hbd_peak", "", false, "peak 255 << (bitdepth - 8) instead of 2^bitdepth - 1"),
    opt_double("min_sse", "", 0.0, 0.0, 1.7976931348623157e308,
               "smallest SSE assumed: caps each plane's dB at the PSNR of this SSE"),
};

inline constexpr std::array<std::string_view, 3> kPsnrNames = {"psnr_y", "psnr_cb", "psnr_cr"};
inline constexpr std::array<std::string_view, 3> kMseNames = {"mse_y", "mse_cb", "mse_cr"};
inline constexpr std::array<std::string_view, 3> kApsnrNames = {"apsnr_y", "apsnr_cb", "apsnr_cr"};

inline constexpr std::string_view kProvided[] = {"psnr_y", "psnr_cb", "psnr_cr"};

// The feature as every implementation (CPU reference, device twins) presents it.
inline constexpr FeatureSpec kSpec{
    .name = "psnr",
    .other_names = {},
    .options = kOptions,
    .provided = kProvided,
    .temporal = false,
    // VMAF_FEATURE_EXTRACTOR_TEMPORAL in libvmaf: it runs on every frame under --subsample (apsnr
    // covers all frames) and its names come first in the output order.
    .libvmaf_temporal = true,
    .clip_aggregates = true,  // apsnr_* at flush from every frame's sums
};

}  // namespace vqtwin::psnr
