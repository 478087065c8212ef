// integer ADM row kernels, AVX-512 (F, DQ, VL, CD, BW): what the scale 1-3 angle test lacks in AVX2,
// an int64 -> float conversion, so the int64 moments are rounded exactly as the scalar code rounds
// them, for every magnitude (no scalar fallback); and the scale-0 DWT, CSF and masking 16 or 32
// columns wide. Rows narrower than a step go to the AVX2 kernels (rows_x86.hpp), so this set needs
// AVX2 allowed as well (rows.cpp). Every function and lambda is marked with the set's target.
#include <array>
#include <initializer_list>
#include <cmath>
#include <cstring>

#include "common/isa.hpp"
#include "features/integer_adm/dwt.hpp"
#include "features/integer_adm/math.hpp"
#include "features/integer_adm/rows_x86.hpp"

#if VQTWIN_X86_VARIANTS
#include <immintrin.h>

// GCC 12's AVX-512 headers start some intrinsics from _mm512_undefined_*(), which it then flags.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

#define ADM_AVX512 __attribute__((target("avx2,avx512f,avx512dq,avx512vl,avx512cd,avx512bw")))

namespace vqtwin::integer_adm::x86 {
namespace {

// decouple_scale123 on 8 columns: the int64 steps get AVX-512's native 64-bit shifts, min/max and
// the int64 -> float conversion of the angle test's moments (exact for every magnitude).

// p * q + r * s of int32 values held in int64 lanes (wrapping like the scalar int64 sum), rounded to
// float once (int64 -> float) and widened exactly to double.
ADM_AVX512 inline __m512d moment_through_float(__m512i p, __m512i q, __m512i r, __m512i s) {
  const __m512i v = _mm512_add_epi64(_mm512_mul_epi32(p, q), _mm512_mul_epi32(r, s));
  return _mm512_cvtps_pd(_mm512_cvtepi64_ps(v));
}

// angle_within_1deg on 8 lanes, in the scalar rule's order.
ADM_AVX512 inline __mmask8 angle8(__m256i oh, __m256i ov, __m256i th, __m256i tv) {
  const __m512i a = _mm512_cvtepi32_epi64(oh), b = _mm512_cvtepi32_epi64(ov);
  const __m512i c = _mm512_cvtepi32_epi64(th), e = _mm512_cvtepi32_epi64(tv);
  const __m512d scale = _mm512_set1_pd(1.0 / 4096.0);
  const __m512d x = _mm512_mul_pd(moment_through_float(a, c, b, e), scale);
  const __m512d om = _mm512_mul_pd(moment_through_float(a, a, b, b), scale);
  const __m512d tm = _mm512_mul_pd(moment_through_float(c, c, e, e), scale);
  const __m512d rhs = _mm512_mul_pd(_mm512_mul_pd(_mm512_set1_pd(double(kCos1DegSq)), om), tm);
  return _mm512_cmp_pd_mask(x, _mm512_setzero_pd(), _CMP_GE_OQ) &
         _mm512_cmp_pd_mask(_mm512_mul_pd(x, x), rhs, _CMP_GE_OQ);
}

ADM_AVX512 inline __m256i ld(const int32_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }

ADM_AVX512 inline void decouple8_123(__m256i o, __m256i t, __mmask8 angle, __m512d egl, int32_t* rst_out,
                                     int32_t* q_out) {
  const __m512i zero = _mm512_setzero_si512();
  const __m512i o64 = _mm512_cvtepi32_epi64(o), t64 = _mm512_cvtepi32_epi64(t);
  const __m256i m = _mm256_abs_epi32(o);  // |o| as uint32 (2^31 for INT_MIN)
  // e = max(17 - clz(m), 0); the 15-bit index (m + 2^(e-1)) >> e fits uint32 (m <= 2^31, e <= 17).
  const __m256i e = _mm256_max_epi32(_mm256_sub_epi32(_mm256_set1_epi32(17), _mm256_lzcnt_epi32(m)),
                                     _mm256_setzero_si256());
  const __m256i m_round = _mm256_srli_epi32(_mm256_sllv_epi32(_mm256_set1_epi32(1), e), 1);
  const __m256i idx = _mm256_srlv_epi32(_mm256_add_epi32(m, m_round), e);
  // DIV[idx] = floor(2^30 / idx), exact from the double quotient (see reciprocal8).
  const __m256i div = _mm512_cvttpd_epi32(_mm512_div_pd(_mm512_set1_pd(1073741824.0), _mm512_cvtepi32_pd(idx)));
  const __m512i e64 = _mm512_cvtepu32_epi64(e);
  __m512i prod = _mm512_mul_epi32(_mm512_cvtepu32_epi64(div), t64);
  const __mmask8 o_neg = _mm512_cmplt_epi64_mask(o64, zero), o_zero = _mm512_cmpeq_epi64_mask(o64, zero);
  prod = _mm512_mask_sub_epi64(prod, o_neg, zero, prod);
  const __m512i sum = _mm512_add_epi64(prod, _mm512_sllv_epi64(_mm512_set1_epi64(int64_t(1) << 14), e64));
  const __m512i full = _mm512_set1_epi64(32768);
  __m512i k = _mm512_srav_epi64(sum, _mm512_add_epi64(e64, _mm512_set1_epi64(15)));
  k = _mm512_mask_mov_epi64(_mm512_min_epi64(_mm512_max_epi64(k, zero), full), o_zero, full);
  __m256i rst = _mm512_cvtepi64_epi32(
      _mm512_srai_epi64(_mm512_add_epi64(_mm512_mul_epi32(k, o64), _mm512_set1_epi64(16384)), 15));
  const __mmask8 apply = angle & ~o_zero & _mm512_test_epi64_mask(k, k);
  if (apply) {
    const __m512d r = _mm512_mul_pd(_mm512_cvtepi32_pd(rst), egl);
    const __m512d td = _mm512_cvtepi32_pd(t);
    const __m256i lo = _mm512_cvttpd_epi32(_mm512_min_pd(r, td));  // (r < t) ? r : t
    const __m256i hi = _mm512_cvttpd_epi32(_mm512_max_pd(r, td));  // (r > t) ? r : t
    const __mmask8 pos = _mm256_cmpgt_epi32_mask(o, _mm256_setzero_si256());
    rst = _mm256_mask_blend_epi32(apply, rst, _mm256_mask_blend_epi32(pos, hi, lo));
  }
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(rst_out), rst);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(q_out), _mm256_sub_epi32(t, rst));
}

