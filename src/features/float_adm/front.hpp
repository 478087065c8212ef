#pragma once
// float_adm's front: everything but the per-scale values. Options (parsed once), the CSF factors of
// every scale, the refused formats, the output names with their option suffixes, the pooling of a
// scale's per-row totals into its num / den / aim (float, rows in order, then libvmaf's powf norm)
// and the combination into the outputs (double, spec §9), in libvmaf's order. The CPU reference
// (cpu.cpp) and the CUDA twin (cuda.cu) both hand it a frame's per-scale values.
#include <array>
#include <cstddef>
#include <string>

#include "core/extractor.hpp"
#include "core/format_checks.hpp"
#include "features/float_adm/csf.hpp"
#include "features/float_adm/math.hpp"
#include "features/float_adm/rcpss.hpp"
#include "features/float_adm/scale.hpp"
#include "features/float_adm/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::float_adm {

inline constexpr int kScales = 4;

struct FrameScores {
  float num[kScales] = {}, den[kScales] = {}, aim[kScales] = {};
  int last_w = 0, last_h = 0;  // band size of the last scale (the limit's area)
};

class Front {
 public:
  // `run`: whose rcpss table the decouple step reproduces (spec: DECISIONS.md §15).
  Front(const OptionValues& o, const RunSettings& run)
      : debug_(o.get_bool("debug")),
        adm3_harmonic_(o.get_bool("adm_adm3_apply_hm")),
        skip_scale0_(o.get_bool("adm_skip_scale0")),
        skip_aim_scale_(o.get_int("adm_skip_aim_scale")),
        dlm_weight_(o.get_double("adm_dlm_weight")),
        min_val_(o.get_double("adm_min_val")) {
    settings_.gain_limit = o.get_double("adm_enhn_gain_limit");
    settings_.noise_weight = o.get_double("adm_noise_weight");
    settings_.p_norm = o.get_double("adm_p_norm");
    settings_.bypass_cm = o.get_int("adm_bypass_cm") != 0;
    settings_.rcp_table = rcpss_table(run.rcpss);

    CsfSettings csf;
    csf.mode = o.get_int("adm_csf_mode");
    csf.view_dist = o.get_double("adm_norm_view_dist");
    csf.display_height = o.get_int("adm_ref_display_height");
    csf.csf_scale = o.get_double("adm_csf_scale");
    csf.csf_diag_scale = o.get_double("adm_csf_diag_scale");
    for (int s = 0; s < kScales; ++s) {
      csf.f1_override[s] = o.get_double("adm_f1s" + std::to_string(s));
      csf.f2_override[s] = o.get_double("adm_f2s" + std::to_string(s));
    }
    for (int s = 0; s < kScales; ++s) factors_[std::size_t(s)] = csf_factors(s, csf);
    for (std::size_t i = 0; i < kNames.size(); ++i) names_[i] = o.output_name(kNames[i]);
    for (std::size_t i = 0; i < kDebugNames.size(); ++i) debug_names_[i] = o.output_name(kDebugNames[i]);
    // libvmaf renames only the names its extractor lists as provided, and float_adm does not list
    // the debug output "adm": it keeps that name whatever the options (checked on libvmaf 3.2).
    debug_names_[0] = kDebugNames[0];
  }

  void init(const PictureFormat& f) {
    require_standard_bitdepth("float_adm", f.bitdepth);
    // libvmaf reads outside its bands below 17 pixels; we share integer ADM's 33 (spec: DECISIONS.md §16).
    if (f.width < 33 || f.height < 33)
      throw Error("float_adm: the luma plane " + std::to_string(f.width) + "x" + std::to_string(f.height) +
                  " is too small (ADM needs at least 33 pixels in each dimension)");
    width_ = f.width;
    height_ = f.height;
  }

  int width() const { return width_; }
  int height() const { return height_; }
  bool skip_scale0() const { return skip_scale0_; }
  const ScaleSettings& settings() const { return settings_; }
  const CsfFactors& factors(int scale) const { return factors_[std::size_t(scale)]; }

  // A scale's values from its per-row totals (pool rows in order, orientations h, v, d each): the
  // float sums of the rows, then the p-norm pooling, exactly as scale_values() ends.
  ScaleValues values_from_rows(const float* den_rows, const float* num_rows, const float* aim_rows, int band_w,
                               int band_h) const {
    const Rect pr = pool_rect(band_w, band_h);
    const int n = pr.bottom - pr.top;
    ScaleValues v;
    v.den = pooled_sum(rows_in_order(den_rows, n).data(), pr, settings_.noise_weight, settings_.p_norm);
    v.num = pooled_sum(rows_in_order(num_rows, n).data(), pr, settings_.noise_weight, settings_.p_norm);
    v.aim = pooled_sum(rows_in_order(aim_rows, n).data(), pr, 0.0, settings_.p_norm);
    return v;
  }

