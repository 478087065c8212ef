#include "features/psnr/sse.hpp"

#include "common/cpu.hpp"
#include "common/vector.hpp"

namespace vqtwin::psnr {
namespace {

// 8-bit: a square is at most 255^2, so 32768 of them stay below 2^31. Each run of at most
// kRun8 samples is summed in int32 (signed 16-bit differences, 32-bit products: the vectoriser's
// multiply-add pattern), and the runs' sums are added in 64 bits. Integer sums: any order gives
// the same total, so every lane split is exact.
constexpr int kRun8 = 32768;

VQTWIN_ALWAYS_INLINE std::uint64_t sse8_body(const std::uint8_t* a, std::ptrdiff_t as, const std::uint8_t* b,
                                             std::ptrdiff_t bs, int w, int h) {
  std::uint64_t sse = 0;
  for (int y = 0; y < h; ++y) {
    const std::uint8_t* __restrict ra = a + y * as;
    const std::uint8_t* __restrict rb = b + y * bs;
    for (int x0 = 0; x0 < w; x0 += kRun8) {
      const int n = w - x0 < kRun8 ? w - x0 : kRun8;
      std::int32_t run = 0;
      for (int x = 0; x < n; ++x) {
        const std::int32_t d = std::int16_t(std::int16_t(ra[x0 + x]) - std::int16_t(rb[x0 + x]));
        run += d * d;
      }
      sse += std::uint64_t(run);
    }
  }
  return sse;
}

// 16-bit containers (any content, out-of-range samples too): the magnitude squared as unsigned
// (65535^2 < 2^32, where a signed square of a difference overflows past 46340), summed in 64 bits.
VQTWIN_ALWAYS_INLINE std::uint64_t sse16_body(const std::uint16_t* a, std::ptrdiff_t as, const std::uint16_t* b,
                                              std::ptrdiff_t bs, int w, int h) {
  std::uint64_t sse = 0;
  for (int y = 0; y < h; ++y) {
    const std::uint16_t* __restrict ra = a + y * as;
    const std::uint16_t* __restrict rb = b + y * bs;
    std::uint64_t row = 0;
    for (int x = 0; x < w; ++x) {
      const std::uint32_t p = ra[x], q = rb[x];
      const std::uint32_t e = p > q ? p - q : q - p;
      row += std::uint64_t(e * e);
    }
    sse += row;
  }
  return sse;
}

// The builds (common/isa.hpp): the same bodies, vectorised for each set.
std::uint64_t sse8_portable(const std::uint8_t* a, std::ptrdiff_t as, const std::uint8_t* b, std::ptrdiff_t bs, int w,
                            int h) {
  return sse8_body(a, as, b, bs, w, h);
}
std::uint64_t sse16_portable(const std::uint16_t* a, std::ptrdiff_t as, const std::uint16_t* b, std::ptrdiff_t bs,
                             int w, int h) {
  return sse16_body(a, as, b, bs, w, h);
}
#if VQTWIN_X86_VARIANTS
VQTWIN_TARGET_V3 std::uint64_t sse8_v3(const std::uint8_t* a, std::ptrdiff_t as, const std::uint8_t* b,
                                       std::ptrdiff_t bs, int w, int h) {
  return sse8_body(a, as, b, bs, w, h);
}
VQTWIN_TARGET_V3 std::uint64_t sse16_v3(const std::uint16_t* a, std::ptrdiff_t as, const std::uint16_t* b,
                                        std::ptrdiff_t bs, int w, int h) {
  return sse16_body(a, as, b, bs, w, h);
}
VQTWIN_TARGET_V4 std::uint64_t sse8_v4(const std::uint8_t* a, std::ptrdiff_t as, const std::uint8_t* b,
                                       std::ptrdiff_t bs, int w, int h) {
  return sse8_body(a, as, b, bs, w, h);
}
VQTWIN_TARGET_V4 std::uint64_t sse16_v4(const std::uint16_t* a, std::ptrdiff_t as, const std::uint16_t* b,
                                        std::ptrdiff_t bs, int w, int h) {
  return sse16_body(a, as, b, bs, w, h);
}
#endif

}  // namespace

SseKernels sse_kernels_for(unsigned cpu_flags) {
  SseKernels k{"portable", sse8_portable, sse16_portable};
#if VQTWIN_X86_VARIANTS
  if (!cpu::allows(cpu_flags, cpu::kAvx2)) return k;
  k = {"x86-64-v3", sse8_v3, sse16_v3};
  if (!cpu::allows(cpu_flags, cpu::kAvx512)) return k;
  k = {"x86-64-v4", sse8_v4, sse16_v4};
#endif
  return k;
}

std::uint64_t plane_sse(const SseKernels& k, const Picture& ref, const Picture& dist, int p) {
  const int w = ref.scored_width(p), h = ref.scored_height(p);
  if (w <= 0 || h <= 0) return 0;
  if (ref.format().bitdepth > 8)
    return k.sse16(ref.row<std::uint16_t>(p, 0), ref.stride(p), dist.row<std::uint16_t>(p, 0), dist.stride(p), w, h);
  return k.sse8(ref.row<std::uint8_t>(p, 0), ref.stride(p), dist.row<std::uint8_t>(p, 0), dist.stride(p), w, h);
}

}  // namespace vqtwin::psnr
