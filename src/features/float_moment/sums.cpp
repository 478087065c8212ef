#include "features/float_moment/sums.hpp"

#include "common/cpu.hpp"
#include "common/vector.hpp"

namespace vqtwin::float_moment {
namespace {

// 8 bits: runs of at most 32768 samples are summed in int32 (v^2 <= 65025, so a run's sum of
// squares stays below 2^31), the runs in 64 bits. Integer sums: any lane split gives the same.
constexpr int kRun8 = 32768;

VQTWIN_ALWAYS_INLINE IntegerSums sums8_body(const std::uint8_t* p, std::ptrdiff_t stride, int w, int h) {
  IntegerSums s;
  for (int y = 0; y < h; ++y) {
    const std::uint8_t* __restrict row = p + y * stride;
    for (int x0 = 0; x0 < w; x0 += kRun8) {
      const int n = w - x0 < kRun8 ? w - x0 : kRun8;
      std::int32_t r1 = 0, r2 = 0;
      for (int x = 0; x < n; ++x) {
        const std::int32_t v = std::int16_t(row[x0 + x]);
        r1 += v;
        r2 += v * v;
      }
      s.first += std::uint64_t(r1);
      s.second += std::uint64_t(r2);
    }
  }
  return s;
}

// 16-bit containers: any sample up to 65535 (v^2 < 2^32 as unsigned), 64-bit sums.
VQTWIN_ALWAYS_INLINE IntegerSums sums16_body(const std::uint16_t* p, std::ptrdiff_t stride, int w, int h) {
  IntegerSums s;
  for (int y = 0; y < h; ++y) {
    const std::uint16_t* __restrict row = p + y * stride;
    std::uint64_t r1 = 0, r2 = 0;
    std::uint32_t any = 0;
    for (int x = 0; x < w; ++x) {
      const std::uint32_t v = row[x];
      r1 += v;
      r2 += std::uint64_t(v * v);
      any |= v;
    }
    s.first += r1;
    s.second += r2;
    s.any |= any;
  }
  return s;
}

IntegerSums sums8_portable(const std::uint8_t* p, std::ptrdiff_t stride, int w, int h) {
  return sums8_body(p, stride, w, h);
}
IntegerSums sums16_portable(const std::uint16_t* p, std::ptrdiff_t stride, int w, int h) {
  return sums16_body(p, stride, w, h);
}
#if VQTWIN_X86_VARIANTS
VQTWIN_TARGET_V3 IntegerSums sums8_v3(const std::uint8_t* p, std::ptrdiff_t stride, int w, int h) {
  return sums8_body(p, stride, w, h);
}
VQTWIN_TARGET_V3 IntegerSums sums16_v3(const std::uint16_t* p, std::ptrdiff_t stride, int w, int h) {
  return sums16_body(p, stride, w, h);
}
VQTWIN_TARGET_V4 IntegerSums sums8_v4(const std::uint8_t* p, std::ptrdiff_t stride, int w, int h) {
  return sums8_body(p, stride, w, h);
}
VQTWIN_TARGET_V4 IntegerSums sums16_v4(const std::uint16_t* p, std::ptrdiff_t stride, int w, int h) {
  return sums16_body(p, stride, w, h);
}
#endif

}  // namespace

SumKernels sum_kernels_for(unsigned cpu_flags) {
  SumKernels k{"portable", sums8_portable, sums16_portable};
#if VQTWIN_X86_VARIANTS
  if (!cpu::allows(cpu_flags, cpu::kAvx2)) return k;
  k = {"x86-64-v3", sums8_v3, sums16_v3};
  if (!cpu::allows(cpu_flags, cpu::kAvx512)) return k;
  k = {"x86-64-v4", sums8_v4, sums16_v4};
#endif
  return k;
}

}  // namespace vqtwin::float_moment