// ---- decouple, scale 0, 16 columns ----

ADM_AVX512 inline __m512d through_float8(__m512d v) { return _mm512_cvtps_pd(_mm512_cvtpd_ps(v)); }

// The gain limit on 8 lanes: the low half holds (r < t) ? r : t, the high half (r > t) ? r : t.
ADM_AVX512 inline __m512i limit8(__m256i r32, __m256i t32, __m512d egl) {
  const __m512d r = _mm512_mul_pd(_mm512_cvtepi32_pd(r32), egl);
  const __m512d td = _mm512_cvtepi32_pd(t32);
  return _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvttpd_epi32(_mm512_min_pd(r, td))),
                            _mm512_cvttpd_epi32(_mm512_max_pd(r, td)), 1);
}

// A product of int16 values and a sum of two are exact in double (below 2^31), as in angle4.
ADM_AVX512 inline __mmask8 angle8_small(__m256i oh, __m256i ov, __m256i th, __m256i tv) {
  const __m512d a = _mm512_cvtepi32_pd(oh), b = _mm512_cvtepi32_pd(ov);
  const __m512d c = _mm512_cvtepi32_pd(th), e = _mm512_cvtepi32_pd(tv);
  const __m512d scale = _mm512_set1_pd(1.0 / 4096.0);
  const __m512d x = _mm512_mul_pd(through_float8(_mm512_add_pd(_mm512_mul_pd(a, c), _mm512_mul_pd(b, e))), scale);
  const __m512d om = _mm512_mul_pd(through_float8(_mm512_add_pd(_mm512_mul_pd(a, a), _mm512_mul_pd(b, b))), scale);
  const __m512d tm = _mm512_mul_pd(through_float8(_mm512_add_pd(_mm512_mul_pd(c, c), _mm512_mul_pd(e, e))), scale);
  const __m512d rhs = _mm512_mul_pd(_mm512_mul_pd(_mm512_set1_pd(double(kCos1DegSq)), om), tm);
  return _mm512_cmp_pd_mask(x, _mm512_setzero_pd(), _CMP_GE_OQ) &
         _mm512_cmp_pd_mask(_mm512_mul_pd(x, x), rhs, _CMP_GE_OQ);
}

ADM_AVX512 inline __m256i lo256(__m512i v) { return _mm512_castsi512_si256(v); }
ADM_AVX512 inline __m256i hi256(__m512i v) { return _mm512_extracti64x4_epi64(v, 1); }
ADM_AVX512 inline __m512i join256(__m256i lo, __m256i hi) {
  return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
}
ADM_AVX512 inline __m512i load16(const int16_t* p) {
  return _mm512_cvtepi16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}

ADM_AVX512 void decouple0_avx512(const int16_t* const ref[3], const int16_t* const dis[3], int x0, int x1, double egl_value,
                                 int16_t* const rst_out[3], int16_t* const q_out[3]) {
  const __m512d egl = _mm512_set1_pd(egl_value);
  const __m512i zero = _mm512_setzero_si512(), full = _mm512_set1_epi32(32768);
  const __m512i half = _mm512_set1_epi32(16384);
  int x = x0;
  for (; x < x1 && x1 - x0 >= 16; x = next_step(x, 16, x1)) {
    __m512i o[3], t[3];
    for (int i = 0; i < 3; ++i) {
      o[i] = load16(ref[i] + x);
      t[i] = load16(dis[i] + x);
    }
    const __mmask16 angle = __mmask16(
        angle8_small(lo256(o[0]), lo256(o[1]), lo256(t[0]), lo256(t[1])) |
        (unsigned(angle8_small(hi256(o[0]), hi256(o[1]), hi256(t[0]), hi256(t[1]))) << 8));
    for (int i = 0; i < 3; ++i) {
      // k = clamp((sign(o) DIV[m] t + 2^14) >> 15, 0, 2^15), m = |o|, by cases: where o and t have
      // opposite signs (or t = 0) the sum is at most 2^14 - 2^15 (DIV >= 2^15), so k = 0; where
      // |t| > m, DIV |t| >= (2^30 - m + 1)(m + 1) / m >= 2^30, so k = 2^15; otherwise DIV |t| <= 2^30
      // fits int32 and needs no clamp. Only those lanes read DIV[m] (a masked gather from the
      // reference's own table: fewer loads than the full gather).
      const __m512i m = _mm512_abs_epi32(o[i]);
      const __mmask16 o_zero = _mm512_cmpeq_epi32_mask(o[i], zero);
      const __mmask16 same_sign = _mm512_cmpge_epi32_mask(_mm512_xor_si512(o[i], t[i]), zero);
      const __m512i tm = _mm512_abs_epi32(t[i]);
      const __mmask16 above = _mm512_cmpgt_epi32_mask(tm, m);
      const __mmask16 ratio = same_sign & __mmask16(~above);  // o = 0 is in `above` unless t = 0 too
      const __m512i div = _mm512_mask_i32gather_epi32(zero, ratio, m, kReciprocal.div, 4);
      __m512i k = _mm512_srai_epi32(_mm512_add_epi32(_mm512_mullo_epi32(div, tm), half), 15);
      k = _mm512_maskz_mov_epi32(same_sign, _mm512_mask_mov_epi32(k, above, full));
      k = _mm512_mask_mov_epi32(k, o_zero, full);
      __m512i rst = _mm512_srai_epi32(_mm512_add_epi32(_mm512_mullo_epi32(k, o[i]), half), 15);
      const __mmask16 apply = angle & __mmask16(~o_zero) & _mm512_test_epi32_mask(k, k);
      if (apply) {
        const __m512i a = limit8(lo256(rst), lo256(t[i]), egl), b = limit8(hi256(rst), hi256(t[i]), egl);
        const __m512i mins = join256(lo256(a), lo256(b)), maxs = join256(hi256(a), hi256(b));
        const __mmask16 pos = _mm512_cmpgt_epi32_mask(o[i], zero);
        rst = _mm512_mask_blend_epi32(apply, rst, _mm512_mask_blend_epi32(pos, maxs, mins));
      }
      // The int16 narrowings of the scalar rule are truncations.
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(rst_out[i] + x), _mm512_cvtepi32_epi16(rst));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(q_out[i] + x), _mm512_cvtepi32_epi16(_mm512_sub_epi32(t[i], rst)));
    }
  }
  if (x < x1) reference_kernels().decouple0(ref, dis, x, x1, egl_value, rst_out, q_out);
}

