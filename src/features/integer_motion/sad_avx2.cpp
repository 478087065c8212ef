// integer motion's SAD, AVX2: 16 columns a step. The arithmetic and its bounds are sad_x86.hpp's.
#include <optional>

#include "common/isa.hpp"
#include "features/integer_motion/math.hpp"
#include "features/integer_motion/sad_x86.hpp"

#if VQTWIN_X86_VARIANTS
#include <immintrin.h>

namespace vqtwin::integer_motion::x86 {
namespace {

#define MOTION_AVX2 __attribute__((target("avx2")))

constexpr int kStep = 16;

// Two int16 taps as the int32 a madd multiplies a (low, high) pair of int16 by.
constexpr std::int32_t pair(std::int32_t low, std::int32_t high) { return std::int32_t(std::uint32_t(high) << 16 | std::uint32_t(low)); }

MOTION_AVX2 inline __m256i load(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
MOTION_AVX2 inline void store(void* p, __m256i v) { _mm256_storeu_si256(static_cast<__m256i*>(p), v); }

// Input row: d = prev - cur into the ring row; cur copied to `keep` when given.
// Returns the OR of cur's samples for deeper planes (0 for 8 bits).
template <class T>
MOTION_AVX2 unsigned ingest(const T* p, const T* c, T* keep, std::int16_t* d, int w) {
  __m256i any = _mm256_setzero_si256();
  int x = 0;
  for (; x + kStep <= w; x += kStep) {
    __m256i pv, cv;
    if constexpr (sizeof(T) == 1) {
      const __m128i c8 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c + x));
      if (keep) _mm_storeu_si128(reinterpret_cast<__m128i*>(keep + x), c8);
      pv = _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + x)));
      cv = _mm256_cvtepu8_epi16(c8);
    } else {
      pv = load(p + x);
      cv = load(c + x);
      if (keep) store(keep + x, cv);
      any = _mm256_or_si256(any, cv);
    }
    store(d + x, _mm256_sub_epi16(pv, cv));
  }
  unsigned tail = 0;
  for (; x < w; ++x) {
    d[x] = std::int16_t(int(p[x]) - int(c[x]));
    if (keep) keep[x] = c[x];
    tail |= c[x];
  }
  if constexpr (sizeof(T) == 1) return 0;
  __m128i o = _mm_or_si128(_mm256_castsi256_si128(any), _mm256_extracti128_si256(any, 1));
  o = _mm_or_si128(o, _mm_shuffle_epi32(o, 0x4e));
  o = _mm_or_si128(o, _mm_shuffle_epi32(o, 0xb1));
  const unsigned pairs = unsigned(_mm_cvtsi128_si32(o));  // two uint16 lanes per 32 bits
  return tail | ((pairs | pairs >> 16) & 0xffffu);
}

// Vertical pass of an output row from the five ring rows `d`, columns 0 .. w rounded up to a step.
// Without kHigh: v16 = V saturated to int16, and the return says whether some |V| may be 32767 or
// more (then the caller runs the kHigh pass, which stores v16 = V mod 2^16 and k16, and returns true).
template <bool kHigh>
MOTION_AVX2 bool vertical(const std::int16_t* const* d, int bpc, std::int16_t* v16, std::int16_t* k16, int w) {
  const __m256i t01 = _mm256_set1_epi32(pair(kTaps[0], kTaps[1]));
  const __m256i t2r = _mm256_set1_epi32(pair(kTaps[2], 1 << (bpc - 1)));
  const __m256i one = _mm256_set1_epi16(1);
  const __m256i half = _mm256_set1_epi32(32768);
  const __m128i shift = _mm_cvtsi32_si128(bpc);
  __m256i peak = _mm256_setzero_si256();
  for (int x = 0; x < w; x += kStep) {
    const __m256i d0 = load(d[0] + x), d1 = load(d[1] + x), d2 = load(d[2] + x), d3 = load(d[3] + x);
    const __m256i d4 = load(d[4] + x);
    const __m256i d04 = _mm256_add_epi16(d0, d4), d13 = _mm256_add_epi16(d1, d3);
    // Columns 0-3, 8-11 in `lo`, 4-7, 12-15 in `hi`; packs puts them back in order.
    __m256i lo = _mm256_add_epi32(_mm256_madd_epi16(_mm256_unpacklo_epi16(d04, d13), t01),
                                  _mm256_madd_epi16(_mm256_unpacklo_epi16(d2, one), t2r));
    __m256i hi = _mm256_add_epi32(_mm256_madd_epi16(_mm256_unpackhi_epi16(d04, d13), t01),
                                  _mm256_madd_epi16(_mm256_unpackhi_epi16(d2, one), t2r));
    lo = _mm256_sra_epi32(lo, shift);
    hi = _mm256_sra_epi32(hi, shift);
    if constexpr (kHigh) {
      // V mod 2^16, sign-extended so that the saturating pack keeps it; k = (V + 32768) >> 16.
      const __m256i vlo = _mm256_srai_epi32(_mm256_slli_epi32(lo, 16), 16);
      const __m256i vhi = _mm256_srai_epi32(_mm256_slli_epi32(hi, 16), 16);
      store(v16 + x, _mm256_packs_epi32(vlo, vhi));
      store(k16 + x, _mm256_packs_epi32(_mm256_srai_epi32(_mm256_add_epi32(lo, half), 16),
                                        _mm256_srai_epi32(_mm256_add_epi32(hi, half), 16)));
    } else {
      const __m256i v = _mm256_packs_epi32(lo, hi);
      store(v16 + x, v);
      peak = _mm256_max_epu16(peak, _mm256_abs_epi16(v));  // |-32768| reads as 32768 unsigned
    }
  }
  if constexpr (kHigh) return true;
  // Below 32767 everywhere: nothing was saturated, v16 = V and every k is zero.
  return !_mm256_testz_si256(_mm256_cmpeq_epi16(_mm256_max_epu16(peak, _mm256_set1_epi16(32767)), peak), peak);
}