  // A frame's scores from the staged per-row totals of every scale, as the device twins stage them:
  // scale k's rows start at row_offset[k] (den, num, aim: 3 x its pool rows each), its bands are
  // band_w[k] x band_h[k]; with adm_skip_scale0 scale 0 holds nothing and gets libvmaf's 1e-10 guard.
  FrameScores scores_from_rows(const float* staged, const std::size_t (&row_offset)[kScales],
                               const int (&band_w)[kScales], const int (&band_h)[kScales]) const {
    FrameScores sc;
    for (int k = 0; k < kScales; ++k) {
      if (k == 0 && skip_scale0_) {
        sc.den[0] = 1e-10f;  // libvmaf's guard against 0/0 in adm_scale0 (as the CPU)
        continue;
      }
      const Rect pr = pool_rect(band_w[k], band_h[k]);
      const std::size_t pool_rows = std::size_t(pr.bottom - pr.top);
      const float* rows = staged + row_offset[k];
      const ScaleValues v = values_from_rows(rows, rows + 3 * pool_rows, rows + 6 * pool_rows, band_w[k], band_h[k]);
      sc.num[k] = v.num;
      sc.den[k] = v.den;
      sc.aim[k] = v.aim;
    }
    sc.last_w = band_w[kScales - 1];
    sc.last_h = band_h[kScales - 1];
    return sc;
  }

  // Spec §9: double sums in scale order, the size-relative limit, aim clip, adm3.
  void emit(const FrameScores& sc, unsigned index, FeatureSink& out) const {
    double num = 0.0, den = 0.0, aim_num = 0.0, aim_den = 0.0;
    for (int s = 0; s < kScales; ++s) {
      num += double(sc.num[s]);
      den += double(sc.den[s]);
      if (s != skip_aim_scale_) {
        aim_den += double(sc.den[s]);
        aim_num += double(sc.aim[s]);
      }
    }
    const double limit = 1e-10 * double(sc.last_w * sc.last_h) / (1920.0 * 1080.0);
    num = num < limit ? 0.0 : num;
    den = den < limit ? 0.0 : den;
    double adm2 = 1.0;
    double aim = 0.0;  // libvmaf leaves aim unset when den == 0; we emit 0 (DECISIONS §16)
    if (den != 0.0) {
      const double ratio = aim_num / aim_den;
      aim = ratio < 1.0 ? ratio : 1.0;
      adm2 = num / den;
    }
    double adm3;
    if (adm3_harmonic_) {
      adm3 = 2 * adm2 * aim / (adm2 + aim);
    } else {
      adm3 = adm2 * dlm_weight_ + (1 - aim) * (1 - dlm_weight_);
    }
    adm3 = adm3 > min_val_ ? adm3 : min_val_;

    out.put(names_[0], index, adm2);
    out.put(names_[1], index, aim);
    out.put(names_[2], index, adm3);
    for (int s = 0; s < kScales; ++s)
      out.put(names_[3 + std::size_t(s)], index, double(sc.num[s]) / double(sc.den[s]));
    if (!debug_) return;
    out.put(debug_names_[0], index, adm2);
    out.put(debug_names_[1], index, num);
    out.put(debug_names_[2], index, den);
    for (int s = 0; s < kScales; ++s) {
      out.put(debug_names_[3 + 2 * std::size_t(s)], index, double(sc.num[s]));
      out.put(debug_names_[4 + 2 * std::size_t(s)], index, double(sc.den[s]));
    }
  }

 private:
  // The rows' totals of each orientation added in row order, in float (rows[3 * row + theta]).
  static std::array<float, 3> rows_in_order(const float* rows, int n) {
    std::array<float, 3> acc = {0.0f, 0.0f, 0.0f};
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < 3; ++k) acc[std::size_t(k)] += rows[3 * std::size_t(i) + std::size_t(k)];
    return acc;
  }

  bool debug_, adm3_harmonic_, skip_scale0_;
  int skip_aim_scale_;
  double dlm_weight_, min_val_;
  ScaleSettings settings_;
  std::array<CsfFactors, kScales> factors_{};
  std::array<std::string, kNames.size()> names_;
  std::array<std::string, kDebugNames.size()> debug_names_;
  int width_ = 0, height_ = 0;
};

}  // namespace vqtwin::float_adm