// Coefficient pairs for madd: (c0, c1) in every 32-bit lane.
ADM_AVX512 inline __m512i pair512(int32_t c0, int32_t c1) {
  return _mm512_set1_epi32(int32_t(uint32_t(uint16_t(c0)) | (uint32_t(c1) << 16)));
}

// ---- DWT, scales 1-3, in 16-bit halves (madd) ----
// Every int32 x is 65536 xh + xl + 32768 with xh = x >> 16 and xl = (x & 0xffff) - 32768 both int16
// (xl is the low half with its top bit flipped). A filter c then gives
//   sum c x = 65536 H + L + 32768 C,  H = sum c xh,  L = sum c xl,  C = sum c (46342 low-pass, 0 high-pass),
// where |H|, |L| <= 54822 * 32768 < 2^31 are exact int32 madd sums. With the rounding term R < 2^15
// (or 2^15 for shift 16) the scalar rule's floor((sum + R) / 2^S) is, as exact integers,
//   2^(16-S) H + C 2^(15-S) + floor((L + R) / 2^S)        (S = 16: C / 2, C is even),
// and its int32 narrowing is that sum taken modulo 2^32: the int32 lane arithmetic.

// The rounding of one pass (S <= 16) and the constant of each filter.
struct HalvesRound {
  __m128i h_shift, shift;  // 16 - S, S
  __m512i round, c_lo, c_hi;
};
ADM_AVX512 inline HalvesRound halves_round(int shift, int64_t round) {
  auto constant = [shift](int32_t c) {
    return int32_t(shift == 16 ? uint32_t(c / 2) : uint32_t(c) << (15 - shift));
  };
  return {_mm_cvtsi32_si128(16 - shift), _mm_cvtsi32_si128(shift), _mm512_set1_epi32(int32_t(round)),
          _mm512_set1_epi32(constant(kLoSum)), _mm512_set1_epi32(constant(0))};
}
ADM_AVX512 inline __m512i halves_result(__m512i hsum, __m512i lsum, __m512i c, const HalvesRound& r) {
  return _mm512_add_epi32(_mm512_add_epi32(_mm512_sll_epi32(hsum, r.h_shift), c),
                          _mm512_sra_epi32(_mm512_add_epi32(lsum, r.round), r.shift));
}
// c0 p0 + c1 p1 + c2 p2 + c3 p3 from the int16 pairs (p0, p1) and (p2, p3) of each 32-bit lane.
ADM_AVX512 inline __m512i madd4(__m512i p01, __m512i p23, const int32_t* c) {
  return _mm512_add_epi32(_mm512_madd_epi16(p01, pair512(c[0], c[1])), _mm512_madd_epi16(p23, pair512(c[2], c[3])));
}

// The (xl, xl') and (xh, xh') pairs of two int32 vectors.
ADM_AVX512 inline void half_pairs(__m512i x0, __m512i x1, __m512i& low, __m512i& high) {
  const __mmask32 odd = 0xAAAAAAAAu;
  low = _mm512_xor_si512(_mm512_mask_blend_epi16(odd, x0, _mm512_slli_epi32(x1, 16)),
                         _mm512_set1_epi32(int32_t(0x80008000u)));
  high = _mm512_mask_blend_epi16(odd, _mm512_srli_epi32(x0, 16), x1);
}

// A line between the passes, as its two int16 halves (index -1 .. n + 1, mirrored like pad_dwt_line):
// the horizontal pass then reads the tap pairs of each output with plain loads, as at scale 0.
struct HalvesLine {
  int16_t* l;
  int16_t* h;
};
ADM_AVX512 inline void pad_halves(const HalvesLine& p, int n) {
  // memcpy: the scratch is int32 storage.
  auto copy = [](int16_t* to, const int16_t* from) { std::memcpy(to, from, sizeof(int16_t)); };
  for (int16_t* q : std::array<int16_t*, 2>{p.l, p.h}) {
    copy(q - 1, q + 1);
    copy(q + n, q + n - 1);
    copy(q + n + 1, q + n - 2);
  }
}

// 32 int32 results (two vectors) stored as their halves at column x; column c's value is int32
// element order[c] of (v0, v1) (0..15 in v0, 16..31 in v1).
struct HalvesOrder {
  alignas(64) int16_t low_word[32];  // permutex2var_epi16 index of each column's low half
};
constexpr HalvesOrder halves_order(const int (&order)[32]) {
  HalvesOrder o{};
  for (int c = 0; c < 32; ++c) o.low_word[c] = int16_t(2 * order[c]);
  return o;
}
inline constexpr int kInOrder[32] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                     16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
// unpacklo / unpackhi of 32 int16 columns: per 128-bit lane j, v0 holds columns 8j..8j+3 and v1
// columns 8j+4..8j+7.
inline constexpr int kUnpackOrder[32] = {0,  1,  2,  3,  16, 17, 18, 19, 4,  5,  6,  7,  20, 21, 22, 23,
                                         8,  9,  10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31};
inline constexpr HalvesOrder kHalvesInOrder = halves_order(kInOrder);
inline constexpr HalvesOrder kHalvesUnpackOrder = halves_order(kUnpackOrder);

ADM_AVX512 inline void store_halves(const HalvesLine& p, int x, __m512i v0, __m512i v1, const HalvesOrder& order) {
  const __m512i low = _mm512_load_si512(order.low_word), high = _mm512_add_epi16(low, _mm512_set1_epi16(1));
  _mm512_storeu_si512(p.l + x,
                      _mm512_xor_si512(_mm512_permutex2var_epi16(v0, low, v1), _mm512_set1_epi16(int16_t(0x8000))));
  _mm512_storeu_si512(p.h + x, _mm512_permutex2var_epi16(v0, high, v1));
}

