// integer ADM's row-kernel table for a set of CPU flags (dav1d's dsp-init pattern): start from the
// reference and let each instruction set override the kernels it speeds up.
#include "features/integer_adm/rows.hpp"

#include "common/cpu.hpp"
#include "common/isa.hpp"
#if VQTWIN_X86_VARIANTS
#include "features/integer_adm/rows_x86.hpp"
#endif

namespace vqtwin::integer_adm {

RowKernels kernels_for(unsigned cpu_flags) {
  RowKernels k = reference_kernels();
#if VQTWIN_X86_VARIANTS
  if (!cpu::allows(cpu_flags, cpu::kAvx2)) return k;
  x86::init_avx2(k);
  // The 512-bit kernels hand narrow rows to the AVX2 ones, so they need AVX2 allowed as well.
  if (!cpu::allows(cpu_flags, cpu::kAvx512)) return k;
  x86::init_avx512(k);
#endif
  return k;
}

}  // namespace vqtwin::integer_adm
