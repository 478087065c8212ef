// integer motion's SAD, AVX-512 (F, BW, DQ, VL and VNNI): 32 columns a step. The arithmetic and its
// bounds are sad_x86.hpp's; this is the AVX2 code of sad_avx2.cpp twice as wide (pack/unpack work within
// 128-bit lanes in both, so the column orders are the same), with mask registers for the last columns.
// vpdpwssd (multiply-add-accumulate) is exactly madd + add, both modulo 2^32 (no pair is
// (-32768, -32768): every tap is positive).
#include <optional>

#include "common/isa.hpp"
#include "features/integer_motion/math.hpp"
#include "features/integer_motion/sad_x86.hpp"

#if VQTWIN_X86_VARIANTS
// GCC 12's AVX-512 intrinsics start from _mm512_undefined_*() values, which -Wmaybe-uninitialized
// and -Wuninitialized report at every inlined use (false positives).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <immintrin.h>

namespace vqtwin::integer_motion::x86 {
namespace {

#define MOTION_AVX512 __attribute__((target("avx2,avx512f,avx512bw,avx512dq,avx512vl,avx512vnni")))

constexpr int kStep = 32;

// Two int16 taps as the int32 a madd multiplies a (low, high) pair of int16 by.
constexpr std::int32_t pair(std::int32_t low, std::int32_t high) { return std::int32_t(std::uint32_t(high) << 16 | std::uint32_t(low)); }

// Input row: d = prev - cur into the ring row; cur copied to `keep` when given.
// Returns the OR of cur's samples for deeper planes (0 for 8 bits).
template <class T>
MOTION_AVX512 unsigned ingest(const T* p, const T* c, T* keep, std::int16_t* d, int w) {
  __m512i any = _mm512_setzero_si512();
  int x = 0;
  for (; x + kStep <= w; x += kStep) {
    __m512i pv, cv;
    if constexpr (sizeof(T) == 1) {
      const __m256i c8 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(c + x));
      if (keep) _mm256_storeu_si256(reinterpret_cast<__m256i*>(keep + x), c8);
      pv = _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + x)));
      cv = _mm512_cvtepu8_epi16(c8);
    } else {
      pv = _mm512_loadu_si512(p + x);
      cv = _mm512_loadu_si512(c + x);
      if (keep) _mm512_storeu_si512(keep + x, cv);
      any = _mm512_or_si512(any, cv);
    }
    _mm512_storeu_si512(d + x, _mm512_sub_epi16(pv, cv));
  }
  unsigned tail = 0;
  for (; x < w; ++x) {
    d[x] = std::int16_t(int(p[x]) - int(c[x]));
    if (keep) keep[x] = c[x];
    tail |= c[x];
  }
  if constexpr (sizeof(T) == 1) return 0;
  const unsigned pairs = unsigned(_mm512_reduce_or_epi32(any));  // two uint16 lanes per 32 bits
  return tail | ((pairs | pairs >> 16) & 0xffffu);
}

// Vertical pass of an output row from the five ring rows `d`, columns 0 .. w rounded up to a step.
// Without kHigh: v16 = V saturated to int16, and the return says whether some |V| may be 32767 or
// more (then the caller runs the kHigh pass, which stores v16 = V mod 2^16 and k16, and returns true).
template <bool kHigh>
MOTION_AVX512 bool vertical(const std::int16_t* const* d, int bpc, std::int16_t* v16, std::int16_t* k16, int w) {
  const __m512i t01 = _mm512_set1_epi32(pair(kTaps[0], kTaps[1]));
  const __m512i t2r = _mm512_set1_epi32(pair(kTaps[2], 1 << (bpc - 1)));
  const __m512i one = _mm512_set1_epi16(1);
  const __m512i half = _mm512_set1_epi32(32768);
  const __m128i shift = _mm_cvtsi32_si128(bpc);
  __m512i peak = _mm512_setzero_si512();
  for (int x = 0; x < w; x += kStep) {
    const __m512i d0 = _mm512_loadu_si512(d[0] + x), d1 = _mm512_loadu_si512(d[1] + x);
    const __m512i d2 = _mm512_loadu_si512(d[2] + x), d3 = _mm512_loadu_si512(d[3] + x);
    const __m512i d4 = _mm512_loadu_si512(d[4] + x);
    const __m512i d04 = _mm512_add_epi16(d0, d4), d13 = _mm512_add_epi16(d1, d3);
    // Columns 0-3, 8-11, ... in `lo`, 4-7, 12-15, ... in `hi`; packs puts them back in order.
    __m512i lo = _mm512_dpwssd_epi32(_mm512_madd_epi16(_mm512_unpacklo_epi16(d04, d13), t01),
                                     _mm512_unpacklo_epi16(d2, one), t2r);
    __m512i hi = _mm512_dpwssd_epi32(_mm512_madd_epi16(_mm512_unpackhi_epi16(d04, d13), t01),
                                     _mm512_unpackhi_epi16(d2, one), t2r);
    lo = _mm512_sra_epi32(lo, shift);
    hi = _mm512_sra_epi32(hi, shift);
    if constexpr (kHigh) {
      // V mod 2^16, sign-extended so that the saturating pack keeps it; k = (V + 32768) >> 16.
      const __m512i vlo = _mm512_srai_epi32(_mm512_slli_epi32(lo, 16), 16);
      const __m512i vhi = _mm512_srai_epi32(_mm512_slli_epi32(hi, 16), 16);
      _mm512_storeu_si512(v16 + x, _mm512_packs_epi32(vlo, vhi));
      _mm512_storeu_si512(k16 + x, _mm512_packs_epi32(_mm512_srai_epi32(_mm512_add_epi32(lo, half), 16),
                                                      _mm512_srai_epi32(_mm512_add_epi32(hi, half), 16)));
    } else {
      const __m512i v = _mm512_packs_epi32(lo, hi);
      _mm512_storeu_si512(v16 + x, v);
      peak = _mm512_max_epu16(peak, _mm512_abs_epi16(v));  // |-32768| reads as 32768 unsigned
    }
  }
  if constexpr (kHigh) return true;
  // Below 32767 everywhere: nothing was saturated, v16 = V and every k is zero.
  return _mm512_cmpge_epu16_mask(peak, _mm512_set1_epi16(32767)) != 0;
}