// Vertical pass of 16 columns at x: the low- and high-pass results.
ADM_AVX512 inline void vertical_halves16(const int32_t* const rows[4], int x, const HalvesRound& r, __m512i& lo,
                                         __m512i& hi) {
  __m512i l01, h01, l23, h23;
  half_pairs(_mm512_loadu_si512(rows[0] + x), _mm512_loadu_si512(rows[1] + x), l01, h01);
  half_pairs(_mm512_loadu_si512(rows[2] + x), _mm512_loadu_si512(rows[3] + x), l23, h23);
  lo = halves_result(madd4(h01, h23, kLo), madd4(l01, l23, kLo), r.c_lo, r);
  hi = halves_result(madd4(h01, h23, kHi), madd4(l01, l23, kHi), r.c_hi, r);
}

// Horizontal pass: outputs k..k+15 of filter c over a line (taps p[2k-1 .. 2k+2]).
ADM_AVX512 inline __m512i horizontal_halves16(const HalvesLine& p, int k, const int32_t* c, __m512i c_const,
                                              const HalvesRound& r) {
  const int16_t* l = p.l + 2 * k;
  const int16_t* h = p.h + 2 * k;
  const __m512i lsum = madd4(_mm512_loadu_si512(l - 1), _mm512_loadu_si512(l + 1), c);
  const __m512i hsum = madd4(_mm512_loadu_si512(h - 1), _mm512_loadu_si512(h + 1), c);
  return halves_result(hsum, lsum, c_const, r);
}

// Vertical pass of 32 int16 columns at x (scale 1): the 4-tap sums are below 54822 * 2^15 < 2^31,
// exact madd sums, and so is the rounding (as dwt_vertical16 of AVX2).
ADM_AVX512 inline void vertical16_rows32(const int16_t* const rows[4], int x, int shift, int64_t round,
                                         const HalvesLine& pl, const HalvesLine& ph) {
  __m512i s[4];
  for (int t = 0; t < 4; ++t) s[t] = _mm512_loadu_si512(rows[t] + x);
  const __m512i a01 = _mm512_unpacklo_epi16(s[0], s[1]), b01 = _mm512_unpackhi_epi16(s[0], s[1]);
  const __m512i a23 = _mm512_unpacklo_epi16(s[2], s[3]), b23 = _mm512_unpackhi_epi16(s[2], s[3]);
  const __m128i sh = _mm_cvtsi32_si128(shift);
  const __m512i r = _mm512_set1_epi32(int32_t(round));
  auto rounded = [&](__m512i sum) ADM_AVX512 { return _mm512_sra_epi32(_mm512_add_epi32(sum, r), sh); };
  store_halves(pl, x, rounded(madd4(a01, a23, kLo)), rounded(madd4(b01, b23, kLo)), kHalvesUnpackOrder);
  store_halves(ph, x, rounded(madd4(a01, a23, kHi)), rounded(madd4(b01, b23, kHi)), kHalvesUnpackOrder);
}

// The horizontal pass from the two lines' halves (filled for columns 0..n-1, n >= 32).
ADM_AVX512 void horizontal_halves_row(const HalvesLine& pl, const HalvesLine& ph, int n, int scale, int32_t* a,
                                      int32_t* v, int32_t* h, int32_t* d) {
  pad_halves(pl, n);
  pad_halves(ph, n);
  const HalvesRound hr = halves_round(kDwtHShift[scale], kDwtHRound[scale]);
  const int n_out = (n + 1) / 2;  // >= 16; loads reach p[2k + 32] <= p[n + 1]
  for (int k = 0; k < n_out; k = next_step(k, 16, n_out)) {
    _mm512_storeu_si512(a + k, horizontal_halves16(pl, k, kLo, hr.c_lo, hr));
    _mm512_storeu_si512(v + k, horizontal_halves16(pl, k, kHi, hr.c_hi, hr));
    _mm512_storeu_si512(h + k, horizontal_halves16(ph, k, kLo, hr.c_lo, hr));
    _mm512_storeu_si512(d + k, horizontal_halves16(ph, k, kHi, hr.c_hi, hr));
  }
}

// Each scratch line of n + 3 int32 holds the two int16 halves of n + 3 values.
inline HalvesLine halves_line(int32_t* scratch, int n) {
  return {reinterpret_cast<int16_t*>(scratch) + 1, reinterpret_cast<int16_t*>(scratch) + n + 4};
}

ADM_AVX512 void dwt123_avx512(const int32_t* const rows[4], int n, int scale, int32_t* lo, int32_t* hi, int32_t* a,
                              int32_t* v, int32_t* h, int32_t* d) {
  // Narrow rows (only the last scales of small frames): the AVX2 passes.
  if (n < 32) return dwt123_by_passes<dwt_vertical, dwt_horizontal>(rows, n, scale, lo, hi, a, v, h, d);
  const HalvesLine pl = halves_line(lo, n), ph = halves_line(hi, n);
  const HalvesRound vr = halves_round(kDwtVShift[scale], kDwtVRound[scale]);
  for (int x = 0; x < n; x = next_step(x, 32, n)) {
    __m512i lo0, hi0, lo1, hi1;
    vertical_halves16(rows, x, vr, lo0, hi0);
    vertical_halves16(rows, x + 16, vr, lo1, hi1);
    store_halves(pl, x, lo0, lo1, kHalvesInOrder);
    store_halves(ph, x, hi0, hi1, kHalvesInOrder);
  }
  horizontal_halves_row(pl, ph, n, scale, a, v, h, d);
}

ADM_AVX512 void dwt1_avx512(const int16_t* const rows[4], int n, int scale, int32_t* lo, int32_t* hi, int32_t* a,
                            int32_t* v, int32_t* h, int32_t* d) {
  if (n < 32) return dwt123_by_passes<dwt_vertical16, dwt_horizontal>(rows, n, scale, lo, hi, a, v, h, d);
  const HalvesLine pl = halves_line(lo, n), ph = halves_line(hi, n);
  for (int x = 0; x < n; x = next_step(x, 32, n))
    vertical16_rows32(rows, x, kDwtVShift[scale], kDwtVRound[scale], pl, ph);
  horizontal_halves_row(pl, ph, n, scale, a, v, h, d);
}

