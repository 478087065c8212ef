// psnr_hvs, CPU reference (see cells.hpp, front.hpp and README.md).
//
// The plane sums are kernels.hpp's table: blocks of one block row kLanes at a time (GCC vectors, each lane
// one block doing the scalar sequence of cells.hpp exactly: integer DCT, fp32 sums in libvmaf's order);
// their 64 terms are then added into the plane's fp32 total one block after the other, in libvmaf's order.
#include "common/cpu.hpp"
#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "features/psnr_hvs/front.hpp"
#include "features/psnr_hvs/kernels.hpp"
#include "features/psnr_hvs/schema.hpp"

namespace vqtwin {
namespace psnr_hvs {
namespace {

class PsnrHvsCpu final : public Extractor {
 public:
  PsnrHvsCpu() : kernels_(block_kernels_for(cpu::flags())) {}
  void init(const PictureFormat& f) override { front_.init(f); }

  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    float total[3];
    for (int p = 0; p < 3; ++p) {
      const int w = front_.width(p), h = front_.height(p);
      const PlaneSum s = front_.bitdepth() == 8 ? kernels_.plane_sum8(ref, dist, p, w, h, front_.tables(p))
                                                : kernels_.plane_sum16(ref, dist, p, w, h, front_.tables(p));
      total[p] = s.total;
    }
    front_.emit(total, index, out);
  }

 private:
  Front front_;
  BlockKernels kernels_;  // chosen once, when the context is made (--cpumask applies)
};

}  // namespace
}  // namespace psnr_hvs

extern const ExtractorInfo kPsnrHvsInfo;
const ExtractorInfo kPsnrHvsInfo = cpu_extractor<psnr_hvs::PsnrHvsCpu>(psnr_hvs::kSpec);

}  // namespace vqtwin