// bias + sum f * (pairs at v + at - 2, at, at + 2) for 16 outputs at, at + 2, ..., at + 30 (sad_x86.hpp).
MOTION_AVX512 inline __m512i taps5(__m512i bias, const std::int16_t* v, int at) {
  const __m512i t01 = _mm512_set1_epi32(pair(kTaps[0], kTaps[1]));
  const __m512i t21 = _mm512_set1_epi32(pair(kTaps[2], kTaps[3]));
  const __m512i t40 = _mm512_set1_epi32(pair(kTaps[4], 0));
  __m512i a = _mm512_dpwssd_epi32(bias, _mm512_loadu_si512(v + at - 2), t01);
  a = _mm512_dpwssd_epi32(a, _mm512_loadu_si512(v + at), t21);
  return _mm512_dpwssd_epi32(a, _mm512_loadu_si512(v + at + 2), t40);
}

// |X| of 16 outputs at, at + 2, ... (V of column i at v[i], mirrored two each side).
template <bool kHigh>
MOTION_AVX512 inline __m512i abs_x(const std::int16_t* v, const std::int16_t* k, int at) {
  __m512i xv = _mm512_srai_epi32(taps5(_mm512_set1_epi32(32768), v, at), 16);
  if constexpr (kHigh) xv = taps5(xv, k, at);
  return _mm512_abs_epi32(xv);
}

// The row's sum of |X| modulo 2^32.
template <bool kHigh>
MOTION_AVX512 std::uint32_t horizontal(const std::int16_t* v, const std::int16_t* k, int w) {
  __m512i acc = _mm512_setzero_si512();
  int x = 0;
  for (; x + kStep <= w; x += kStep)
    acc = _mm512_add_epi32(acc, _mm512_add_epi32(abs_x<kHigh>(v, k, x), abs_x<kHigh>(v, k, x + 1)));
  if (x < w) {  // outputs x + 2j (j < ceil(left / 2)) and x + 2j + 1 (j < left / 2)
    const int left = w - x;
    const __mmask16 even = __mmask16((1u << ((left + 1) / 2)) - 1), odd = __mmask16((1u << (left / 2)) - 1);
    acc = _mm512_mask_add_epi32(acc, even, acc, abs_x<kHigh>(v, k, x));
    acc = _mm512_mask_add_epi32(acc, odd, acc, abs_x<kHigh>(v, k, x + 1));
  }
  return std::uint32_t(_mm512_reduce_add_epi32(acc));
}

#define MOTION_TARGET MOTION_AVX512
#include "features/integer_motion/sad_rows_x86.inc"
#undef MOTION_TARGET

}  // namespace

MOTION_AVX512 std::uint64_t sad8_avx512(const std::uint8_t* prev, std::ptrdiff_t ps, const std::uint8_t* cur,
                                        std::ptrdiff_t cs, std::uint8_t* keep, int w, int h, SadScratch& s) {
  return *sad_planes(prev, ps, cur, cs, keep, w, h, 8, s);
}

MOTION_AVX512 std::optional<std::uint64_t> sad16_avx512(const std::uint16_t* prev, std::ptrdiff_t ps, const std::uint16_t* cur,
                                     std::ptrdiff_t cs, std::uint16_t* keep, int w, int h, int bpc, SadScratch& s) {
  return sad_planes(prev, ps, cur, cs, keep, w, h, bpc, s);
}

}  // namespace vqtwin::integer_motion::x86
#endif
