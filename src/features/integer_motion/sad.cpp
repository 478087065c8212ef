#include "features/integer_motion/sad.hpp"

#include <optional>

#include "common/cpu.hpp"
#include "common/isa.hpp"
#include "features/integer_motion/math.hpp"
#include "features/integer_motion/sad_x86.hpp"

namespace vqtwin::integer_motion {

SadScratch::SadScratch(int w)
    : row(std::size_t(w) + 4),
      hl(2 * (std::size_t(w) + 4)),
      ring_stride(w + 64),
      ring(8 * std::size_t(ring_stride)),
      v16(std::size_t(w) + kPad + 96),
      k16(v16.size()) {}

namespace portable {
#define VQTWIN_ISA_FN
#include "features/integer_motion/sad_kernels.inc"
#undef VQTWIN_ISA_FN
const SadKernels kKernels = {"portable", sad8, sad16};
}  // namespace portable

#if VQTWIN_X86_VARIANTS
// The generic loops built for AVX2 take the planes the vector kernels do not (sad_x86.hpp).
namespace avx2 {
#define VQTWIN_ISA_FN VQTWIN_TARGET_V3
#include "features/integer_motion/sad_kernels.inc"
#undef VQTWIN_ISA_FN
// The vector kernel unless prev holds samples of 2^bpc or more, the planes are deeper than it takes, or it
// meets such a sample in cur; then the generic loops (which copy cur again and note its range).
template <auto kVector>
std::uint64_t sad16_any(const std::uint16_t* prev, std::ptrdiff_t ps, const std::uint16_t* cur, std::ptrdiff_t cs,
                        std::uint16_t* keep, int w, int h, int bpc, bool prev_out_of_range, bool* cur_out_of_range,
                        SadScratch& s) {
  if (bpc <= x86::kMaxVectorBits && !prev_out_of_range)
    if (const std::optional<std::uint64_t> v = kVector(prev, ps, cur, cs, keep, w, h, bpc, s)) {
      if (cur_out_of_range) *cur_out_of_range = false;
      return *v;
    }
  return sad16(prev, ps, cur, cs, keep, w, h, bpc, prev_out_of_range, cur_out_of_range, s);
}
const SadKernels kKernels = {"avx2", x86::sad8_avx2, sad16_any<x86::sad16_avx2>};
const SadKernels kKernels512 = {"avx512", x86::sad8_avx512, sad16_any<x86::sad16_avx512>};
}  // namespace avx2
#endif

SadKernels sad_kernels_for(unsigned cpu_flags) {
#if VQTWIN_X86_VARIANTS
  if (cpu::allows(cpu_flags, cpu::kAvx2 | cpu::kAvx512 | cpu::kAvx512Vnni)) return avx2::kKernels512;
  if (cpu::allows(cpu_flags, cpu::kAvx2)) return avx2::kKernels;
#endif
  return portable::kKernels;
}

DiffBlurSad::DiffBlurSad(int w, int h, int bpc, const SadKernels& kernels)
    : k_(kernels), w_(w), h_(h), bpc_(bpc), s_(w) {}

std::uint64_t DiffBlurSad::operator()(const std::uint8_t* prev, std::ptrdiff_t prev_stride, const std::uint8_t* cur,
                                      std::ptrdiff_t cur_stride, std::uint8_t* keep) {
  return k_.sad8(prev, prev_stride, cur, cur_stride, keep, w_, h_, s_);
}

std::uint64_t DiffBlurSad::operator()(const std::uint16_t* prev, std::ptrdiff_t prev_stride,
                                      const std::uint16_t* cur, std::ptrdiff_t cur_stride, bool prev_out_of_range,
                                      std::uint16_t* keep, bool* cur_out_of_range) {
  return k_.sad16(prev, prev_stride, cur, cur_stride, keep, w_, h_, bpc_, prev_out_of_range, cur_out_of_range, s_);
}

}  // namespace vqtwin::integer_motion
