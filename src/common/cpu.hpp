#pragma once
// The one source of CPU instruction-set flags, and the mask that turns variants off.
//
// Every kernel table (integer_vif/kernels.hpp, integer_adm/rows.hpp, ...) is filled by one init
// function that sets the portable reference and then lets each instruction set override entries
// when cpu::flags() allows it (dav1d's *_dsp_init pattern). All variants compute the same bits, so a
// mask changes speed only, never a number: that is also what makes forcing the reference safe.
//
// Masks, as libvmaf's --cpumask (bits set DISABLE instruction sets; same bit meanings as libvmaf's
// x86 cpu.h, so a libvmaf mask means the same here):
//   - the environment variable VQTWIN_CPU_MASK (read once per process; decimal or 0x hex);
//   - RunConfig::cpumask (the CLI's --cpumask), for the duration of that run (RunMask).
// A variant runs only if every instruction set it uses is allowed (the AVX-512 sets call AVX2 code
// for their row tails, so masking AVX2 turns them off too).
#include <string>

namespace vqtwin::cpu {

// libvmaf's bits 0-5. vqtwin has no variants at the SSE levels: its reference is built for the
// x86-64 baseline (SSE2), so bits 0-2 are accepted and change nothing.
inline constexpr unsigned kSse2 = 1u << 0;
inline constexpr unsigned kSsse3 = 1u << 1;
inline constexpr unsigned kSse41 = 1u << 2;
// AVX2 at the x86-64-v3 level: AVX2, BMI1, BMI2, FMA, F16C, LZCNT, MOVBE, with the OS saving YMM.
inline constexpr unsigned kAvx2 = 1u << 3;
// AVX-512 F, CD, BW, DQ, VL (x86-64-v4), with the OS saving ZMM and the mask registers.
inline constexpr unsigned kAvx512 = 1u << 4;
// libvmaf's AVX512ICL: the above plus IFMA, VBMI, VBMI2, GFNI, VAES, VPCLMULQDQ, VNNI, BITALG,
// VPOPCNTDQ. No vqtwin variant needs all of these today; detected so that the bit means the same.
inline constexpr unsigned kAvx512Icl = 1u << 5;
// vqtwin's own bit (libvmaf has none): AVX-512 VNNI on top of kAvx512 (Cascade Lake and later),
// which integer VIF's 512-bit set uses. ICL implies it.
inline constexpr unsigned kAvx512Vnni = 1u << 6;
inline constexpr unsigned kAllKnown = (1u << 7) - 1;

// What this CPU and OS can run (probed once; 0 off x86-64).
unsigned detected();
// detected(), less VQTWIN_CPU_MASK and the masks of the runs in progress. Throws vqtwin::Error
// when VQTWIN_CPU_MASK is not a number.
unsigned flags();
// Whether `flags` allows every set in `needed`.
constexpr bool allows(unsigned flags, unsigned needed) { return (flags & needed) == needed; }
// "avx2 avx512 ..." (or "none") for the sets in `flags`.
std::string names(unsigned flags);
// Parses a mask as libvmaf's CLI does (strtoul, base 0: decimal, 0x hex, 0 octal; a negative
// number wraps, so -1 masks everything). Throws vqtwin::Error naming `what` on anything else.
unsigned parse_mask(const std::string& text, const std::string& what);

// A run's mask: while an instance lives, flags() leaves out `mask` in every thread (variants are
// bit-identical, so two runs with different masks at once only lose each other some speed).
class RunMask {
 public:
  explicit RunMask(unsigned mask);
  ~RunMask();
  RunMask(const RunMask&) = delete;
  RunMask& operator=(const RunMask&) = delete;

 private:
  unsigned mask_;
};

}  // namespace vqtwin::cpu
