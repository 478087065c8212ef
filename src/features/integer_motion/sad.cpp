#include "features/integer_motion/sad.hpp"

#include "features/integer_motion/math.hpp"

namespace vqtwin::integer_motion {

namespace portable {
#include "features/integer_motion/sad_kernels.inc"
const SadKernels kKernels = {"portable", sad8, sad16};
}  // namespace portable

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define VQTWIN_INTEGER_MOTION_AVX2 1
#pragma GCC push_options
#pragma GCC target("avx2")
namespace avx2 {
#include "features/integer_motion/sad_kernels.inc"
const SadKernels kKernels = {"avx2", sad8, sad16};
}  // namespace avx2
#pragma GCC pop_options
#endif

const SadKernels& portable_sad_kernels() { return portable::kKernels; }

const SadKernels& best_sad_kernels() {
#ifdef VQTWIN_INTEGER_MOTION_AVX2
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) return avx2::kKernels;
#endif
  return portable::kKernels;
}

DiffBlurSad::DiffBlurSad(int w, int h, int bpc, const SadKernels& kernels)
    : k_(&kernels), w_(w), h_(h), bpc_(bpc), row_(std::size_t(w) + 4) {}

std::uint64_t DiffBlurSad::operator()(const std::uint8_t* prev, std::ptrdiff_t prev_stride, const std::uint8_t* cur,
                                      std::ptrdiff_t cur_stride) {
  return k_->sad8(prev, prev_stride, cur, cur_stride, w_, h_, 8, row_.data());
}

std::uint64_t DiffBlurSad::operator()(const std::uint16_t* prev, std::ptrdiff_t prev_stride,
                                      const std::uint16_t* cur, std::ptrdiff_t cur_stride, bool out_of_range) {
  return k_->sad16(prev, prev_stride, cur, cur_stride, w_, h_, bpc_, out_of_range, row_.data());
}

}  // namespace vqtwin::integer_motion
