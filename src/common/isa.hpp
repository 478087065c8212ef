#pragma once
// How vqtwin builds instruction-set variants: per-function target attributes (GCC and clang both
// honour them; clang ignores `#pragma GCC target`), never ifunc or target_clones (whose resolvers
// run before main, where GCC's -fsanitize=thread binaries crash). The library itself is built for
// the x86-64 baseline; a variant's functions carry one of these attributes and are put in a kernel
// table only when cpu::flags() allows the sets they need (common/cpu.hpp).
//
// Two ways to write a variant:
//   - intrinsics, in a file per set (integer_vif/kernels_avx2.cpp, ..._avx512.cpp), every function
//     and lambda marked;
//   - one plain-C++ body compiled several times: the body is VQTWIN_ALWAYS_INLINE and each variant
//     is a marked wrapper that calls it, so the compiler vectorises the inlined body for that set
//     (lanes do exactly the scalar operations, see common/vector.hpp), or a `.inc` file included
//     once per set with VQTWIN_ISA_FN defined as the set's attribute.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define VQTWIN_X86_VARIANTS 1
// x86-64-v3 (AVX2, BMI1/2, FMA, F16C, LZCNT, MOVBE): cpu::kAvx2. No contraction happens, since the
// library is built with -ffp-contract=off (FMA instructions appear only where intrinsics ask).
#define VQTWIN_TARGET_V3 __attribute__((target("arch=x86-64-v3")))
// x86-64-v4 (v3 + AVX-512 F/CD/BW/DQ/VL): cpu::kAvx512.
#define VQTWIN_TARGET_V4 __attribute__((target("arch=x86-64-v4")))
// Hand-written intrinsics: only the sets they use.
#define VQTWIN_TARGET_AVX2 __attribute__((target("avx2")))
#else
#define VQTWIN_X86_VARIANTS 0
#endif

#define VQTWIN_ALWAYS_INLINE inline __attribute__((always_inline))
