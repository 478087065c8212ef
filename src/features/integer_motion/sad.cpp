#include "features/integer_motion/sad.hpp"

#include "common/cpu.hpp"
#include "common/isa.hpp"
#include "features/integer_motion/math.hpp"
#include "features/integer_motion/sad_avx512.hpp"

namespace vqtwin::integer_motion {

namespace portable {
#define VQTWIN_ISA_FN
#include "features/integer_motion/sad_kernels.inc"
#undef VQTWIN_ISA_FN
const SadKernels kKernels = {"portable", sad8, sad16};
}  // namespace portable

#if VQTWIN_X86_VARIANTS
namespace avx2 {
#define VQTWIN_ISA_FN VQTWIN_TARGET_AVX2
#include "features/integer_motion/sad_kernels.inc"
#undef VQTWIN_ISA_FN
const SadKernels kKernels = {"avx2", sad8, sad16};
}  // namespace avx2
// x86-64-v4: the same loops 16 lanes wide (integer arithmetic, so the same sums).
namespace v4 {
#define VQTWIN_ISA_FN VQTWIN_TARGET_V4
#include "features/integer_motion/sad_kernels.inc"
#undef VQTWIN_ISA_FN
const SadKernels kKernels = {"x86-64-v4", sad8, sad16};
// AVX-512 F/BW (within x86-64-v4): the 8-bit SAD with explicit multiply-adds (sad_avx512.cpp).
const SadKernels kAvx512 = {"avx512", x86::sad8_avx512, sad16};
}  // namespace v4
#endif

SadKernels sad_kernels_for(unsigned cpu_flags) {
#if VQTWIN_X86_VARIANTS
  if (cpu::allows(cpu_flags, cpu::kAvx2 | cpu::kAvx512)) return v4::kAvx512;
  if (cpu::allows(cpu_flags, cpu::kAvx2)) return avx2::kKernels;
#endif
  return portable::kKernels;
}

DiffBlurSad::DiffBlurSad(int w, int h, int bpc, const SadKernels& kernels)
    : k_(kernels), w_(w), h_(h), bpc_(bpc), row_(std::size_t(w) + 4), hl_(2 * (std::size_t(w) + 4)) {}

std::uint64_t DiffBlurSad::operator()(const std::uint8_t* prev, std::ptrdiff_t prev_stride, const std::uint8_t* cur,
                                      std::ptrdiff_t cur_stride) {
  return k_.sad8(prev, prev_stride, cur, cur_stride, w_, h_, 8, row_.data(), hl_.data());
}

std::uint64_t DiffBlurSad::operator()(const std::uint16_t* prev, std::ptrdiff_t prev_stride,
                                      const std::uint16_t* cur, std::ptrdiff_t cur_stride, bool out_of_range) {
  return k_.sad16(prev, prev_stride, cur, cur_stride, w_, h_, bpc_, out_of_range, row_.data(), hl_.data());
}

}  // namespace vqtwin::integer_motion
