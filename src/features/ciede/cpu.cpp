// ciede, CPU reference (see math.hpp and README.md): the mean CIEDE2000 difference of the two pictures,
// per pixel, on the luma grid, written as 45 - 20 log10(mean).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/cpu.hpp"
#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "features/ciede/chroma_map.hpp"
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
    const double sum = f.bitdepth == 8 ? difference_sum<std::uint8_t>(ref, dist) : difference_sum<std::uint16_t>(ref, dist);
    out.put(kOutputs[0], index, score_of(sum, unsigned(f.width) * unsigned(f.height)));
  }

 private:
  template <class T>
  double difference_sum(const Picture& ref, const Picture& dist) const {
    const PictureFormat& f = ref.format();
    const unsigned bpc = unsigned(f.bitdepth);
    thread_local LabCache cache;
    // Samples of up to kBatch pixel pairs: the reference's in [0, kBatch), the distorted's after them.
    std::uint16_t py[2 * kBatch], pu[2 * kBatch], pv[2 * kBatch];
    Lab lab[2 * kBatch];
    float de[kBatch];
    int n = 0;
    double sum = 0.;
    auto drain = [&] {
      if (n == 0) return;
      for (int k = 0; k < n; ++k) py[n + k] = py[kBatch + k], pu[n + k] = pu[kBatch + k], pv[n + k] = pv[kBatch + k];
      cache.lookup(kernels_, py, pu, pv, 2 * n, bpc, lab);
      kernels_.ciede2000(lab, lab + n, n, de);
      for (int k = 0; k < n; ++k) sum += de[k];  // raster order
      n = 0;
    };
    // Queues pixel x of the row for the batch (the samples as libvmaf pairs them).
    auto queue = [&](unsigned ry, unsigned ru, unsigned rv, unsigned dy, unsigned du, unsigned dv) {
      // Equal colours differ by exactly +0 (every CIEDE2000 term is a zero over a positive weight),
      // and adding +0 leaves the sum as it is.
      if (ry == dy && ru == du && rv == dv) return;
      py[n] = std::uint16_t(ry), pu[n] = std::uint16_t(ru), pv[n] = std::uint16_t(rv);
      py[kBatch + n] = std::uint16_t(dy), pu[kBatch + n] = std::uint16_t(du), pv[kBatch + n] = std::uint16_t(dv);
      if (++n == kBatch) drain();
    };
    for (int y = 0; y < f.height; ++y) {
      const ChromaRow cr = map_.row(y);
      const T* ry = ref.row<T>(0, y);
      const T* dy = dist.row<T>(0, y);
      if (map_.plain()) {  // the common layouts: chroma straight from the plane row
        const int s = map_.plain_shift();
        const T *ru = ref.row<T>(1, cr.row), *rv = ref.row<T>(2, cr.row);
        const T *du = dist.row<T>(1, cr.row), *dv = dist.row<T>(2, cr.row);
        for (int x = 0; x < f.width; ++x) queue(ry[x], ru[x >> s], rv[x >> s], dy[x], du[x >> s], dv[x >> s]);
        continue;
      }
      for (int x = 0; x < f.width; ++x)
        queue(ry[x], map_.sample<T>(ref, 1, cr, x), map_.sample<T>(ref, 2, cr, x), dy[x], map_.sample<T>(dist, 1, cr, x),
              map_.sample<T>(dist, 2, cr, x));
    }
    drain();
    return sum;
  }

  ChromaMap map_;
  BatchKernels kernels_;  // chosen once, when the context is made (--cpumask applies)
};

}  // namespace
}  // namespace ciede

extern const ExtractorInfo kCiedeInfo;
const ExtractorInfo kCiedeInfo = cpu_extractor<ciede::CiedeCpu>(ciede::kSpec);

}  // namespace vqtwin
