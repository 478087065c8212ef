#pragma once
// Hot loops written as plain scalar code that the compiler vectorises, one lane per output sample,
// every lane doing exactly the scalar sequence of IEEE operations of its sample (no reassociation,
// no FMA: the build has -ffp-contract=off). Lanes are therefore bit-identical to the scalar
// reference whatever the vector width, so such a loop may be built for several instruction sets
// (common/isa.hpp: an always-inline body, one marked wrapper per set) and the build chosen at run
// time while the reference stays at the baseline ISA. tests/unit compares each portable build with
// a plain scalar implementation, tests/cpu_check every other build with the portable one.
#include "common/isa.hpp"

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
