#include "features/float_motion/kernels.hpp"

#include <cmath>

namespace vqtwin::float_motion {

namespace portable {
constexpr const char* kIsaName = "portable";
#include "features/float_motion/kernels.inc"
}  // namespace portable

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define VQTWIN_FLOAT_MOTION_AVX2 1
#pragma GCC push_options
#pragma GCC target("avx2")
namespace avx2 {
constexpr const char* kIsaName = "avx2";
#include "features/float_motion/kernels.inc"
}  // namespace avx2
#pragma GCC pop_options
#endif

const Kernels& portable_kernels() { return portable::kKernels; }

const Kernels& best_kernels() {
#ifdef VQTWIN_FLOAT_MOTION_AVX2
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) return avx2::kKernels;
#endif
  return portable::kKernels;
}

}  // namespace vqtwin::float_motion
