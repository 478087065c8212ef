// float_psnr, CPU reference (spec: psnr.md §2): luma only, no options. Why the
// integer path is exact: front.hpp.
#include <cstdint>
#include <memory>
#include <string>

#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "features/float_psnr/schema.hpp"
#include "features/float_psnr/front.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace float_psnr {
namespace {

// Exact SSE of two 8-bit rows. Per-chunk 32-bit sums (65536 * 255^2 < 2^32) let the compiler
// use 16x16->32-bit multiply-adds; the chunks add into 64 bits.
std::uint64_t row_sse_8(const std::uint8_t* a, const std::uint8_t* b, int w) {
  std::uint64_t total = 0;
  for (int x0 = 0; x0 < w; x0 += 65536) {
    const int x1 = w - x0 < 65536 ? w : x0 + 65536;
    std::uint32_t s = 0;
    for (int x = x0; x < x1; ++x) {
      const std::int16_t e = std::int16_t(a[x] - b[x]);
      s += std::uint32_t(std::int32_t(e) * e);
    }
    total += s;
  }
  return total;
}

// Exact SSE of two 10/12-bit rows (squares below 2^24, summed in 64 bits). The samples are ORed into
// `seen`: a sample of 2^bpc or more (libvmaf accepts them) voids the exactness argument above, and the
// caller then takes libvmaf's order. The square of the magnitude is unsigned, so it cannot overflow.
std::uint64_t row_sse_16(const std::uint16_t* a, const std::uint16_t* b, int w, std::uint32_t& seen) {
  std::uint64_t s = 0;
  std::uint32_t any = 0;
  for (int x = 0; x < w; ++x) {
    const std::uint32_t e = a[x] > b[x] ? std::uint32_t(a[x] - b[x]) : std::uint32_t(b[x] - a[x]);
    s += e * e;
    any |= std::uint32_t(a[x] | b[x]);
  }
  seen |= any;
  return s;
}

// libvmaf's own order, for 16 bits: fp32 difference and square, double raster-order sum.
double noise_sequential(const Picture& ref, const Picture& dist, float scale) {
  const int w = ref.width(0), h = ref.height(0);
  double noise = 0;
  for (int y = 0; y < h; ++y) {
    const std::uint16_t* a = ref.row<std::uint16_t>(0, y);
    const std::uint16_t* b = dist.row<std::uint16_t>(0, y);
    for (int x = 0; x < w; ++x) {
      const float d = float(a[x]) / scale - float(b[x]) / scale;
      noise += double(d * d);
    }
  }
  return noise;
}

class FloatPsnrCpu final : public Extractor {
 public:
  void init(const PictureFormat& f) override { front_.init(f); }

  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    if (!front_.exact_integer()) return front_.emit_noise(noise_sequential(ref, dist, front_.scale()), index, out);
    const int w = ref.width(0), h = ref.height(0);
    std::uint64_t sse = 0;
    std::uint32_t seen = 0;
    for (int y = 0; y < h; ++y)
      sse += ref.format().bitdepth > 8
                 ? row_sse_16(ref.row<std::uint16_t>(0, y), dist.row<std::uint16_t>(0, y), w, seen)
                 : row_sse_8(ref.row<std::uint8_t>(0, y), dist.row<std::uint8_t>(0, y), w);
    // A sample of 2^bpc or more voids the exactness argument (front.hpp): libvmaf's order then.
    if (seen >> ref.format().bitdepth) return front_.emit_noise(noise_sequential(ref, dist, front_.scale()), index, out);
    front_.emit_sse(sse, index, out);
  }

 private:
  Front front_;
};

}  // namespace
}  // namespace float_psnr

extern const ExtractorInfo kFloatPsnrInfo;
const ExtractorInfo kFloatPsnrInfo = cpu_extractor<float_psnr::FloatPsnrCpu>(float_psnr::kSpec);

}  // namespace vqtwin