// ---- contrast masking, 16 columns: native 64-bit arithmetic shifts for the cube terms ----

// As add_cubes: the 16 cube terms of x >= 0 added to the 8 int64 lanes of acc.
ADM_AVX512 inline __m512i cube_terms8(__m512i xv, __m128i sq_shift, __m512i sq_round, __m128i cube_shift, __m512i cube_round) {
  const __m512i sq = _mm512_srl_epi64(_mm512_add_epi64(_mm512_mul_epu32(xv, xv), sq_round), sq_shift);
  return _mm512_sra_epi64(_mm512_add_epi64(_mm512_mul_epi32(sq, xv), cube_round), cube_shift);
}
ADM_AVX512 inline __m512i add_cubes16(__m512i acc, __m512i x, __m128i sq_shift, __m512i sq_round, __m128i cube_shift,
                                      __m512i cube_round) {
  const __m512i even = cube_terms8(x, sq_shift, sq_round, cube_shift, cube_round);
  const __m512i odd = cube_terms8(_mm512_srli_epi64(x, 32), sq_shift, sq_round, cube_shift, cube_round);
  return _mm512_add_epi64(acc, _mm512_add_epi64(even, odd));
}

ADM_AVX512 inline __m512i load32x16(const int32_t* p) { return _mm512_loadu_si512(p); }

ADM_AVX512 inline __m512i threshold16(const int32_t* up, const int32_t* mid, const int32_t* down, const int32_t* mask,
                                      const int32_t* centre, int x) {
  return _mm512_add_epi32(
      _mm512_sub_epi32(_mm512_add_epi32(_mm512_add_epi32(load32x16(up + x), load32x16(mid + x)), load32x16(down + x)),
                       load32x16(mask + x)),
      load32x16(centre + x));
}

ADM_AVX512 void cm0_avx512(const int16_t* const src[3], const int32_t* box_up, const int32_t* box_mid, const int32_t* box_down,
                           const int32_t* mask_mid, const int32_t* centre_mid, int x0, int x1, const uint16_t r0[3],
                           const uint32_t cube_shift[3], const int64_t cube_round[3], int64_t sums[3]) {
  __m512i acc[3] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512()};
  __m128i cshift[3], sqshift[3];
  __m512i cround[3], sqround[3];
  for (int t = 0; t < 3; ++t) {
    cshift[t] = _mm_cvtsi32_si128(int(cube_shift[t]));
    cround[t] = _mm512_set1_epi64(cube_round[t]);
    sqshift[t] = _mm_cvtsi32_si128(t == 2 ? 30 : 29);
    sqround[t] = _mm512_set1_epi64(t == 2 ? (int64_t(1) << 29) : (int64_t(1) << 28));
  }
  int x = x0;
  for (; x + 16 <= x1; x += 16) {
    const __m512i thr = threshold16(box_up, box_mid, box_down, mask_mid, centre_mid, x);
    for (int t = 0; t < 3; ++t) {
      const __m512i v = _mm512_abs_epi32(_mm512_mullo_epi32(load16(src[t] + x), _mm512_set1_epi32(r0[t])));
      const __m512i sub = t == 2 ? _mm512_slli_epi32(thr, 12) : _mm512_slli_epi32(thr, 10);
      const __m512i xv = _mm512_max_epi32(_mm512_sub_epi32(v, sub), _mm512_setzero_si512());
      acc[t] = add_cubes16(acc[t], xv, sqshift[t], sqround[t], cshift[t], cround[t]);
    }
  }
  for (int t = 0; t < 3; ++t) sums[t] += _mm512_reduce_add_epi64(acc[t]);
  if (x < x1)  // the AVX2 kernel (8 columns, then scalar)
    cm0(src, box_up, box_mid, box_down, mask_mid, centre_mid, x, x1, r0, cube_shift, cube_round, sums);
}

// csf8 on 16 lanes.
ADM_AVX512 inline __m512i csf16(__m512i p, __m512i r) {
  const __m512i round = _mm512_set1_epi64(int64_t(1) << 27);
  const __m512i even = _mm512_srli_epi64(_mm512_add_epi64(_mm512_mul_epi32(p, r), round), 28);
  const __m512i odd = _mm512_srli_epi64(_mm512_add_epi64(_mm512_mul_epi32(_mm512_srli_epi64(p, 32), r), round), 28);
  return _mm512_mask_blend_epi32(__mmask16(0xAAAA), even, _mm512_slli_epi64(odd, 32));
}

ADM_AVX512 void cm123_avx512(const int32_t* const src[3], const int32_t* box_up, const int32_t* box_mid, const int32_t* box_down,
                             const int32_t* mask_mid, const int32_t* centre_mid, int x0, int x1, const uint32_t r[3],
                             uint32_t cube_shift, int64_t cube_round, int64_t sums[3]) {
  if (!fits_int32_factors(r))
    return reference_kernels().cm123(src, box_up, box_mid, box_down, mask_mid, centre_mid, x0, x1, r, cube_shift,
                                  cube_round, sums);
  __m512i acc[3] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512()};
  const __m128i cshift = _mm_cvtsi32_si128(int(cube_shift)), sqshift = _mm_cvtsi32_si128(30);
  const __m512i cround = _mm512_set1_epi64(cube_round), sqround = _mm512_set1_epi64(int64_t(1) << 29);
  int x = x0;
  for (; x + 16 <= x1; x += 16) {
    const __m512i thr = threshold16(box_up, box_mid, box_down, mask_mid, centre_mid, x);
    for (int t = 0; t < 3; ++t) {
      const __m512i v = _mm512_abs_epi32(csf16(load32x16(src[t] + x), _mm512_set1_epi32(int32_t(r[t]))));
      const __m512i xv = _mm512_max_epi32(_mm512_sub_epi32(v, thr), _mm512_setzero_si512());
      acc[t] = add_cubes16(acc[t], xv, sqshift, sqround, cshift, cround);
    }
  }
  for (int t = 0; t < 3; ++t) sums[t] += _mm512_reduce_add_epi64(acc[t]);
  if (x < x1) cm123(src, box_up, box_mid, box_down, mask_mid, centre_mid, x, x1, r, cube_shift, cube_round, sums);
}

