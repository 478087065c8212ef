#pragma once
// integer ADM's front: everything but the exact per-scale sums. Parameters (parsed and validated
// once), the CSF factors, the refused formats and the geometry of every scale (Computer), the output
// names with their option suffixes, and the float tails and combination from the sums, emitted in
// libvmaf's order. The CPU reference and the CUDA twin both hand it a frame's FrameSums.
#include <optional>
#include <string>
#include <vector>

#include "core/extractor.hpp"
#include "features/integer_adm/pipeline.hpp"
#include "features/integer_adm/schema.hpp"
#include "features/integer_adm/setup.hpp"

namespace vqtwin::integer_adm {

inline Settings settings_of(const OptionValues& o) {
  Settings s;
  s.enhn_gain_limit = o.get_double("adm_enhn_gain_limit");
  s.norm_view_dist = o.get_double("adm_norm_view_dist");
  s.ref_display_height = o.get_int("adm_ref_display_height");
  s.csf_mode = o.get_int("adm_csf_mode");
  s.noise_weight = o.get_double("adm_noise_weight");
  s.dlm_weight = o.get_double("adm_dlm_weight");
  s.min_val = o.get_double("adm_min_val");
  s.skip_aim = o.get_bool("adm_skip_aim");
  s.skip_scale0 = o.get_bool("adm_skip_scale0");
  return s;
}

class Front {
 public:
  // Throws vqtwin::Error for refused option combinations (make_csf_factors validates).
  explicit Front(const OptionValues& o)
      : settings_(settings_of(o)), factors_(make_csf_factors(settings_)), debug_(o.get_bool("debug")) {
    for (auto n : kMainNames) names_.push_back(o.output_name(n));
    if (debug_)
      for (auto n : kDebugNames) names_.push_back(o.output_name(n));
  }

  // Throws vqtwin::Error for frames integer ADM refuses (size, bit depth).
  void init(const PictureFormat& f) {
    computer_.emplace(settings_, factors_, f.width, f.height, f.bitdepth);
    width_ = f.width;
    height_ = f.height;
  }

  // Settings, factors, per-scale geometry and input sizes (after init).
  const Computer& computer() const { return *computer_; }

  // One frame's values from its exact sums. Thread-safe.
  void emit(const FrameSums& sums, unsigned index, FeatureSink& out) const {
    const FrameScores scores = computer_->scores_of(sums);
    const Outputs o = combine(scores, settings_, width_, height_);
    const double main[7] = {o.adm2, o.aim, o.adm3, o.scale[0], o.scale[1], o.scale[2], o.scale[3]};
    for (int i = 0; i < 7; ++i) out.put(names_[i], index, main[i]);
    if (!debug_) return;
    const double debug[11] = {o.adm2,
                              o.num,
                              o.den,
                              double(scores.scale[0].num),
                              double(scores.scale[0].den),
                              double(scores.scale[1].num),
                              double(scores.scale[1].den),
                              double(scores.scale[2].num),
                              double(scores.scale[2].den),
                              double(scores.scale[3].num),
                              double(scores.scale[3].den)};
    for (int i = 0; i < 11; ++i) out.put(names_[7 + i], index, debug[i]);
  }

 private:
  Settings settings_;
  CsfFactors factors_;
  bool debug_;
  std::vector<std::string> names_;
  std::optional<Computer> computer_;
  int width_ = 0, height_ = 0;
};

}  // namespace vqtwin::integer_adm
