// integer motion's 8-bit SAD, AVX-512 (F, BW). Per row, the vertical pass of the difference
// d = prev - cur gives v = (f0 (d0 + d4) + f1 (d1 + d3) + f2 d2 + 128) >> 8 (|v| <= 65280), stored
// as two int16 rows hi = v >> 8 (in [-255, 255]) and lo = v & 255, which is exactly the split the
// portable horizontal pass makes (sad_kernels.inc); the horizontal pass then multiplies int16 pairs
// (vpmaddwd) into the same int32 sums SH and SL. Every step is exact integer arithmetic, so the sum
// is the portable one's (tests/cpu_check/motion.cpp).
#include "features/integer_motion/sad_avx512.hpp"

#include <cstdlib>

#include "common/isa.hpp"
#include "features/integer_motion/math.hpp"

#if VQTWIN_X86_VARIANTS
// GCC 12's AVX-512 intrinsics start from _mm512_undefined_*() values, which -Wmaybe-uninitialized
// reports at every inlined use (a false positive; as in integer_vif's kernels_avx512.cpp).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

namespace vqtwin::integer_motion::x86 {
namespace {

#define MOTION_AVX512 __attribute__((target("avx2,avx512f,avx512bw,avx512dq,avx512vl")))

// The int16 rows live in the caller's int32/float scratch: accessed through a may_alias type.
typedef std::int16_t alias16 __attribute__((may_alias));

int reflect101(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - 2 - i : i); }

constexpr std::int32_t pair(std::int32_t lo, std::int32_t hi) {
  return std::int32_t((std::uint32_t(hi) << 16) | std::uint32_t(lo));
}

// The vertical pass of one row into hi/lo; returns zero when every v of the row is zero.
MOTION_AVX512 int vertical8(const std::uint8_t* const* p, const std::uint8_t* const* c, int w, alias16* hi,
                            alias16* lo) {
  // (d0 + d4, d1 + d3) times (f0, f1), and (d2, 1) times (f2, 128): the rounding term rides along.
  const __m512i c01 = _mm512_set1_epi32(pair(kTaps[0], kTaps[1]));
  const __m512i c2r = _mm512_set1_epi32(pair(kTaps[2], 128));
  const __m512i one = _mm512_set1_epi16(1);
  const __m512i byte = _mm512_set1_epi32(255);
  __m512i any = _mm512_setzero_si512();
  int x = 0;
  for (; x + 32 <= w; x += 32) {
    auto d = [&](int k) MOTION_AVX512 {
      const __m512i a = _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p[k] + x)));
      const __m512i b = _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(c[k] + x)));
      return _mm512_sub_epi16(a, b);
    };
    const __m512i d04 = _mm512_add_epi16(d(0), d(4));  // |.| <= 510
    const __m512i d13 = _mm512_add_epi16(d(1), d(3));
    const __m512i d2 = d(2);
    // acc + 128 in int32, columns permuted within 128-bit lanes by the unpacks; the packs below undo it.
    const __m512i a_lo = _mm512_add_epi32(_mm512_madd_epi16(_mm512_unpacklo_epi16(d04, d13), c01),
                                          _mm512_madd_epi16(_mm512_unpacklo_epi16(d2, one), c2r));
    const __m512i a_hi = _mm512_add_epi32(_mm512_madd_epi16(_mm512_unpackhi_epi16(d04, d13), c01),
                                          _mm512_madd_epi16(_mm512_unpackhi_epi16(d2, one), c2r));
    // hi = ((acc + 128) >> 8) >> 8 = (acc + 128) >> 16, lo = ((acc + 128) >> 8) & 255; both fit int16.
    const __m512i h16 = _mm512_packs_epi32(_mm512_srai_epi32(a_lo, 16), _mm512_srai_epi32(a_hi, 16));
    const __m512i l16 = _mm512_packs_epi32(_mm512_and_si512(_mm512_srai_epi32(a_lo, 8), byte),
                                           _mm512_and_si512(_mm512_srai_epi32(a_hi, 8), byte));
    _mm512_storeu_si512(hi + x, h16);
    _mm512_storeu_si512(lo + x, l16);
    any = _mm512_or_si512(any, _mm512_or_si512(h16, l16));
  }
  int tail = 0;
  for (; x < w; ++x) {
    auto d = [&](int k) { return std::int32_t(p[k][x]) - std::int32_t(c[k][x]); };
    const std::int32_t v = (kTaps[0] * (d(0) + d(4)) + kTaps[1] * (d(1) + d(3)) + kTaps[2] * d(2) + 128) >> 8;
    hi[x] = std::int16_t(v >> 8);
    lo[x] = std::int16_t(v & 255);
    tail |= v;
  }
  return tail | (_mm512_test_epi32_mask(any, any) != 0);
}

