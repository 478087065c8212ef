// integer_ssim (the fork's `ssim`), CPU reference (spec: integer_ssim.md): the front (front.hpp) on
// the CPU's window terms.
#include "common/cpu.hpp"
#include "common/workspace_pool.hpp"
#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "features/integer_ssim/front.hpp"
#include "features/integer_ssim/moments.hpp"
#include "features/integer_ssim/schema.hpp"

namespace vqtwin {
namespace integer_ssim {
namespace {

class IntegerSsimCpu final : public Extractor {
 public:
  explicit IntegerSsimCpu(const OptionValues& o) : front_(o), kernels_(score_kernels_for(cpu::flags())) {}
  void init(const PictureFormat& f) override { front_.init(f); }
  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    const auto lease = workspaces_.take();  // frames run concurrently: one workspace each
    front_.emit(kernels_.term_sum(*lease, ref, dist), index, out);
  }

 private:
  Front front_;
  ScoreKernels kernels_;
  WorkspacePool<Workspace> workspaces_;
};

}  // namespace
}  // namespace integer_ssim

extern const ExtractorInfo kIntegerSsimInfo;
const ExtractorInfo kIntegerSsimInfo = cpu_extractor<integer_ssim::IntegerSsimCpu>(integer_ssim::kSpec);

}  // namespace vqtwin
