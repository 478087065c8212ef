// integer VIF (`vif`), CPU reference (spec: integer_vif.md).
#include <memory>
#include <string>

#include "common/cpu.hpp"
#include "common/workspace_pool.hpp"
#include "core/extractor.hpp"
#include "core/sample_range.hpp"
#include "core/implementation.hpp"
#include "features/integer_vif/kernels.hpp"
#include "features/integer_vif/log_table.hpp"
#include "features/integer_vif/math.hpp"
#include "features/integer_vif/pipeline.hpp"
#include "features/integer_vif/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace integer_vif {
namespace {

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

class VifCpu final : public Extractor {
 public:
  explicit VifCpu(const OptionValues& o) : names_(o), kernels_(kernels_for(cpu::flags())) {
    setup_.gain_limit = o.get_double("vif_enhn_gain_limit");
    setup_.skip_scale0 = o.get_bool("vif_skip_scale0");
    debug_ = o.get_bool("debug");
  }

  void init(const PictureFormat& f) override {
    if (f.bitdepth != 8 && f.bitdepth != 10 && f.bitdepth != 12 && f.bitdepth != 16)
      throw Error("vif: bit depth " + std::to_string(f.bitdepth) + " is not supported (8, 10, 12, 16)");
    if (f.width < kMinPlaneSize || f.height < kMinPlaneSize)
      throw Error("vif: the luma plane is " + std::to_string(f.width) + "x" + std::to_string(f.height) +
                  "; integer VIF needs at least " + std::to_string(kMinPlaneSize) + "x" +
                  std::to_string(kMinPlaneSize) + " (its coarsest scale is 1/8 of the picture)");
    setup_.width = f.width;
    setup_.height = f.height;
    setup_.bpc = f.bitdepth;
    log2_table();  // build the table before frames run concurrently
  }

  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    // The SIMD sets assume samples below 2^bpc; the reference set follows libvmaf's integer widths for any sample.
    const KernelSet& kernels = has_out_of_range_samples(ref, dist) ? reference_kernels() : kernels_;
    const auto ws = workspaces_.take();
    const auto sums = frame_sums(kernels, setup_, {ref.data(0), ref.stride(0)}, {dist.data(0), dist.stride(0)}, *ws);
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
  const KernelSet kernels_;  // chosen when the context is created (common/cpu.hpp)
  FrameSetup setup_;
  WorkspacePool<Workspace> workspaces_;
  bool debug_ = false;
};

}  // namespace
}  // namespace integer_vif

extern const ExtractorInfo kIntegerVifInfo;
const ExtractorInfo kIntegerVifInfo = cpu_extractor<integer_vif::VifCpu>(integer_vif::kSpec);

}  // namespace vqtwin
