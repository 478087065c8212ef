// integer VIF's kernel table for a set of CPU flags (dav1d's dsp-init pattern): start from the
// reference and let each instruction set override the entries it speeds up.
#include "features/integer_vif/kernels.hpp"

#include "common/cpu.hpp"
#include "common/isa.hpp"
#if VQTWIN_X86_VARIANTS
#include "features/integer_vif/kernels_x86.hpp"
#endif

namespace vqtwin::integer_vif {

KernelSet kernels_for(unsigned cpu_flags) {
  KernelSet k = reference_kernels();
#if VQTWIN_X86_VARIANTS
  if (!cpu::allows(cpu_flags, cpu::kAvx2)) return k;
  x86::init_avx2(k);
  // The 512-bit set hands its row tails to the AVX2 passes, so it needs AVX2 allowed as well.
  if (!cpu::allows(cpu_flags, cpu::kAvx512 | cpu::kAvx512Vnni)) return k;
  x86::init_avx512(k);
#endif
  return k;
}

}  // namespace vqtwin::integer_vif