// ---- CSF and masks, 16 columns ----

ADM_AVX512 void box3_avx512(const int32_t* mask, int32_t* box, int x0, int x1) {
  int j = x0;
  for (; j < x1 && x1 - x0 >= 16; j = next_step(j, 16, x1))
    _mm512_storeu_si512(box + j, _mm512_add_epi32(_mm512_add_epi32(_mm512_loadu_si512(mask + j - 1),
                                                                   _mm512_loadu_si512(mask + j)),
                                                  _mm512_loadu_si512(mask + j + 1)));
  if (j < x1) reference_kernels().box3(mask, box, j, x1);
}

ADM_AVX512 inline __m512i wrap16x16(__m512i v) { return _mm512_srai_epi32(_mm512_slli_epi32(v, 16), 16); }
ADM_AVX512 inline void store16(int32_t* p, __m512i v) { _mm512_storeu_si512(p, v); }

ADM_AVX512 void csf0_int32_lanes(const int16_t* const p[3], int x0, int x1, const uint16_t r0[3], int32_t* mask, int32_t* centre) {
  const __m512i c30 = _mm512_set1_epi32(4369), c15 = _mm512_set1_epi32(8738), r2048 = _mm512_set1_epi32(2048);
  int x = x0;
  for (; x < x1 && x1 - x0 >= 16; x = next_step(x, 16, x1)) {
    __m512i m = _mm512_setzero_si512(), c = _mm512_setzero_si512();
    for (int t = 0; t < 3; ++t) {
      const __m512i prod = _mm512_mullo_epi32(load16(p[t] + x), _mm512_set1_epi32(r0[t]));
      const __m512i v = t == 2 ? _mm512_srai_epi32(_mm512_add_epi32(prod, _mm512_set1_epi32(65535)), 17)
                               : _mm512_srai_epi32(_mm512_add_epi32(prod, _mm512_set1_epi32(16384)), 15);
      const __m512i a = _mm512_abs_epi32(wrap16x16(v));
      m = _mm512_add_epi32(m, wrap16x16(_mm512_srai_epi32(_mm512_add_epi32(_mm512_mullo_epi32(a, c30), r2048), 12)));
      c = _mm512_add_epi32(c, wrap16x16(_mm512_srai_epi32(_mm512_add_epi32(_mm512_mullo_epi32(a, c15), r2048), 12)));
    }
    store16(mask + x, m);
    store16(centre + x, c);
  }
  if (x < x1) csf0(p, x, x1, r0, mask, centre);  // narrower than 16: the AVX2 kernel
}

// csf0 on 32 columns in int16 lanes: every step of the scalar rule is taken modulo 2^16 where only
// the int16 result is kept, from exact 16 x 16-bit product halves.
// CSF, h / v: int16((r0 p + 2^14) >> 15) = mulhrs(p, r0 - 2^16) + 2p when r0 >= 2^15 (the product
// differs by 2^16 p, the shifted one by 2p), mulhrs(p, r0) otherwise.
// CSF, d: (r0 p + 65535) >> 17 = (ceil(r0 p / 2^16)) >> 1 = (hi + (lo != 0)) >> 1 with hi, lo the
// product's halves (hi <= 32766, so hi + 1 fits).
// Masks of a = |c| (0..2^15, read unsigned): (4369 a + 2048) >> 12 = a + ((4368 a + 2^15) >> 16) and
// (8738 a + 2048) >> 12 = 2a + ((8736 a + 2^15) >> 16), the last terms H + (L >= 2^15) from the
// halves H, L of the unsigned product.
ADM_AVX512 inline __m512i csf16x32(__m512i p, uint16_t r0, int theta) {
  const bool big = r0 >= 32768;
  const __m512i r = _mm512_set1_epi16(int16_t(r0));
  if (theta == 2) {
    __m512i hi = _mm512_mulhi_epi16(p, r);
    if (big) hi = _mm512_add_epi16(hi, p);
    const __mmask32 nz = _mm512_test_epi16_mask(_mm512_mullo_epi16(p, r), _mm512_mullo_epi16(p, r));
    return _mm512_srai_epi16(_mm512_mask_sub_epi16(hi, nz, hi, _mm512_set1_epi16(-1)), 1);
  }
  const __m512i c = _mm512_mulhrs_epi16(p, r);
  return big ? _mm512_add_epi16(c, _mm512_add_epi16(p, p)) : c;
}
ADM_AVX512 inline __m512i scaled_round16(__m512i a, __m512i k) {  // (k a + 2^15) >> 16, a and k unsigned
  return _mm512_add_epi16(_mm512_mulhi_epu16(a, k), _mm512_srli_epi16(_mm512_mullo_epi16(a, k), 15));
}
ADM_AVX512 inline void add_widened(__m512i v, __m512i& lo, __m512i& hi) {
  lo = _mm512_add_epi32(lo, _mm512_cvtepi16_epi32(lo256(v)));
  hi = _mm512_add_epi32(hi, _mm512_cvtepi16_epi32(hi256(v)));
}

ADM_AVX512 void csf0_avx512(const int16_t* const p[3], int x0, int x1, const uint16_t r0[3], int32_t* mask,
                            int32_t* centre) {
  if (x1 - x0 < 32) return csf0_int32_lanes(p, x0, x1, r0, mask, centre);
  const __m512i k30 = _mm512_set1_epi16(4368), k15 = _mm512_set1_epi16(8736);
  for (int x = x0; x < x1; x = next_step(x, 32, x1)) {
    __m512i m0 = _mm512_setzero_si512(), m1 = m0, c0 = m0, c1 = m0;
    for (int t = 0; t < 3; ++t) {
      const __m512i a = _mm512_abs_epi16(csf16x32(_mm512_loadu_si512(p[t] + x), r0[t], t));
      add_widened(_mm512_add_epi16(a, scaled_round16(a, k30)), m0, m1);
      add_widened(_mm512_add_epi16(_mm512_add_epi16(a, a), scaled_round16(a, k15)), c0, c1);
    }
    _mm512_storeu_si512(mask + x, m0);
    _mm512_storeu_si512(mask + x + 16, m1);
    _mm512_storeu_si512(centre + x, c0);
    _mm512_storeu_si512(centre + x + 16, c1);
  }
}