// The horizontal pass over hi/lo (two mirrored samples each side): sum of |xv| in 32 bits,
// xv = (SH + ((SL + 2^15) >> 8)) >> 8 as in sad_kernels.inc.
MOTION_AVX512 std::uint32_t horizontal8(const alias16* hi, const alias16* lo, int w) {
  // One load at offsets 0, 2, 4 from column x - 2 serves the even outputs (taps t, t+1) and the odd
  // ones (taps t-1, t); a missing tap has coefficient 0.
  const __m512i e0 = _mm512_set1_epi32(pair(kTaps[0], kTaps[1]));
  const __m512i e2 = _mm512_set1_epi32(pair(kTaps[2], kTaps[3]));
  const __m512i e4 = _mm512_set1_epi32(pair(kTaps[4], 0));
  const __m512i o0 = _mm512_set1_epi32(pair(0, kTaps[0]));
  const __m512i o2 = _mm512_set1_epi32(pair(kTaps[1], kTaps[2]));
  const __m512i o4 = _mm512_set1_epi32(pair(kTaps[3], kTaps[4]));
  const __m512i half = _mm512_set1_epi32(32768);
  __m512i sum = _mm512_setzero_si512();
  auto filter = [&](const alias16* row, int x, __m512i& even, __m512i& odd) MOTION_AVX512 {
    const __m512i v0 = _mm512_loadu_si512(row + x - 2);
    const __m512i v2 = _mm512_loadu_si512(row + x);
    const __m512i v4 = _mm512_loadu_si512(row + x + 2);
    even = _mm512_add_epi32(_mm512_add_epi32(_mm512_madd_epi16(v0, e0), _mm512_madd_epi16(v2, e2)),
                            _mm512_madd_epi16(v4, e4));
    odd = _mm512_add_epi32(_mm512_add_epi32(_mm512_madd_epi16(v0, o0), _mm512_madd_epi16(v2, o2)),
                           _mm512_madd_epi16(v4, o4));
  };
  auto xv = [&](__m512i sh, __m512i sl) MOTION_AVX512 {
    return _mm512_abs_epi32(
        _mm512_srai_epi32(_mm512_add_epi32(sh, _mm512_srai_epi32(_mm512_add_epi32(sl, half), 8)), 8));
  };
  int x = 0;
  for (; x + 32 <= w; x += 32) {  // reads columns x - 2 .. x + 33 <= w + 1
    __m512i she, sho, sle, slo;
    filter(hi, x, she, sho);
    filter(lo, x, sle, slo);
    sum = _mm512_add_epi32(sum, _mm512_add_epi32(xv(she, sle), xv(sho, slo)));
  }
  // Lane sums wrap mod 2^32 like the portable 32-bit sum, so the total is the same.
  std::uint32_t total = std::uint32_t(_mm512_reduce_add_epi32(sum));
  for (; x < w; ++x) {
    std::int32_t sh = 0, sl = 0;
    for (int k = 0; k < 5; ++k) {
      sh += kTaps[k] * std::int32_t(hi[x - 2 + k]);
      sl += kTaps[k] * std::int32_t(lo[x - 2 + k]);
    }
    const std::int32_t v = (sh + ((sl + 32768) >> 8)) >> 8;
    total += std::uint32_t(v < 0 ? -v : v);
  }
  return total;
}

}  // namespace

MOTION_AVX512 std::uint64_t sad8_avx512(const std::uint8_t* prev, std::ptrdiff_t ps, const std::uint8_t* cur,
                                        std::ptrdiff_t cs, int w, int h, int /*bpc: 8*/, std::int32_t* row,
                                        float* /*hl*/) {
  // `row` holds w + 4 int32: room for the two int16 rows of w + 4 samples (column 0 at index 2).
  alias16* hi = reinterpret_cast<alias16*>(row) + 2;
  alias16* lo = hi + (w + 4);
  std::uint64_t sad = 0;
  for (int y = 0; y < h; ++y) {
    const std::uint8_t* p[5];
    const std::uint8_t* c[5];
    for (int k = 0; k < 5; ++k) {
      const int r = reflect101(y - 2 + k, h);
      p[k] = prev + r * ps;
      c[k] = cur + r * cs;
    }
    if (!vertical8(p, c, w, hi, lo)) continue;  // an all-zero row adds zero
    for (alias16* q : {hi, lo}) {
      q[-1] = q[1];
      q[-2] = q[2];
      q[w] = q[w - 2];
      q[w + 1] = q[w - 3];
    }
    sad += horizontal8(hi, lo, w);
  }
  return sad;
}

}  // namespace vqtwin::integer_motion::x86

#endif
