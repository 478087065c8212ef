// ciede, CPU reference (see math.hpp and README.md): the mean CIEDE2000 difference of the two pictures,
// per pixel, on the luma grid, written as 45 - 20 log10(mean).

#include "common/cpu.hpp"
#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "features/ciede/chroma_map.hpp"
#include "features/ciede/frame.hpp"
#include "features/ciede/front.hpp"
#include "features/ciede/lab_cache.hpp"
#include "features/ciede/math.hpp"
#include "features/ciede/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace ciede {
namespace {

class CiedeCpu final : public Extractor {
 public:
  CiedeCpu() : kernels_(batch_kernels_for(cpu::flags())) {}
  void init(const PictureFormat& f) override {
    map_ = accept(f);  // front.hpp: the refusals
  }

  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    const PictureFormat& f = ref.format();
    thread_local LabCache cache;
    const double sum = scalar_ ? reference_difference_sum(map_, ref, dist) : difference_sum(kernels_, cache, map_, ref, dist);
    out.put(kOutputs[0], index, score_of(sum, unsigned(f.width) * unsigned(f.height)));
  }

 private:
  ChromaMap map_;
  BatchKernels kernels_;  // chosen once, when the context is made (--cpumask applies)
  bool scalar_ = scalar_path_selected();  // VQTWIN_CIEDE_PATH=scalar: the reference, for speed comparisons
};

}  // namespace
}  // namespace ciede

extern const ExtractorInfo kCiedeInfo;
const ExtractorInfo kCiedeInfo = cpu_extractor<ciede::CiedeCpu>(ciede::kSpec);

}  // namespace vqtwin