// scaled_mask8 on 16 lanes.
ADM_AVX512 inline __m512i scaled_mask16(__m512i abs_c, __m512i k) {
  const __m512i bias = _mm512_set1_epi64(int64_t(1) << 31);
  const __m512i even = _mm512_sub_epi64(_mm512_mul_epu32(abs_c, k), bias);
  const __m512i odd = _mm512_sub_epi64(_mm512_mul_epu32(_mm512_srli_epi64(abs_c, 32), k), bias);
  return _mm512_mask_blend_epi32(__mmask16(0xAAAA), _mm512_srli_epi64(even, 32), odd);
}

ADM_AVX512 void csf123_avx512(const int32_t* const p[3], int x0, int x1, const uint32_t r[3], int32_t* mask, int32_t* centre) {
  if (!fits_int32_factors(r)) return reference_kernels().csf123(p, x0, x1, r, mask, centre);
  const __m512i k30 = _mm512_set1_epi32(143165577), k15 = _mm512_set1_epi32(286331153);
  int x = x0;
  for (; x < x1 && x1 - x0 >= 16; x = next_step(x, 16, x1)) {
    __m512i m = _mm512_setzero_si512(), c = _mm512_setzero_si512();
    for (int t = 0; t < 3; ++t) {
      const __m512i a = _mm512_abs_epi32(csf16(load32x16(p[t] + x), _mm512_set1_epi32(int32_t(r[t]))));
      m = _mm512_add_epi32(m, scaled_mask16(a, k30));
      c = _mm512_add_epi32(c, scaled_mask16(a, k15));
    }
    store16(mask + x, m);
    store16(centre + x, c);
  }
  if (x < x1) csf123(p, x, x1, r, mask, centre);
}

// ---- DWT, scale 0, 32 / 16 columns (AVX-512BW): the AVX2 kernels' arithmetic on wider vectors ----
// (unpack and pack work within 128-bit lanes on every width, so the output order is the same).

ADM_AVX512 void dwt0_vertical_u8_avx512(const uint8_t* const rows[4], int n, int bitdepth, int16_t* lo, int16_t* hi) {
  const __m128i shift = _mm_cvtsi32_si128(bitdepth);
  const __m512i round = _mm512_set1_epi32(1 << (bitdepth - 1));
  const __m512i k = _mm512_set1_epi32(-(kLoSum << (bitdepth - 1)));
  const __m512i lo01 = pair512(kLo[0], kLo[1]), lo23 = pair512(kLo[2], kLo[3]);
  const __m512i hi01 = pair512(kHi[0], kHi[1]), hi23 = pair512(kHi[2], kHi[3]);
  int x = 0;
  for (; x + 32 <= n; x += 32) {
    __m512i s[4];
    for (int t = 0; t < 4; ++t)
      s[t] = _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows[t] + x)));
    const __m512i a01 = _mm512_unpacklo_epi16(s[0], s[1]), b01 = _mm512_unpackhi_epi16(s[0], s[1]);
    const __m512i a23 = _mm512_unpacklo_epi16(s[2], s[3]), b23 = _mm512_unpackhi_epi16(s[2], s[3]);
    const __m512i la = _mm512_sra_epi32(_mm512_add_epi32(_mm512_add_epi32(_mm512_add_epi32(_mm512_madd_epi16(a01, lo01), _mm512_madd_epi16(a23, lo23)), k), round), shift);
    const __m512i lb = _mm512_sra_epi32(_mm512_add_epi32(_mm512_add_epi32(_mm512_add_epi32(_mm512_madd_epi16(b01, lo01), _mm512_madd_epi16(b23, lo23)), k), round), shift);
    const __m512i ha = _mm512_sra_epi32(_mm512_add_epi32(_mm512_add_epi32(_mm512_madd_epi16(a01, hi01), _mm512_madd_epi16(a23, hi23)), round), shift);
    const __m512i hb = _mm512_sra_epi32(_mm512_add_epi32(_mm512_add_epi32(_mm512_madd_epi16(b01, hi01), _mm512_madd_epi16(b23, hi23)), round), shift);
    _mm512_storeu_si512(lo + x, _mm512_packs_epi32(la, lb));
    _mm512_storeu_si512(hi + x, _mm512_packs_epi32(ha, hb));
  }
  if (x < n) {
    const uint8_t* tail[4] = {rows[0] + x, rows[1] + x, rows[2] + x, rows[3] + x};
    dwt0_vertical_u8(tail, n - x, bitdepth, lo + x, hi + x);  // the AVX2 kernel
  }
}

ADM_AVX512 inline __m512i dwt0_filter16(const int16_t* p, __m512i c01, __m512i c23, __m512i round) {
  const __m512i s = _mm512_add_epi32(_mm512_madd_epi16(_mm512_loadu_si512(p - 1), c01),
                                     _mm512_madd_epi16(_mm512_loadu_si512(p + 1), c23));
  return _mm512_srai_epi32(_mm512_add_epi32(s, round), 16);
}

ADM_AVX512 void dwt0_horizontal_avx512(const int16_t* lo, const int16_t* hi, int n_out, int16_t* a, int16_t* v, int16_t* h,
                                       int16_t* d) {
  const __m512i lo01 = pair512(kLo[0], kLo[1]), lo23 = pair512(kLo[2], kLo[3]);
  const __m512i hi01 = pair512(kHi[0], kHi[1]), hi23 = pair512(kHi[2], kHi[3]);
  const __m512i round = _mm512_set1_epi32(32768);
  // 32 outputs: two filter vectors packed to int16 (every output fits int16, |s| < 2^31 shifted by
  // 16, so the saturation never acts); packs works within 128-bit lanes, the qword permute restores
  // the order.
  const __m512i order = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);
  auto filter32 = [&](int16_t* out, const int16_t* p, __m512i c01, __m512i c23) ADM_AVX512 {
    const __m512i packed = _mm512_packs_epi32(dwt0_filter16(p, c01, c23, round), dwt0_filter16(p + 32, c01, c23, round));
    _mm512_storeu_si512(out, _mm512_permutexvar_epi64(order, packed));
  };
  int k = 0;
  for (; k + 32 <= n_out; k += 32) {
    filter32(a + k, lo + 2 * k, lo01, lo23);
    filter32(v + k, lo + 2 * k, hi01, hi23);
    filter32(h + k, hi + 2 * k, lo01, lo23);
    filter32(d + k, hi + 2 * k, hi01, hi23);
  }
  for (; k + 16 <= n_out; k += 16) {
    const int16_t* pl = lo + 2 * k;
    const int16_t* ph = hi + 2 * k;
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(a + k), _mm512_cvtepi32_epi16(dwt0_filter16(pl, lo01, lo23, round)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(v + k), _mm512_cvtepi32_epi16(dwt0_filter16(pl, hi01, hi23, round)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(h + k), _mm512_cvtepi32_epi16(dwt0_filter16(ph, lo01, lo23, round)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + k), _mm512_cvtepi32_epi16(dwt0_filter16(ph, hi01, hi23, round)));
  }
  if (k < n_out) dwt0_horizontal(lo + 2 * k, hi + 2 * k, n_out - k, a + k, v + k, h + k, d + k);
}

