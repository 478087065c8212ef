// float_moment, CPU reference: the mean and the mean square of the reference and distorted luma
// planes, in 8-bit units (see math.hpp and README.md).
//
// Up to 12 bits every fp32 value and square libvmaf adds is exact, so its double sums equal exact
// integer sums scaled by a power of two, which are computed here in integers (any order gives them).
// At 16 bits the fp32 square (v/256)^2 rounds; there libvmaf's raster-order double sum is reproduced.
#include <cstdint>
#include <memory>
#include <string>

#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "core/format_checks.hpp"
#include "features/float_moment/math.hpp"
#include "features/float_moment/schema.hpp"

namespace vqtwin {
namespace float_moment {
namespace {

struct Sums {
  double first = 0;   // sum of v / scale
  double second = 0;  // sum of fp32 (v / scale)^2
};

template <class T>
Sums exact_sums(const Picture& pic, float scale) {
  const int w = pic.width(0), h = pic.height(0);
  std::uint64_t s1 = 0, s2 = 0;
  for (int y = 0; y < h; ++y) {
    const T* row = pic.row<T>(0, y);
    std::uint64_t r1 = 0, r2 = 0;
    for (int x = 0; x < w; ++x) {
      const std::uint32_t v = row[x];
      r1 += v;
      r2 += std::uint64_t(v * v);  // below 2^24: v has at most 12 bits here
    }
    s1 += r1;
    s2 += r2;
  }
  // Divisions by scale and scale^2 (powers of two) are exact.
  return {double(s1) / double(scale), double(s2) / (double(scale) * double(scale))};
}

// libvmaf's own order, for 16 bits (and for pictures whose integer sum of squares could pass 2^53).
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
  void init(const PictureFormat& f) override {
    require_standard_bitdepth("float_moment", f.bitdepth);
    scale_ = scale_of(f.bitdepth);
    exact_ = exact_integer_path(f.bitdepth, f.width, f.height);
  }

  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    const Sums r = sums(ref), d = sums(dist);
    const int w = ref.width(0), h = ref.height(0);
    out.put(kOutputs[0], index, moment_of(r.first, w, h));
    out.put(kOutputs[1], index, moment_of(d.first, w, h));
    out.put(kOutputs[2], index, moment_of(r.second, w, h));
    out.put(kOutputs[3], index, moment_of(d.second, w, h));
  }

 private:
  Sums sums(const Picture& p) const {
    if (p.format().bitdepth == 8) return exact_ ? exact_sums<std::uint8_t>(p, scale_) : sequential_sums<std::uint8_t>(p, scale_);
    return exact_ ? exact_sums<std::uint16_t>(p, scale_) : sequential_sums<std::uint16_t>(p, scale_);
  }

  float scale_ = 1.0f;
  bool exact_ = true;
};

}  // namespace
}  // namespace float_moment

extern const ExtractorInfo kFloatMomentInfo;
const ExtractorInfo kFloatMomentInfo = cpu_extractor<float_moment::FloatMomentCpu>(float_moment::kSpec);

}  // namespace vqtwin
