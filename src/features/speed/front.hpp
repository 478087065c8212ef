#pragma once
// speed_chroma and speed_temporal's host side, shared by the CPU references and the device twins:
// the options, the planes scored, the chroma scores' combination and clip. The per-plane math is
// core.hpp's Speed (the twins compute its decimate() on the device and the rest here).
#include <cstdint>
#include <string>
#include <string_view>

#include "core/extractor.hpp"
#include "core/format_checks.hpp"
#include "core/options.hpp"
#include "features/float_vif/math.hpp"
#include "features/speed/core.hpp"
#include "features/speed/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::speed {

inline Options read_options(const OptionValues& o, std::string_view who, bool has_weight_mode) {
  Options s;
  s.kernelscale = o.get_double("speed_kernelscale");
  s.prescale = o.get_double("speed_prescale");
  s.sigma_nn = o.get_double("speed_sigma_nn");
  s.nn_floor = o.get_double("speed_nn_floor");
  if (has_weight_mode) s.weight_var_mode = o.get_int("speed_weight_var_mode");
  // libvmaf ignores these two failures at init and crashes at the first frame.
  if (!float_vif::kernelscale_is_valid(s.kernelscale))
    throw Error(std::string(who) + ": speed_kernelscale " + std::to_string(s.kernelscale) +
                " is not one of VIF's kernel scales");
  const std::string& method = o.get_string("speed_prescale_method");
  if (!float_vif::parse_prescale_method(method, s.prescale_method))
    throw Error(std::string(who) + ": unknown speed_prescale_method '" + method +
                "' (known: nearest, bilinear, bicubic, lanczos4)");
  return s;
}

// libvmaf's picture_copy with offset -128, one sample: v + -128 (8-bit), v / scaler + -128 deeper
// (kernels.cpp's loops are this sequence; the twins convert one sample per thread).
inline float sample_scaler(int bitdepth) { return bitdepth == 10 ? 4.0f : bitdepth == 12 ? 16.0f : 256.0f; }

// speed_chroma's checks and dimensions: the luma size halved, rounding down (libvmaf's: an odd luma
// size leaves the last chroma column / row out).
inline Dimensions chroma_dimensions(const PictureFormat& f, double prescale) {
  require_standard_bitdepth("speed_chroma", f.bitdepth);
  if (f.chroma == ChromaFormat::k400) throw Error("speed_chroma: needs chroma planes; this input is 4:0:0");
  const int w = f.chroma == ChromaFormat::k444 ? f.width : f.width / 2;
  const int h = f.chroma == ChromaFormat::k420 ? f.height / 2 : f.height;
  return make_dimensions(w, h, prescale, "speed_chroma");
}

inline Dimensions temporal_dimensions(const PictureFormat& f, double prescale) {
  require_standard_bitdepth("speed_temporal", f.bitdepth);
  return make_dimensions(f.width, f.height, prescale, "speed_temporal");
}

// speed_chroma's outputs from the U and V scores (singular: either picture's plane was).
class ChromaOutputs {
 public:
  explicit ChromaOutputs(const OptionValues& o)
      : max_val_(o.get_double("speed_max_val")),
        name_u_(o.output_name(kChromaU)),
        name_v_(o.output_name(kChromaV)),
        name_uv_(o.output_name(kChromaUV)) {}

  void emit(const float score[2], const bool singular[2], unsigned index, FeatureSink& out) const {
    // A plane with a singular covariance matrix (e.g. flat) takes the other plane's score.
    float uv;
    if (singular[0] && !singular[1]) uv = score[1];
    else if (singular[1] && !singular[0]) uv = score[0];
    else uv = float((score[0] + score[1]) / 2.0);
    out.put(name_u_, index, clip(score[0]));
    out.put(name_v_, index, clip(score[1]));
    out.put(name_uv_, index, clip(uv));
  }

 private:
  double clip(float v) const { return v < max_val_ ? double(v) : max_val_; }

  double max_val_;
  std::string name_u_, name_v_, name_uv_;
};

}  // namespace vqtwin::speed
