// float_motion's row-kernel table for a set of CPU flags: the same source (kernels.inc) built for
// the baseline and for AVX2, the AVX2 build put in the table when cpu::flags() allows it.
#include "features/float_motion/kernels.hpp"

#include <cmath>

#include "common/cpu.hpp"
#include "common/isa.hpp"
#include "common/luma_float.hpp"

namespace vqtwin::float_motion {

namespace portable {
#define VQTWIN_ISA_FN
constexpr const char* kIsaName = "portable";
#include "features/float_motion/kernels.inc"
#undef VQTWIN_ISA_FN
}  // namespace portable

#if VQTWIN_X86_VARIANTS
namespace avx2 {
#define VQTWIN_ISA_FN VQTWIN_TARGET_AVX2
constexpr const char* kIsaName = "avx2";
#include "features/float_motion/kernels.inc"
#undef VQTWIN_ISA_FN
}  // namespace avx2
#endif

Kernels kernels_for(unsigned cpu_flags) {
  Kernels k = portable::kKernels;
#if VQTWIN_X86_VARIANTS
  if (cpu::allows(cpu_flags, cpu::kAvx2)) k = avx2::kKernels;
#endif
  return k;
}

}  // namespace vqtwin::float_motion
