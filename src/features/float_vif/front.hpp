#pragma once
// float_vif's front: everything but the per-scale sums. Options (parsed and validated once), the
// Gaussian kernels, the refused formats and geometries, the output names with their option
// suffixes, and the scores and debug outputs from the float sums of each scale, in libvmaf's order.
// The CPU reference (cpu.cpp) and the CUDA twin (cuda.cu) both hand it a frame's sums.
#include <array>
#include <cerrno>
#include <span>
#include <string>
#include <vector>

#include "core/extractor.hpp"
#include "core/format_checks.hpp"
#include "core/quote.hpp"
#include "features/float_vif/math.hpp"
#include "features/float_vif/prescale.hpp"
#include "features/float_vif/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::float_vif {

inline constexpr int kScales = 4;

class Front {
 public:
  // Throws vqtwin::Error for a kernel scale or prescale method libvmaf does not know.
  explicit Front(const OptionValues& o)
      : debug_(o.get_bool("debug")),
        kernelscale_(o.get_double("vif_kernelscale")),
        prescale_(o.get_double("vif_prescale")),
        skip_scale0_(o.get_bool("vif_skip_scale0")),
        params_(make_stat_params(o.get_double("vif_enhn_gain_limit"), o.get_double("vif_sigma_nsq"))),
        min_val_{0.0, o.get_double("vif_scale1_min_val"), o.get_double("vif_scale2_min_val"),
                 o.get_double("vif_scale3_min_val")} {
    // libvmaf only notices a bad kernel scale at the first frame; we refuse the context at once.
    if (!kernelscale_is_valid(kernelscale_))
      throw Error("float_vif: invalid vif_kernelscale " + std::to_string(kernelscale_) +
                  " (allowed: 1, 0.5, 1.5, 2, 2/3, 2.4, 360/97, 4/3, 3.5/3, 3.75/3, 4.25/3, 5/3, 3, 1/2.25, "
                  "1.4746, 1.54, 1.6, 1.06667, 0.711111, 0.74074, 1.111111)");
    if (!parse_prescale_method(o.get_string("vif_prescale_method"), method_))
      throw Error("float_vif: unknown vif_prescale_method " + quote(o.get_string("vif_prescale_method")) +
                  " (nearest, bilinear, bicubic, lanczos4)");
    for (int s = 0; s < kScales; ++s) kernels_[std::size_t(s)] = make_kernel(s, kernelscale_);
    for (int s = 0; s < kScales; ++s) names_[std::size_t(s)] = o.output_name(kScaleNames[std::size_t(s)]);
    for (std::size_t i = 0; i < kDebugNames.size(); ++i) debug_names_[i] = o.output_name(kDebugNames[i]);
  }

  // Throws vqtwin::Error for pictures float_vif refuses (bit depth, sizes too small for the kernels).
  void init(const PictureFormat& f) {
    require_standard_bitdepth("float_vif", f.bitdepth);
    width_ = f.width;
    height_ = f.height;
    scaled_w_ = prescaled_size(width_, prescale_);
    scaled_h_ = prescaled_size(height_, prescale_);
    check_geometry();
  }

  int width() const { return width_; }
  int height() const { return height_; }
  // The plane VIF works on: the luma resized by vif_prescale (the luma itself when the size stays).
  int scaled_width() const { return scaled_w_; }
  int scaled_height() const { return scaled_h_; }
  bool resizes() const { return scaled_w_ != width_ || scaled_h_ != height_; }
  PrescaleMethod method() const { return method_; }
  bool skip_scale0() const { return skip_scale0_; }
  const StatParams& params() const { return params_; }
  // Scale s's kernel; scale s > 0 also uses it to blur the previous scale before decimating.
  std::span<const float> kernel(int s) const { return kernels_[std::size_t(s)]; }

  // One frame's values from the sums of its four scales (scale 0 unused with vif_skip_scale0).
  void emit(const std::array<ScaleSums, kScales>& sums, unsigned index, FeatureSink& out) const {
    double ratio[kScales];
    for (int s = 0; s < kScales; ++s) ratio[s] = double(sums[std::size_t(s)].num) / double(sums[std::size_t(s)].den);
    out.put(names_[0], index, skip_scale0_ ? 0.0 : ratio[0]);
    for (int s = 1; s < kScales; ++s)
      out.put(names_[std::size_t(s)], index, ratio[s] > min_val_[s] ? ratio[s] : min_val_[s]);
    if (!debug_) return;

    double num = 0.0, den = 0.0;
    for (int s = skip_scale0_ ? 1 : 0; s < kScales; ++s) {
      num += double(sums[std::size_t(s)].num);
      den += double(sums[std::size_t(s)].den);
    }
    out.put(debug_names_[0], index, den == 0.0 ? 1.0 : num / den);
    out.put(debug_names_[1], index, num);
    out.put(debug_names_[2], index, den);
    for (int s = 0; s < kScales; ++s) {
      const bool skipped = s == 0 && skip_scale0_;
      out.put(debug_names_[3 + 2 * std::size_t(s)], index, skipped ? 0.0 : double(sums[std::size_t(s)].num));
      out.put(debug_names_[4 + 2 * std::size_t(s)], index, skipped ? -1.0 : double(sums[std::size_t(s)].den));
    }
  }

 private:
  // Every filter needs its radius below the plane's size (libvmaf mirrors once and would read
  // outside the plane); the 16x16 floor is ours (spec: DECISIONS.md §16).
  void check_geometry() const {
    if (width_ < 16 || height_ < 16)
      throw Error("float_vif: the luma plane " + std::to_string(width_) + "x" + std::to_string(height_) +
                  " is smaller than the 16x16 VIF needs");
    const std::string size = std::to_string(scaled_w_) + "x" + std::to_string(scaled_h_);
    if (scaled_w_ < 16 || scaled_h_ < 16)
      throw Error("float_vif: the luma plane after vif_prescale (" + size + ") is smaller than the 16x16 VIF needs");
    if (method_ == PrescaleMethod::kBilinear && scaled_w_ > 7680)
      throw Error("float_vif: vif_prescale_method=bilinear supports widths up to 7680 (got " +
                  std::to_string(scaled_w_) + ")");
    auto too_small = [&](int s, int radius) {
      return Error("float_vif: the luma plane " + size + " is too small for vif_kernelscale " +
                   std::to_string(kernelscale_) + " (the scale-" + std::to_string(s) + " filter needs more than " +
                   std::to_string(radius) + " samples per side)");
    };
    int w = scaled_w_, h = scaled_h_;
    for (int s = 0; s < kScales; ++s) {
      const int radius = int(kernels_[std::size_t(s)].size()) / 2;
      if (s > 0) {
        if (radius >= w || radius >= h) throw too_small(s, radius);  // anti-alias at the old size
        w /= 2;
        h /= 2;
      }
      if ((s > 0 || !skip_scale0_) && (radius >= w || radius >= h)) throw too_small(s, radius);
    }
  }

  bool debug_;
  double kernelscale_;
  double prescale_;
  bool skip_scale0_;
  StatParams params_;
  double min_val_[kScales];
  PrescaleMethod method_ = PrescaleMethod::kNearest;
  std::array<std::vector<float>, kScales> kernels_;
  std::array<std::string, kScales> names_;
  std::array<std::string, kDebugNames.size()> debug_names_;
  int width_ = 0, height_ = 0, scaled_w_ = 0, scaled_h_ = 0;
};

}  // namespace vqtwin::float_vif
