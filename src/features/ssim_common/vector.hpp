#pragma once
// Hot loops of the SSIM features are written with GCC vector extensions, one lane per output
// sample, every lane doing exactly the scalar sequence of IEEE operations of its sample (no
// reassociation, no FMA: the build has -ffp-contract=off). Lanes are therefore bit-identical to the
// scalar reference whatever the vector width, so such a function may be compiled several times for
// wider instruction sets and picked at load time (GCC target_clones / ifunc) while the reference
// build itself stays at the baseline ISA. The unit tests compare every such function with a plain
// scalar implementation.
// VQTWIN_NO_CLONES builds only the baseline version (to test it on a machine that has the wider ones).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && !defined(VQTWIN_NO_CLONES)
#define VQTWIN_VECTOR_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define VQTWIN_VECTOR_CLONES
#endif

#define VQTWIN_ALWAYS_INLINE inline __attribute__((always_inline))

// "The iterations of the next loop are independent" (the output row never overlaps an input row),
// so the vectoriser need not prove it from the pointers.
#if defined(__clang__)
#define VQTWIN_IVDEP _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define VQTWIN_IVDEP _Pragma("GCC ivdep")
#else
#define VQTWIN_IVDEP
#endif

#if defined(__SSE__)
#include <xmmintrin.h>
#endif
#include <math.h>

namespace vqtwin {

// p[i] = sqrtf(p[i]) for i < n. The packed instruction is the same correctly rounded IEEE square
// root as the scalar one; GCC does not vectorise sqrtf itself while it may have to set errno.
VQTWIN_ALWAYS_INLINE void vector_sqrt(float* p, int n) {
  int i = 0;
#if defined(__SSE__)
  for (; i + 4 <= n; i += 4) _mm_storeu_ps(p + i, _mm_sqrt_ps(_mm_loadu_ps(p + i)));
#endif
  for (; i < n; ++i) p[i] = sqrtf(p[i]);
}

}  // namespace vqtwin
