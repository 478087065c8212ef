// integer VIF (`vif`), CPU reference (spec: integer_vif.md). The front (front.hpp) owns options,
// names and the arithmetic on the sums; this file is the CPU's sums.
#include "common/cpu.hpp"
#include "common/workspace_pool.hpp"
#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "core/sample_range.hpp"
#include "features/integer_vif/front.hpp"
#include "features/integer_vif/kernels.hpp"
#include "features/integer_vif/log_table.hpp"
#include "features/integer_vif/pipeline.hpp"
#include "features/integer_vif/schema.hpp"

namespace vqtwin {
namespace integer_vif {
namespace {

class VifCpu final : public Extractor {
 public:
  explicit VifCpu(const OptionValues& o) : front_(o), kernels_(kernels_for(cpu::flags())) {}

  void init(const PictureFormat& f) override {
    front_.init(f);
    log2_table();  // build the table before frames run concurrently
  }

  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    // The SIMD sets assume samples below 2^bpc; the reference set follows libvmaf's integer widths for any sample.
    const KernelSet& kernels = has_out_of_range_samples(ref, dist) ? reference_kernels() : kernels_;
    const auto ws = workspaces_.take();
    front_.emit(frame_sums(kernels, front_.setup(), {ref.data(0), ref.stride(0)}, {dist.data(0), dist.stride(0)}, *ws),
                index, out);
  }

 private:
  Front front_;
  const KernelSet kernels_;  // chosen when the context is created (common/cpu.hpp)
  WorkspacePool<Workspace> workspaces_;
};

}  // namespace
}  // namespace integer_vif

extern const ExtractorInfo kIntegerVifInfo;
const ExtractorInfo kIntegerVifInfo = cpu_extractor<integer_vif::VifCpu>(integer_vif::kSpec);

}  // namespace vqtwin
