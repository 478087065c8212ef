#pragma once
// integer VIF's front: everything but the four exact sums of each scale. Parameters (parsed once),
// the refused formats, the output names with their option suffixes, and the per-scale num/den,
// scores and debug outputs from the sums, in libvmaf's order. The CPU reference and the CUDA twin
// both hand it the sums of a frame; one implementation of the host math.
#include <array>
#include <string>

#include "core/extractor.hpp"
#include "features/integer_vif/math.hpp"
#include "features/integer_vif/pipeline.hpp"
#include "features/integer_vif/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::integer_vif {

// Output names with this context's option suffixes, resolved once.
struct Names {
  std::string scale[kNumScales];
  std::string score, num, den;
  std::string num_scale[kNumScales], den_scale[kNumScales];

  explicit Names(const OptionValues& o) {
    for (int s = 0; s < kNumScales; ++s) {
      scale[s] = o.output_name(kScaleNames[s]);
      num_scale[s] = o.output_name(kDebugNumScale[s]);
      den_scale[s] = o.output_name(kDebugDenScale[s]);
    }
    score = o.output_name(kDebugScore);
    num = o.output_name(kDebugNum);
    den = o.output_name(kDebugDen);
  }
};

class Front {
 public:
  explicit Front(const OptionValues& o) : names_(o), debug_(o.get_bool("debug")) {
    setup_.gain_limit = o.get_double("vif_enhn_gain_limit");
    setup_.skip_scale0 = o.get_bool("vif_skip_scale0");
  }

  void init(const PictureFormat& f) {
    if (f.bitdepth != 8 && f.bitdepth != 10 && f.bitdepth != 12 && f.bitdepth != 16)
      throw Error("vif: bit depth " + std::to_string(f.bitdepth) + " is not supported (8, 10, 12, 16)");
    if (f.width < kMinPlaneSize || f.height < kMinPlaneSize)
      throw Error("vif: the luma plane is " + std::to_string(f.width) + "x" + std::to_string(f.height) +
                  "; integer VIF needs at least " + std::to_string(kMinPlaneSize) + "x" +
                  std::to_string(kMinPlaneSize) + " (its coarsest scale is 1/8 of the picture)");
    setup_.width = f.width;
    setup_.height = f.height;
    setup_.bpc = f.bitdepth;
  }

  // Plane size, bit depth, gain limit and skip_scale0: what the compute needs.
  const FrameSetup& setup() const { return setup_; }

  // One frame's values from the sums of its four scales (scale 0 ignored with vif_skip_scale0).
  // Thread-safe.
  void emit(const std::array<Accum, kNumScales>& sums, unsigned index, FeatureSink& out) const {
    NumDen nd[kNumScales];
    for (int s = 0; s < kNumScales; ++s) nd[s] = combine(sums[s]);

    const int first = setup_.skip_scale0 ? 1 : 0;
    for (int s = 0; s < kNumScales; ++s) out.put(names_.scale[s], index, s < first ? 0.0 : scale_score(nd[s]));
    if (!debug_) return;

    // Totals in scale order, starting from the first scale computed (double adds, as libvmaf).
    double num = double(nd[first].num), den = double(nd[first].den);
    for (int s = first + 1; s < kNumScales; ++s) {
      num = num + double(nd[s].num);
      den = den + double(nd[s].den);
    }
    out.put(names_.score, index, den == 0.0 ? 1.0 : num / den);
    out.put(names_.num, index, num);
    out.put(names_.den, index, den);
    for (int s = 0; s < kNumScales; ++s) {
      out.put(names_.num_scale[s], index, s < first ? 0.0 : double(nd[s].num));
      out.put(names_.den_scale[s], index, s < first ? -1.0 : double(nd[s].den));
    }
  }

 private:
  Names names_;
  bool debug_ = false;
  FrameSetup setup_;
};

}  // namespace vqtwin::integer_vif
