// float_moment, CPU reference: the mean and the mean square of the reference and distorted luma
// planes, in 8-bit units (see math.hpp and README.md).
//
// Up to 12 bits every fp32 value and square libvmaf adds is exact (for samples within the bit depth), so
// its double sums equal exact integer sums scaled by a power of two, which are computed here in integers
// (any order gives them; sums.hpp, vectorised). At 16 bits, or for a picture holding a sample above its
// bit depth, the fp32 square may round; there libvmaf's raster-order double sum is reproduced.
#include <cstdint>
#include <memory>
#include <string>

#include "common/cpu.hpp"
#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "features/float_moment/front.hpp"
#include "features/float_moment/math.hpp"
#include "features/float_moment/schema.hpp"
#include "features/float_moment/sums.hpp"

namespace vqtwin {
namespace float_moment {
namespace {

// libvmaf's own order, for 16 bits (and for pictures whose integer sum of squares could pass 2^53, or holding a sample above their bit depth).
template <class T>
Sums sequential_sums(const Picture& pic, float scale) {
  const int w = pic.width(0), h = pic.height(0);
  Sums s;
  for (int y = 0; y < h; ++y) {
    const T* row = pic.row<T>(0, y);
    for (int x = 0; x < w; ++x) {
      const float v = float(row[x]) / scale;
      s.first += v;
      s.second += v * v;  // the fp32 product, as libvmaf's `pic_ * pic_`
    }
  }
  return s;
}

class FloatMomentCpu final : public Extractor {
 public:
  FloatMomentCpu() : kernels_(sum_kernels_for(cpu::flags())) {}
  void init(const PictureFormat& f) override { front_.init(f); }

  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    front_.emit(sums(ref), sums(dist), index, out);
  }

 private:
  Sums sums(const Picture& p) const {
    const int bpc = p.format().bitdepth;
    if (front_.exact()) {
      const IntegerSums s = bpc == 8 ? kernels_.sums8(p.row<std::uint8_t>(0, 0), p.stride(0), p.width(0), p.height(0))
                                     : kernels_.sums16(p.row<std::uint16_t>(0, 0), p.stride(0), p.width(0), p.height(0));
      // A sample above the bit depth (10/12-bit files may hold them) can have an fp32 square that
      // rounds: then libvmaf's own order (front.hpp).
      Sums exact;
      if (front_.from_integers(s, exact)) return exact;
    }
    const float scale = front_.scale();
    return bpc == 8 ? sequential_sums<std::uint8_t>(p, scale) : sequential_sums<std::uint16_t>(p, scale);
  }

  Front front_;
  SumKernels kernels_;  // chosen once, when the context is made (--cpumask applies)
};

}  // namespace
}  // namespace float_moment

extern const ExtractorInfo kFloatMomentInfo;
const ExtractorInfo kFloatMomentInfo = cpu_extractor<float_moment::FloatMomentCpu>(float_moment::kSpec);

}  // namespace vqtwin