// Sum f * (pairs at v + at - 2, at, at + 2) for 8 outputs at, at + 2, ..., at + 14 (sad_x86.hpp).
MOTION_AVX2 inline __m256i taps5(const std::int16_t* v, int at) {
  const __m256i a = _mm256_madd_epi16(load(v + at - 2), _mm256_set1_epi32(pair(kTaps[0], kTaps[1])));
  const __m256i b = _mm256_madd_epi16(load(v + at), _mm256_set1_epi32(pair(kTaps[2], kTaps[3])));
  const __m256i c = _mm256_madd_epi16(load(v + at + 2), _mm256_set1_epi32(pair(kTaps[4], 0)));
  return _mm256_add_epi32(_mm256_add_epi32(a, b), c);
}

// |X| of 8 outputs at, at + 2, ... (V of column i at v[i], mirrored two each side).
template <bool kHigh>
MOTION_AVX2 inline __m256i abs_x(const std::int16_t* v, const std::int16_t* k, int at) {
  __m256i xv = _mm256_srai_epi32(_mm256_add_epi32(taps5(v, at), _mm256_set1_epi32(32768)), 16);
  if constexpr (kHigh) xv = _mm256_add_epi32(xv, taps5(k, at));
  return _mm256_abs_epi32(xv);
}

// The row's sum of |X| modulo 2^32.
template <bool kHigh>
MOTION_AVX2 std::uint32_t horizontal(const std::int16_t* v, const std::int16_t* k, int w) {
  __m256i acc = _mm256_setzero_si256();
  int x = 0;
  for (; x + kStep <= w; x += kStep)
    acc = _mm256_add_epi32(acc, _mm256_add_epi32(abs_x<kHigh>(v, k, x), abs_x<kHigh>(v, k, x + 1)));
  if (x < w) {  // only the lanes of outputs before w
    const __m256i even = _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14);
    const __m256i limit = _mm256_set1_epi32(w - x);
    const __m256i odd = _mm256_add_epi32(even, _mm256_set1_epi32(1));
    acc = _mm256_add_epi32(acc, _mm256_and_si256(_mm256_cmpgt_epi32(limit, even), abs_x<kHigh>(v, k, x)));
    acc = _mm256_add_epi32(acc, _mm256_and_si256(_mm256_cmpgt_epi32(limit, odd), abs_x<kHigh>(v, k, x + 1)));
  }
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
  return std::uint32_t(_mm_cvtsi128_si32(s));
}

#define MOTION_TARGET MOTION_AVX2
#include "features/integer_motion/sad_rows_x86.inc"
#undef MOTION_TARGET

}  // namespace

MOTION_AVX2 std::uint64_t sad8_avx2(const std::uint8_t* prev, std::ptrdiff_t ps, const std::uint8_t* cur,
                                    std::ptrdiff_t cs, std::uint8_t* keep, int w, int h, SadScratch& s) {
  return *sad_planes(prev, ps, cur, cs, keep, w, h, 8, s);
}

MOTION_AVX2 std::optional<std::uint64_t> sad16_avx2(const std::uint16_t* prev, std::ptrdiff_t ps, const std::uint16_t* cur,
                                     std::ptrdiff_t cs, std::uint16_t* keep, int w, int h, int bpc, SadScratch& s) {
  return sad_planes(prev, ps, cur, cs, keep, w, h, bpc, s);
}

}  // namespace vqtwin::integer_motion::x86
#endif
