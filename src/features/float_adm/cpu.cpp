// float_adm, CPU reference (spec: float_adm.md).
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "common/luma_float.hpp"
#include "common/workspace_pool.hpp"
#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "core/format_checks.hpp"
#include "features/float_adm/csf.hpp"
#include "features/float_adm/dwt.hpp"
#include "features/float_adm/math.hpp"
#include "features/float_adm/scale.hpp"
#include "features/float_adm/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace float_adm {
namespace {

constexpr int kScales = 4;

// The planes of one extract() call, borrowed from the context's pool: concurrent frames never share
// them, and they are reused from frame to frame.
struct Workspace {
  std::vector<float> ref_in, dis_in;  // samples - 128, packed w x h
  Subbands ref[2], dis[2];            // this scale's bands and the previous scale's (its a band is the input)
  ScaleWork scale;
  std::vector<float> scratch;
};

struct FrameScores {
  float num[kScales] = {}, den[kScales] = {}, aim[kScales] = {};
  int last_w = 0, last_h = 0;  // band size of the last scale (the limit's area)
};

class FloatAdmCpu final : public Extractor {
 public:
  explicit FloatAdmCpu(const OptionValues& o)
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
    settings_.rcp_table = kRcpssTable;

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

  void init(const PictureFormat& f) override {
    require_standard_bitdepth("float_adm", f.bitdepth);
    // libvmaf reads outside its bands below 17 pixels; we share integer ADM's 33 (spec: DECISIONS.md §16).
    if (f.width < 33 || f.height < 33)
      throw Error("float_adm: the luma plane " + std::to_string(f.width) + "x" + std::to_string(f.height) +
                  " is too small (ADM needs at least 33 pixels in each dimension)");
    width_ = f.width;
    height_ = f.height;
  }

  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    const auto lease = workspaces_.take();
    Workspace& ws = *lease;
    const std::size_t n = std::size_t(width_) * std::size_t(height_);
    ws.ref_in.resize(n);
    ws.dis_in.resize(n);
    luma_to_float(ref, 128.0f, ws.ref_in.data());
    luma_to_float(dist, 128.0f, ws.dis_in.data());

    FrameScores sc;
    const float* ref_src = ws.ref_in.data();
    const float* dis_src = ws.dis_in.data();
    int w = width_, h = height_;
    for (int s = 0; s < kScales; ++s) {
      Subbands& rb = ws.ref[s & 1];
      Subbands& db = ws.dis[s & 1];
      const bool skipped = s == 0 && skip_scale0_;
      dwt2(ref_src, w, h, rb, skipped, ws.scratch);
      dwt2(dis_src, w, h, db, skipped, ws.scratch);
      w = rb.a.w;
      h = rb.a.h;
      if (skipped) {
        sc.den[s] = 1e-10f;  // libvmaf's guard against 0/0 in adm_scale0
      } else {
        const ScaleValues v = scale_values(rb, db, factors_[std::size_t(s)], settings_, ws.scale);
        sc.num[s] = v.num;
        sc.den[s] = v.den;
        sc.aim[s] = v.aim;
      }
      ref_src = rb.a.px.data();
      dis_src = db.a.px.data();
    }
    sc.last_w = w;
    sc.last_h = h;
    emit(sc, index, out);
  }

 private:
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
    double aim = 0.0;  // libvmaf leaves aim unset when den == 0; we emit 0 (spec: DECISIONS.md §16)
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

  bool debug_, adm3_harmonic_, skip_scale0_;
  int skip_aim_scale_;
  double dlm_weight_, min_val_;
  ScaleSettings settings_;
  std::array<CsfFactors, kScales> factors_{};
  std::array<std::string, kNames.size()> names_;
  std::array<std::string, kDebugNames.size()> debug_names_;
  int width_ = 0, height_ = 0;
  WorkspacePool<Workspace> workspaces_;
};

}  // namespace
}  // namespace float_adm

extern const ExtractorInfo kFloatAdmInfo;
const ExtractorInfo kFloatAdmInfo = cpu_extractor<float_adm::FloatAdmCpu>(float_adm::kSpec);

}  // namespace vqtwin