// ---- denominators, 16 columns (as den0 / den123 of AVX2) ----

// The sum of the uint64 cube terms of the even and odd 32-bit elements.
ADM_AVX512 inline uint64_t reduce_u64(__m512i acc) { return uint64_t(_mm512_reduce_add_epi64(acc)); }

ADM_AVX512 void den0_avx512(const int16_t* const ref[3], int x0, int x1, uint64_t sums[3]) {
  const int n16 = x0 + (x1 - x0) / 16 * 16;
  for (int t = 0; t < 3; ++t) {
    __m512i acc = _mm512_setzero_si512();
    for (int x = x0; x < n16; x += 16) {
      const __m512i a = _mm512_abs_epi32(load16(ref[t] + x));  // <= 32768
      const __m512i sq = _mm512_mullo_epi32(a, a);               // <= 2^30
      acc = _mm512_add_epi64(acc, _mm512_mul_epu32(sq, a));
      acc = _mm512_add_epi64(acc, _mm512_mul_epu32(_mm512_srli_epi64(sq, 32), _mm512_srli_epi64(a, 32)));
    }
    sums[t] += reduce_u64(acc);
    for (int x = n16; x < x1; ++x) sums[t] += den_cube_scale0(ref[t][x]);
  }
}

// Values below 2^30 keep (a^2 + 2^qs) >> qs within 32 bits (qs >= 30); a row with a larger one
// (never seen in practice) is summed again by the reference.
ADM_AVX512 void den123_avx512(const int32_t* const ref[3], int x0, int x1, uint32_t sq_shift, uint32_t cube_shift,
                              uint64_t cube_round, uint64_t sums[3]) {
  if (sq_shift < 30) return reference_kernels().den123(ref, x0, x1, sq_shift, cube_shift, cube_round, sums);
  const int n16 = x0 + (x1 - x0) / 16 * 16;
  const __m128i sqs = _mm_cvtsi32_si128(int(sq_shift)), cs = _mm_cvtsi32_si128(int(cube_shift));
  const __m512i sqr = _mm512_set1_epi64(int64_t(1) << sq_shift), cr = _mm512_set1_epi64(int64_t(cube_round));
  const __m512i limit = _mm512_set1_epi32((1 << 30) - 1);
  __mmask16 big = 0;
  uint64_t row[3];
  for (int t = 0; t < 3; ++t) {
    __m512i acc = _mm512_setzero_si512();
    for (int x = x0; x < n16; x += 16) {
      // abs(INT_MIN) stays negative: the unsigned compare flags it too.
      const __m512i a = _mm512_abs_epi32(_mm512_loadu_si512(ref[t] + x));
      big |= _mm512_cmpgt_epu32_mask(a, limit);
      for (const __m512i av : {a, _mm512_srli_epi64(a, 32)}) {  // even / odd elements
        const __m512i u = _mm512_srl_epi64(_mm512_add_epi64(_mm512_mul_epu32(av, av), sqr), sqs);
        acc = _mm512_add_epi64(acc, _mm512_srl_epi64(_mm512_add_epi64(_mm512_mul_epu32(u, av), cr), cs));
      }
    }
    row[t] = reduce_u64(acc);
    for (int x = n16; x < x1; ++x) row[t] += den_cube_scale123(ref[t][x], sq_shift, cube_shift, cube_round);
  }
  if (big) return reference_kernels().den123(ref, x0, x1, sq_shift, cube_shift, cube_round, sums);
  for (int t = 0; t < 3; ++t) sums[t] += row[t];
}

ADM_AVX512 void decouple123_avx512(const int32_t* const ref[3], const int32_t* const dis[3], int x0, int x1, double egl_value,
                                   int32_t* const rst_out[3], int32_t* const q_out[3]) {
  const __m512d egl = _mm512_set1_pd(egl_value);
  int x = x0;
  for (; x < x1 && x1 - x0 >= 8; x = next_step(x, 8, x1)) {
    const __mmask8 angle = angle8(ld(ref[0] + x), ld(ref[1] + x), ld(dis[0] + x), ld(dis[1] + x));
    for (int i = 0; i < 3; ++i) decouple8_123(ld(ref[i] + x), ld(dis[i] + x), angle, egl, rst_out[i] + x, q_out[i] + x);
  }
  if (x < x1) reference_kernels().decouple123(ref, dis, x, x1, egl_value, rst_out, q_out);
}

}  // namespace

void init_avx512(RowKernels& k) {
  k.decouple0 = decouple0_avx512;
  k.dwt0_vertical_u8 = dwt0_vertical_u8_avx512;
  k.dwt0_horizontal = dwt0_horizontal_avx512;
  k.csf0 = csf0_avx512;
  k.box3 = box3_avx512;
  k.csf123 = csf123_avx512;
  k.cm0 = cm0_avx512;
  k.cm123 = cm123_avx512;
  k.dwt123 = dwt123_avx512;
  k.dwt1 = dwt1_avx512;
  k.decouple123 = decouple123_avx512;
  k.den0 = den0_avx512;
  k.den123 = den123_avx512;
}

}  // namespace vqtwin::integer_adm::x86

#endif
