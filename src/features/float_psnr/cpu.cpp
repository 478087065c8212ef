// float_psnr, CPU reference (behaviour: ../shared/spec/psnr.md §2): luma only, no options.
//
// libvmaf converts both pictures to float (v / scale), squares each fp32 difference in fp32 and
// adds the squares into a double in raster order. For 8, 10 and 12 bits every one of those steps is
// exact: the difference (a - b) / scale and its square (a - b)^2 / scale^2 fit in 24 bits, and every
// partial sum is an integer multiple of 1 / scale^2 below 2^53 / scale^2 (checked at init). So the
// double total equals the exact integer SSE / scale^2, which any summation order gives. At 16 bits
// the fp32 square rounds; there the sequential double sum is computed as libvmaf does.
#include <cstdint>
#include <memory>
#include <string>

#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "features/float_psnr/schema.hpp"
#include "features/float_psnr/math.hpp"
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
  void init(const PictureFormat& f) override {
    if (!make_setup(f.bitdepth, setup_))
      throw Error("float_psnr: bit depth " + std::to_string(f.bitdepth) + " is not supported (8, 10, 12, 16)");
    // The exact-integer shortcut needs every partial sum below 2^53 (see the top of this file).
    const double max_square = double((1u << f.bitdepth) - 1) * double((1u << f.bitdepth) - 1);
    exact_integer_ = f.bitdepth <= 12 && max_square * f.width * double(f.height) < 9007199254740992.0;
  }

  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    const int w = ref.width(0), h = ref.height(0);
    double noise;
    if (!exact_integer_) {
      noise = noise_sequential(ref, dist, setup_.scale);
    } else {
      std::uint64_t sse = 0;
      std::uint32_t seen = 0;
      for (int y = 0; y < h; ++y)
        sse += ref.format().bitdepth > 8
                   ? row_sse_16(ref.row<std::uint16_t>(0, y), dist.row<std::uint16_t>(0, y), w, seen)
                   : row_sse_8(ref.row<std::uint8_t>(0, y), dist.row<std::uint8_t>(0, y), w);
      // Division by scale^2 (1, 16 or 256) is exact.
      noise = double(sse) / (double(setup_.scale) * double(setup_.scale));
      if (seen >> ref.format().bitdepth) noise = noise_sequential(ref, dist, setup_.scale);
    }
    out.put("float_psnr", index, psnr_of(noise, w * h, setup_.peak, setup_.psnr_max));
  }

 private:
  Setup setup_;
  bool exact_integer_ = false;
};

}  // namespace
}  // namespace float_psnr

extern const ExtractorInfo kFloatPsnrInfo;
const ExtractorInfo kFloatPsnrInfo = cpu_extractor<float_psnr::FloatPsnrCpu>(float_psnr::kSpec);

}  // namespace vqtwin
