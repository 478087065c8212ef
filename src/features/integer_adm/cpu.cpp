// integer ADM (`adm`), CPU reference (spec: integer_adm.md).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/cpu.hpp"
#include "common/workspace_pool.hpp"
#include "core/extractor.hpp"
#include "core/sample_range.hpp"
#include "core/implementation.hpp"
#include "features/integer_adm/pipeline.hpp"
#include "features/integer_adm/schema.hpp"

namespace vqtwin {
namespace integer_adm {
namespace {

Settings settings_of(const OptionValues& o) {
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

class AdmCpu final : public Extractor {
 public:
  explicit AdmCpu(const OptionValues& o)
      : settings_(settings_of(o)),
        factors_(make_csf_factors(settings_)),
        debug_(o.get_bool("debug")),
        kernels_(kernels_for(cpu::flags())) {
    for (auto n : kMainNames) names_.push_back(o.output_name(n));
    if (debug_)
      for (auto n : kDebugNames) names_.push_back(o.output_name(n));
  }

  void init(const PictureFormat& f) override {
    computer_.emplace(settings_, factors_, f.width, f.height, f.bitdepth);
  }

  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    const FrameScores scores = [&] {
      const auto ws = workspaces_.take([&] { return computer_->make_workspace(); });
      // The SIMD rows assume samples below 2^bpc; the reference rows follow libvmaf's integer widths for any sample.
      return computer_->compute(ref, dist, *ws, has_out_of_range_samples(ref, dist) ? reference_kernels() : kernels_);
    }();
    const PictureFormat& f = ref.format();
    const Outputs o = combine(scores, settings_, f.width, f.height);
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
  const RowKernels kernels_;  // chosen when the context is created (common/cpu.hpp)
  std::optional<Computer> computer_;
  // Frames run concurrently: each call borrows a workspace (reused, never shared).
  WorkspacePool<Workspace, void (*)(Workspace*)> workspaces_;
};

}  // namespace
}  // namespace integer_adm

extern const ExtractorInfo kIntegerAdmInfo;
const ExtractorInfo kIntegerAdmInfo = cpu_extractor<integer_adm::AdmCpu>(integer_adm::kSpec);

}  // namespace vqtwin
