#pragma once
// cambi (libvmaf's banding detector): options and outputs, declared once for the CPU reference and
// every twin. Names, aliases, defaults, ranges and which options rename the output are libvmaf 3.2's
// (cambi.c); behaviour: README.md in this folder.
#include <string_view>

#include "core/feature_spec.hpp"
#include "core/options.hpp"

namespace vqtwin::cambi {

inline constexpr double kDefaultTopk = 0.6;
inline constexpr std::string_view kDefaultEotf = "bt1886";

// Declaration order as libvmaf's table (it is the order `--list` prints). Every option but
// heatmaps_path and full_ref is a feature parameter: a value other than the default renames the
// output, e.g. cambi_ench_270_encw_480_mlc_3_topk_0.2_tvit_0.012_ws_49.
inline constexpr OptionSpec kOptions[] = {
    opt_double("cambi_max_val", "cmxv", 1000.0, 0.0, 1000.0, "clip every score to this maximum", true),
    opt_int("enc_width", "encw", 0, 180, 7680,
            "width the distorted picture was encoded at (0, the default: the input's; a larger value is the input's)",
            true),
    opt_int("enc_height", "ench", 0, 150, 7680,
            "height the distorted picture was encoded at (0, the default: the input's; a larger value is the input's)",
            true),
    opt_int("enc_bitdepth", "encbd", 0, 6, 16,
            "bit depth of the encode (0, the default: the input's); below 10 the anti-dithering filter runs", true),
    opt_int("src_width", "srcw", 0, 320, 7680, "width of the source (full_ref only; 0, the default: the input's)",
            true),
    opt_int("src_height", "srch", 0, 200, 4320, "height of the source (full_ref only; 0, the default: the input's)",
            true),
    opt_int("window_size", "ws", 65, 15, 127, "window at 4K (65 = about one degree), scaled to the encode size",
            true),
    opt_double("topk", "", kDefaultTopk, 0.0001, 1.0,
               "fraction of the largest per-pixel values pooled (wins over cambi_topk when not 0.6)", true),
    opt_double("cambi_topk", "ctpk", kDefaultTopk, 0.0001, 1.0, "fraction of the largest per-pixel values pooled",
               true),
    opt_double("tvi_threshold", "tvit", 0.019, 0.0001, 1.0,
               "visibility threshold: a step dL is visible when dL > tvi_threshold * L", true),
    opt_double("cambi_vis_lum_threshold", "vlt", 0.0, 0.0, 300.0,
               "luminance (cd/m2) below which banding is taken as invisible", true),
    opt_int("max_log_contrast", "mlc", 2, 0, 5, "contrasts up to 2^max_log_contrast 10-bit code values", true),
    opt_string("heatmaps_path", "", "",
               "folder for the per-scale heatmaps of the distorted picture (16-bit gray, one file per scale)"),
    opt_bool("full_ref", "", false, "also score the reference: cambi_source and cambi_full_reference"),
    opt_string("eotf", "", kDefaultEotf, "EOTF of the visibility thresholds: bt1886 or pq", true),
    opt_string("cambi_eotf", "ceot", kDefaultEotf, "as eotf, and wins over it when not bt1886", true),
    opt_int("cambi_high_res_speedup", "hrs", 0, 0, 2160,
            "halve the pictures after the spatial mask from this height's pixel count up (1080, 1440, 2160; "
            "anything else: off)",
            true),
};

inline constexpr std::string_view kCambi = "cambi";  // distorted picture (renamed by the options)
inline constexpr std::string_view kSource = "cambi_source";                  // full_ref: the reference
inline constexpr std::string_view kFullReference = "cambi_full_reference";  // full_ref: max(0, dist - ref)

inline constexpr std::string_view kProvided[] = {kCambi, kSource, kFullReference};

// The feature as every implementation (CPU reference, device twins) presents it.
inline constexpr FeatureSpec kSpec{
    .name = "cambi",
    .other_names = {},
    .options = kOptions,
    .provided = kProvided,
    .temporal = false,
    .libvmaf_temporal = false,
};

}  // namespace vqtwin::cambi
