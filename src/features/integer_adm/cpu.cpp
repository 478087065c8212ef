// integer ADM (`adm`), CPU reference (spec: integer_adm.md). The front (front.hpp) owns options,
// names, geometry and the float tails; this file is the CPU's exact sums.
#include <memory>

#include "common/cpu.hpp"
#include "common/workspace_pool.hpp"
#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "core/sample_range.hpp"
#include "features/integer_adm/front.hpp"
#include "features/integer_adm/pipeline.hpp"
#include "features/integer_adm/schema.hpp"

namespace vqtwin {
namespace integer_adm {
namespace {

class AdmCpu final : public Extractor {
 public:
  explicit AdmCpu(const OptionValues& o) : front_(o), kernels_(kernels_for(cpu::flags())) {}

  void init(const PictureFormat& f) override { front_.init(f); }

  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    const FrameSums sums = [&] {
      const auto ws = workspaces_.take([&] { return front_.computer().make_workspace(); });
      // The SIMD rows assume samples below 2^bpc; the reference rows follow libvmaf's integer widths for any sample.
      return front_.computer().compute_sums(ref, dist, *ws,
                                            has_out_of_range_samples(ref, dist) ? reference_kernels() : kernels_);
    }();
    front_.emit(sums, index, out);
  }

 private:
  Front front_;
  const RowKernels kernels_;  // chosen when the context is created (common/cpu.hpp)
  // Frames run concurrently: each call borrows a workspace (reused, never shared).
  WorkspacePool<Workspace, void (*)(Workspace*)> workspaces_;
};

}  // namespace
}  // namespace integer_adm

extern const ExtractorInfo kIntegerAdmInfo;
const ExtractorInfo kIntegerAdmInfo = cpu_extractor<integer_adm::AdmCpu>(integer_adm::kSpec);

}  // namespace vqtwin
