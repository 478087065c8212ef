// psnr, CPU reference (spec: psnr.md §1).
#include <memory>

#include "common/cpu.hpp"
#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "features/psnr/front.hpp"
#include "features/psnr/schema.hpp"
#include "features/psnr/sse.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace psnr {
namespace {

// The front plus the CPU's exact SSE of each plane.
class PsnrCpu final : public Extractor {
 public:
  explicit PsnrCpu(const OptionValues& o) : front_(o), sse_(sse_kernels_for(cpu::flags())) {}
  void init(const PictureFormat& f) override { front_.init(f); }
  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    std::uint64_t sse[3] = {0, 0, 0};
    for (int p = 0; p < front_.planes(); ++p) sse[p] = plane_sse(sse_, ref, dist, p);
    front_.emit(sse, index, out);
  }
  void flush(FeatureSink& out) override { front_.flush(out); }

 private:
  Front front_;
  SseKernels sse_;  // chosen once, when the context is made (--cpumask applies)
};

}  // namespace
}  // namespace psnr

extern const ExtractorInfo kPsnrInfo;
const ExtractorInfo kPsnrInfo = cpu_extractor<psnr::PsnrCpu>(psnr::kSpec);

}  // namespace vqtwin
