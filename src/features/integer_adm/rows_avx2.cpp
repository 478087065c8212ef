// integer ADM row kernels, AVX2 (every function and lambda marked target("avx2"); put in the table only
// when cpu::flags() allows AVX2, see rows.cpp).
// Every lane computes exactly the scalar rule of math.hpp: the integer steps with the same widths
// and wraps (SIMD adds wrap like libvmaf's int32 sums; narrowings are explicit), the angle test
// and the gain limit in double lanes with the same IEEE operations in the same order (no FMA:
// the target is plain avx2). Row tails and rare out-of-range inputs go to the scalar kernels.
#include <cmath>

#include "common/isa.hpp"
#include "features/integer_adm/dwt.hpp"
#include "features/integer_adm/math.hpp"
#include "features/integer_adm/rows_x86.hpp"

#if VQTWIN_X86_VARIANTS
#include <immintrin.h>

#define ADM_AVX2 VQTWIN_TARGET_AVX2

namespace vqtwin::integer_adm::x86 {
namespace {

// Coefficient pairs for _mm256_madd_epi16: (c0, c1) and (c2, c3) in every 32-bit lane.
ADM_AVX2 inline __m256i pair(int32_t c0, int32_t c1) {
  return _mm256_set1_epi32(int32_t(uint32_t(uint16_t(c0)) | (uint32_t(c1) << 16)));
}

// The low 16 bits of each int32 lane, sign-extended (C's narrowing to int16).
ADM_AVX2 inline __m256i wrap16(__m256i v) { return _mm256_srai_epi32(_mm256_slli_epi32(v, 16), 16); }
// 8 int32 lanes (values fit int16) to 8 int16.
ADM_AVX2 inline __m128i narrow16(__m256i v) {
  const __m256i p = _mm256_packs_epi32(v, v);
  return _mm256_castsi256_si128(_mm256_permute4x64_epi64(p, 0x08));
}
// Arithmetic right shift of signed 64-bit lanes (AVX2 has only the logical one).
ADM_AVX2 inline __m256i srai64(__m256i v, __m128i count) {
  const __m256i sign = _mm256_cmpgt_epi64(_mm256_setzero_si256(), v);
  return _mm256_xor_si256(_mm256_srl_epi64(_mm256_xor_si256(v, sign), count), sign);
}
ADM_AVX2 inline int64_t hsum64(__m256i v) {
  alignas(32) int64_t t[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(t), v);
  return t[0] + t[1] + t[2] + t[3];
}

// ---- DWT, scale 0 ----

// lo = sum LO[t] s_t - 46342 * 2^(B-1), hi = sum HI[t] s_t, 16 columns, from int16 lanes s' = s - bias
// (bias 0 for 8-bit samples, 32768 for 16-bit containers): the madd sums wrap but the true values
// fit int32, so adding the constant back gives them exactly.
ADM_AVX2 inline void dwt0_v16(__m256i s0, __m256i s1, __m256i s2, __m256i s3, int32_t lo_const, __m128i shift,
                                   __m256i round, int16_t* lo, int16_t* hi) {
  const __m256i lo01 = pair(kLo[0], kLo[1]), lo23 = pair(kLo[2], kLo[3]);
  const __m256i hi01 = pair(kHi[0], kHi[1]), hi23 = pair(kHi[2], kHi[3]);
  const __m256i k = _mm256_set1_epi32(lo_const);
  const __m256i a01 = _mm256_unpacklo_epi16(s0, s1), b01 = _mm256_unpackhi_epi16(s0, s1);
  const __m256i a23 = _mm256_unpacklo_epi16(s2, s3), b23 = _mm256_unpackhi_epi16(s2, s3);
  auto filt = [&](__m256i c01, __m256i c23, __m256i x01, __m256i x23, __m256i add) ADM_AVX2 {
    const __m256i s = _mm256_add_epi32(_mm256_madd_epi16(x01, c01), _mm256_madd_epi16(x23, c23));
    return _mm256_sra_epi32(_mm256_add_epi32(_mm256_add_epi32(s, add), round), shift);
  };
  // unpacklo/hi interleave within 128-bit lanes: (a, b) packs back to the original order.
  const __m256i la = filt(lo01, lo23, a01, a23, k), lb = filt(lo01, lo23, b01, b23, k);
  const __m256i ha = filt(hi01, hi23, a01, a23, _mm256_setzero_si256());
  const __m256i hb = filt(hi01, hi23, b01, b23, _mm256_setzero_si256());
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(lo), _mm256_packs_epi32(la, lb));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(hi), _mm256_packs_epi32(ha, hb));
}

}  // namespace

ADM_AVX2 void dwt0_vertical_u8(const uint8_t* const rows[4], int n, int bitdepth, int16_t* lo, int16_t* hi) {
  const __m128i shift = _mm_cvtsi32_si128(bitdepth);
  const __m256i round = _mm256_set1_epi32(1 << (bitdepth - 1));
  const int32_t lo_const = -(kLoSum << (bitdepth - 1));
  int x = 0;
  for (; x + 16 <= n; x += 16) {
    __m256i s[4];
    for (int t = 0; t < 4; ++t)
      s[t] = _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(rows[t] + x)));
    dwt0_v16(s[0], s[1], s[2], s[3], lo_const, shift, round, lo + x, hi + x);
  }
  if (x < n) {
    const uint8_t* tail[4] = {rows[0] + x, rows[1] + x, rows[2] + x, rows[3] + x};
    reference_kernels().dwt0_vertical_u8(tail, n - x, bitdepth, lo + x, hi + x);
  }
}

namespace {

ADM_AVX2 void dwt0_vertical_u16(const uint16_t* const rows[4], int n, int bitdepth, int16_t* lo, int16_t* hi) {
  const __m128i shift = _mm_cvtsi32_si128(bitdepth);
  const __m256i round = _mm256_set1_epi32(1 << (bitdepth - 1));
  // sum LO s = sum LO s' + 32768 * 46342 (sum HI = 0), all mod 2^32.
  const int32_t lo_const = int32_t(uint32_t(kLoSum) * 32768u - (uint32_t(kLoSum) << (bitdepth - 1)));
  const __m256i bias = _mm256_set1_epi16(int16_t(-32768));
  int x = 0;
  for (; x + 16 <= n; x += 16) {
    __m256i s[4];
    for (int t = 0; t < 4; ++t)
      s[t] = _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows[t] + x)), bias);
    dwt0_v16(s[0], s[1], s[2], s[3], lo_const, shift, round, lo + x, hi + x);
  }
  if (x < n) {
    const uint16_t* tail[4] = {rows[0] + x, rows[1] + x, rows[2] + x, rows[3] + x};
    reference_kernels().dwt0_vertical_u16(tail, n - x, bitdepth, lo + x, hi + x);
  }
}

}  // namespace

// Output k reads p[2k-1 .. 2k+2]: the int16 pairs (p[2k-1], p[2k]) and (p[2k+1], p[2k+2]) are the
// 32-bit lanes of loads at p - 1 and p + 1, so two madds give 8 outputs.
ADM_AVX2 void dwt0_horizontal(const int16_t* lo, const int16_t* hi, int n_out, int16_t* a, int16_t* v, int16_t* h,
                                   int16_t* d) {
  const __m256i lo01 = pair(kLo[0], kLo[1]), lo23 = pair(kLo[2], kLo[3]);
  const __m256i hi01 = pair(kHi[0], kHi[1]), hi23 = pair(kHi[2], kHi[3]);
  const __m256i round = _mm256_set1_epi32(32768);
  auto filt = [&](const int16_t* p, __m256i c01, __m256i c23) ADM_AVX2 {
    const __m256i x01 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p - 1));
    const __m256i x23 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 1));
    const __m256i s = _mm256_add_epi32(_mm256_madd_epi16(x01, c01), _mm256_madd_epi16(x23, c23));
    return _mm256_srai_epi32(_mm256_add_epi32(s, round), 16);  // |s| < 2^31: no wrap, result fits int16
  };
  int k = 0;
  for (; k + 8 <= n_out; k += 8) {
    const int16_t* pl = lo + 2 * k;
    const int16_t* ph = hi + 2 * k;
    _mm_storeu_si128(reinterpret_cast<__m128i*>(a + k), narrow16(filt(pl, lo01, lo23)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(v + k), narrow16(filt(pl, hi01, hi23)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(h + k), narrow16(filt(ph, lo01, lo23)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + k), narrow16(filt(ph, hi01, hi23)));
  }
  if (k < n_out) reference_kernels().dwt0_horizontal(lo + 2 * k, hi + 2 * k, n_out - k, a + k, v + k, h + k, d + k);
}

namespace {

// ---- decouple, scale 0 ----

ADM_AVX2 inline __m256i load16to32(const int16_t* p) {
  return _mm256_cvtepi16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

// 4 double-lane masks (from _mm256_cmp_pd) of two halves to one 8 x int32 mask.
ADM_AVX2 inline __m256i join_masks(__m256d lo, __m256d hi) {
  const __m256i idx = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
  const __m256i l = _mm256_permutevar8x32_epi32(_mm256_castpd_si256(lo), idx);
  const __m256i h = _mm256_permutevar8x32_epi32(_mm256_castpd_si256(hi), idx);
  return _mm256_permute2x128_si256(l, h, 0x20);
}

// Rounds double lanes to float and back.
ADM_AVX2 inline __m256d through_float(__m256d x) { return _mm256_cvtps_pd(_mm256_cvtpd_ps(x)); }

// angle_within_1deg on 4 lanes: the int products are exact in double (|.| <= 2^31), so
// float(double sum) is the int64 -> float conversion of the scalar code.
ADM_AVX2 inline __m256d angle4_from(__m256d dot, __m256d om, __m256d tm) {
  const __m256d scale = _mm256_set1_pd(1.0 / 4096.0);  // exact: division by 4096 is a scaling
  const __m256d x = _mm256_mul_pd(dot, scale);
  const __m256d rhs = _mm256_mul_pd(_mm256_mul_pd(_mm256_set1_pd(double(kCos1DegSq)), _mm256_mul_pd(om, scale)),
                                    _mm256_mul_pd(tm, scale));
  return _mm256_and_pd(_mm256_cmp_pd(x, _mm256_setzero_pd(), _CMP_GE_OQ),
                       _mm256_cmp_pd(_mm256_mul_pd(x, x), rhs, _CMP_GE_OQ));
}
ADM_AVX2 inline __m256d angle4(__m128i oh, __m128i ov, __m128i th, __m128i tv) {
  const __m256d a = _mm256_cvtepi32_pd(oh), b = _mm256_cvtepi32_pd(ov);
  const __m256d c = _mm256_cvtepi32_pd(th), e = _mm256_cvtepi32_pd(tv);
  const __m256d dot = through_float(_mm256_add_pd(_mm256_mul_pd(a, c), _mm256_mul_pd(b, e)));
  const __m256d om = through_float(_mm256_add_pd(_mm256_mul_pd(a, a), _mm256_mul_pd(b, b)));
  const __m256d tm = through_float(_mm256_add_pd(_mm256_mul_pd(c, c), _mm256_mul_pd(e, e)));
  return angle4_from(dot, om, tm);
}

// The gain limit on 4 lanes: min (o > 0) or max (o < 0) of rst * egl and t, truncated.
ADM_AVX2 inline __m128i limit4(__m128i rst, __m128i t, __m128i o_positive, __m256d egl) {
  const __m256d r = _mm256_mul_pd(_mm256_cvtepi32_pd(rst), egl);
  const __m256d td = _mm256_cvtepi32_pd(t);
  const __m128i lo = _mm256_cvttpd_epi32(_mm256_min_pd(r, td));  // (r < t) ? r : t, as MIN
  const __m128i hi = _mm256_cvttpd_epi32(_mm256_max_pd(r, td));  // (r > t) ? r : t, as MAX
  return _mm_blendv_epi8(hi, lo, o_positive);
}

// DIV[m] = floor(2^30 / m) for 8 lanes of m in 1..32768, computed instead of gathered (a gather is
// slower): the double quotient is correctly rounded and cannot reach the next integer (the true
// quotient is at least 1/m >= 2^-15 below it, far more than half an ulp at 2^30), so truncating it
// gives the table value. m = 0 gives garbage that the callers replace (o == 0 -> k = 2^15).
ADM_AVX2 inline __m256i reciprocal8(__m256i m) {
  const __m256d num = _mm256_set1_pd(1073741824.0);
  const __m128i lo = _mm256_cvttpd_epi32(_mm256_div_pd(num, _mm256_cvtepi32_pd(_mm256_castsi256_si128(m))));
  const __m128i hi = _mm256_cvttpd_epi32(_mm256_div_pd(num, _mm256_cvtepi32_pd(_mm256_extracti128_si256(m, 1))));
  return _mm256_set_m128i(hi, lo);
}

ADM_AVX2 void decouple0(const int16_t* const ref[3], const int16_t* const dis[3], int x0, int x1, double egl_value,
                             int16_t* const rst_out[3], int16_t* const q_out[3]) {
  const __m256d egl = _mm256_set1_pd(egl_value);
  const __m256i zero = _mm256_setzero_si256(), full = _mm256_set1_epi32(32768);
  const __m256i half = _mm256_set1_epi32(16384), low15 = _mm256_set1_epi32(0x7fff);
  int x = x0;
  for (; x < x1 && x1 - x0 >= 8; x = next_step(x, 8, x1)) {
    __m256i o[3], t[3];
    for (int i = 0; i < 3; ++i) {
      o[i] = load16to32(ref[i] + x);
      t[i] = load16to32(dis[i] + x);
    }
    const __m256i angle =
        join_masks(angle4(_mm256_castsi256_si128(o[0]), _mm256_castsi256_si128(o[1]), _mm256_castsi256_si128(t[0]),
                          _mm256_castsi256_si128(t[1])),
                   angle4(_mm256_extracti128_si256(o[0], 1), _mm256_extracti128_si256(o[1], 1),
                          _mm256_extracti128_si256(t[0], 1), _mm256_extracti128_si256(t[1], 1)));
    for (int i = 0; i < 3; ++i) {
      // k = (sign(o) DIV[|o|] t + 2^14) >> 15, with DIV = dh 2^15 + dl so every product fits int32.
      const __m256i m = _mm256_abs_epi32(o[i]);
      const __m256i div = reciprocal8(m);
      const __m256i ts = _mm256_sign_epi32(t[i], o[i]);
      const __m256i dh = _mm256_srli_epi32(div, 15), dl = _mm256_and_si256(div, low15);
      __m256i k = _mm256_add_epi32(_mm256_mullo_epi32(dh, ts),
                                   _mm256_srai_epi32(_mm256_add_epi32(_mm256_mullo_epi32(dl, ts), half), 15));
      const __m256i o_zero = _mm256_cmpeq_epi32(o[i], zero);
      k = _mm256_min_epi32(_mm256_max_epi32(k, zero), full);
      k = _mm256_blendv_epi8(k, full, o_zero);
      __m256i rst = _mm256_srai_epi32(_mm256_add_epi32(_mm256_mullo_epi32(k, o[i]), half), 15);
      // The limit applies where the angle test holds and k * o != 0.
      const __m256i apply =
          _mm256_andnot_si256(_mm256_or_si256(o_zero, _mm256_cmpeq_epi32(k, zero)), angle);
      if (!_mm256_testz_si256(apply, apply)) {
        const __m256i pos = _mm256_cmpgt_epi32(o[i], zero);
        const __m128i l0 = limit4(_mm256_castsi256_si128(rst), _mm256_castsi256_si128(t[i]),
                                  _mm256_castsi256_si128(pos), egl);
        const __m128i l1 = limit4(_mm256_extracti128_si256(rst, 1), _mm256_extracti128_si256(t[i], 1),
                                  _mm256_extracti128_si256(pos, 1), egl);
        rst = _mm256_blendv_epi8(rst, _mm256_set_m128i(l1, l0), apply);
      }
      _mm_storeu_si128(reinterpret_cast<__m128i*>(rst_out[i] + x), narrow16(rst));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(q_out[i] + x), narrow16(wrap16(_mm256_sub_epi32(t[i], rst))));
    }
  }
  if (x < x1) reference_kernels().decouple0(ref, dis, x, x1, egl_value, rst_out, q_out);
}

// ---- decouple, scales 1-3 ----
// Four columns per step, in int64 lanes: the gain needs the 64-bit product DIV[m] * t and a
// per-lane rounding shift 15 + e (e = how far |o| >= 2^15 was rounded down to 15 bits).

// max(v, 0) of int64 lanes.
ADM_AVX2 inline __m256i relu64(__m256i v) {
  return _mm256_andnot_si256(_mm256_cmpgt_epi64(_mm256_setzero_si256(), v), v);
}
// The low dwords of four int64 lanes as 4 x int32 (C's narrowing).
ADM_AVX2 inline __m128i low_dwords(__m256i v) {
  return _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6)));
}

// The angle test in double lanes is exact only while every product and 2-term sum is below 2^53:
// true when all four inputs are below 2^26 in magnitude (the usual case; callers check).
ADM_AVX2 inline bool angle_inputs_small(__m128i a, __m128i b, __m128i c, __m128i d) {
  const __m128i lim = _mm_set1_epi32((1 << 26) - 1);
  // abs(INT_MIN) stays negative, so the unsigned view compares it as big too.
  const __m128i big = _mm_or_si128(_mm_or_si128(_mm_cmpgt_epi32(_mm_abs_epi32(a), lim), _mm_cmpgt_epi32(_mm_abs_epi32(b), lim)),
                                   _mm_or_si128(_mm_cmpgt_epi32(_mm_abs_epi32(c), lim), _mm_cmpgt_epi32(_mm_abs_epi32(d), lim)));
  const __m128i neg = _mm_or_si128(_mm_or_si128(_mm_abs_epi32(a), _mm_abs_epi32(b)), _mm_or_si128(_mm_abs_epi32(c), _mm_abs_epi32(d)));
  return _mm_testz_si128(_mm_or_si128(big, _mm_srai_epi32(neg, 31)), _mm_set1_epi32(-1));
}

// decouple_scale123 on four columns of one orientation (angle: 4 x int32 all-ones where the test holds).
ADM_AVX2 inline void decouple4_123(__m128i o, __m128i t, __m128i angle, __m256d egl, int32_t* rst_out, int32_t* q_out) {
  const __m256i zero = _mm256_setzero_si256();
  const __m256i o64 = _mm256_cvtepi32_epi64(o), t64 = _mm256_cvtepi32_epi64(t);
  const __m128i m32 = _mm_abs_epi32(o);  // |o| as uint32 (2^31 for INT_MIN)
  const __m256i m64 = _mm256_cvtepu32_epi64(m32);
  // e = max(floor(log2 m) - 14, 0): the exponent of double(m / 2) (exact: m / 2 < 2^31) is floor(log2 m) - 1.
  const __m256d half_m = _mm256_cvtepi32_pd(_mm_srli_epi32(m32, 1));
  const __m256i e = relu64(_mm256_sub_epi64(_mm256_srli_epi64(_mm256_castpd_si256(half_m), 52), _mm256_set1_epi64x(1023 + 13)));
  // m rounded to 15 significant bits: (m + 2^(e-1)) >> e, the round term 0 when e = 0.
  const __m256i one = _mm256_set1_epi64x(1);
  const __m256i m_round = _mm256_srli_epi64(_mm256_sllv_epi64(one, e), 1);
  const __m256i idx = _mm256_srlv_epi64(_mm256_add_epi64(m64, m_round), e);
  const __m256i div = _mm256_cvtepi32_epi64(_mm256_i64gather_epi32(kReciprocal.div, idx, 4));
  // (DIV * t) * sign(o) + 2^(14+e), exact in int64 (|DIV * t| <= 2^61).
  __m256i prod = _mm256_mul_epi32(div, t64);
  const __m256i o_neg = _mm256_cmpgt_epi64(zero, o64);
  prod = _mm256_sub_epi64(_mm256_xor_si256(prod, o_neg), o_neg);
  const __m256i sum = _mm256_add_epi64(prod, _mm256_sllv_epi64(_mm256_set1_epi64x(int64_t(1) << 14), e));
  // k = clamp(sum >> (15 + e), 0, 32768): a negative sum shifts to a negative k, clamped to 0, so the
  // logical shift of the non-negative ones is enough.
  const __m256i full = _mm256_set1_epi64x(32768);
  __m256i k = _mm256_srlv_epi64(relu64(sum), _mm256_add_epi64(e, _mm256_set1_epi64x(15)));
  k = _mm256_blendv_epi8(k, full, _mm256_cmpgt_epi64(k, full));
  const __m256i o_zero = _mm256_cmpeq_epi64(o64, zero);
  k = _mm256_blendv_epi8(k, full, o_zero);
  // rst = int32((k * o + 2^14) >> 15): bits 15..46 of the exact product, which the logical shift keeps.
  __m128i rst = low_dwords(_mm256_srli_epi64(_mm256_add_epi64(_mm256_mul_epi32(k, o64), _mm256_set1_epi64x(16384)), 15));
  const __m128i apply = _mm_andnot_si128(low_dwords(_mm256_or_si256(o_zero, _mm256_cmpeq_epi64(k, zero))), angle);
  if (!_mm_testz_si128(apply, apply))
    rst = _mm_blendv_epi8(rst, limit4(rst, t, _mm_cmpgt_epi32(o, _mm_setzero_si128()), egl), apply);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(rst_out), rst);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(q_out), _mm_sub_epi32(t, rst));
}

// The three orientations of columns x..x+3 once the angle test is known.
ADM_AVX2 inline void decouple123_cols(const int32_t* const ref[3], const int32_t* const dis[3], int x, __m128i angle,
                                      __m256d egl, int32_t* const rst_out[3], int32_t* const q_out[3]) {
  for (int i = 0; i < 3; ++i)
    decouple4_123(_mm_loadu_si128(reinterpret_cast<const __m128i*>(ref[i] + x)),
                  _mm_loadu_si128(reinterpret_cast<const __m128i*>(dis[i] + x)), angle, egl, rst_out[i] + x,
                  q_out[i] + x);
}

ADM_AVX2 void decouple123(const int32_t* const ref[3], const int32_t* const dis[3], int x0, int x1, double egl_value,
                          int32_t* const rst_out[3], int32_t* const q_out[3]) {
  const __m256d egl = _mm256_set1_pd(egl_value);
  auto ld = [](const int32_t* p) ADM_AVX2 { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); };
  int x = x0;
  for (; x < x1 && x1 - x0 >= 4; x = next_step(x, 4, x1)) {
    const __m128i oh = ld(ref[0] + x), ov = ld(ref[1] + x), th = ld(dis[0] + x), tv = ld(dis[1] + x);
    if (!angle_inputs_small(oh, ov, th, tv)) {  // the exact int64 test, one cell at a time
      reference_kernels().decouple123(ref, dis, x, x + 4, egl_value, rst_out, q_out);
      continue;
    }
    decouple123_cols(ref, dis, x, low_dwords(_mm256_castpd_si256(angle4(oh, ov, th, tv))), egl, rst_out, q_out);
  }
  if (x < x1) reference_kernels().decouple123(ref, dis, x, x1, egl_value, rst_out, q_out);
}

// ---- CSF and masks, scale 0 ----

}  // namespace

ADM_AVX2 void csf0(const int16_t* const p[3], int x0, int x1, const uint16_t r0[3], int32_t* mask, int32_t* centre) {
  const __m256i c30 = _mm256_set1_epi32(4369), c15 = _mm256_set1_epi32(8738), r2048 = _mm256_set1_epi32(2048);
  int x = x0;
  for (; x < x1 && x1 - x0 >= 8; x = next_step(x, 8, x1)) {
    __m256i m = _mm256_setzero_si256(), c = _mm256_setzero_si256();
    for (int t = 0; t < 3; ++t) {
      const __m256i prod = _mm256_mullo_epi32(load16to32(p[t] + x), _mm256_set1_epi32(r0[t]));
      const __m256i v = t == 2 ? _mm256_srai_epi32(_mm256_add_epi32(prod, _mm256_set1_epi32(65535)), 17)
                               : _mm256_srai_epi32(_mm256_add_epi32(prod, _mm256_set1_epi32(16384)), 15);
      const __m256i a = _mm256_abs_epi32(wrap16(v));
      m = _mm256_add_epi32(m, wrap16(_mm256_srai_epi32(_mm256_add_epi32(_mm256_mullo_epi32(a, c30), r2048), 12)));
      c = _mm256_add_epi32(c, wrap16(_mm256_srai_epi32(_mm256_add_epi32(_mm256_mullo_epi32(a, c15), r2048), 12)));
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(mask + x), m);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(centre + x), c);
  }
  if (x < x1) reference_kernels().csf0(p, x, x1, r0, mask, centre);
}

namespace {

// ---- contrast masking, scale 0 ----

// x >= 0 (int32 lanes); adds the 8 cube terms (x2 * x + round) >> shift, with
// x2 = int32((x * x + sq_round) >> sq_shift), to the four int64 lanes of acc.
ADM_AVX2 inline __m256i add_cubes(__m256i acc, __m256i x, __m128i sq_shift, __m256i sq_round, __m128i cube_shift,
                                       __m256i cube_round) {
  const __m256i xe = x, xo = _mm256_srli_epi64(x, 32);  // even / odd int32 lanes in the low halves
  auto cube = [&](__m256i xv) ADM_AVX2 {
    const __m256i sq = _mm256_srl_epi64(_mm256_add_epi64(_mm256_mul_epu32(xv, xv), sq_round), sq_shift);
    // mul_epi32 reads the low int32 of each lane, sign-extended: the int32 truncation of x2.
    return srai64(_mm256_add_epi64(_mm256_mul_epi32(sq, xv), cube_round), cube_shift);
  };
  return _mm256_add_epi64(acc, _mm256_add_epi64(cube(xe), cube(xo)));
}

ADM_AVX2 inline __m256i threshold8(const int32_t* up, const int32_t* mid, const int32_t* down, const int32_t* mask,
                                        const int32_t* centre, int x) {
  auto ld = [x](const int32_t* p) ADM_AVX2 { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + x)); };
  return _mm256_add_epi32(_mm256_sub_epi32(_mm256_add_epi32(_mm256_add_epi32(ld(up), ld(mid)), ld(down)), ld(mask)),
                          ld(centre));
}

}  // namespace

ADM_AVX2 void cm0(const int16_t* const src[3], const int32_t* box_up, const int32_t* box_mid, const int32_t* box_down,
                       const int32_t* mask_mid, const int32_t* centre_mid, int x0, int x1, const uint16_t r0[3],
                       const uint32_t cube_shift[3], const int64_t cube_round[3], int64_t sums[3]) {
  __m256i acc[3] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
  __m128i cshift[3], sqshift[3];
  __m256i cround[3], sqround[3];
  for (int t = 0; t < 3; ++t) {
    cshift[t] = _mm_cvtsi32_si128(int(cube_shift[t]));
    cround[t] = _mm256_set1_epi64x(cube_round[t]);
    sqshift[t] = _mm_cvtsi32_si128(t == 2 ? 30 : 29);
    sqround[t] = _mm256_set1_epi64x(t == 2 ? (int64_t(1) << 29) : (int64_t(1) << 28));
  }
  int x = x0;
  for (; x + 8 <= x1; x += 8) {
    const __m256i thr = threshold8(box_up, box_mid, box_down, mask_mid, centre_mid, x);
    for (int t = 0; t < 3; ++t) {
      const __m256i v = _mm256_abs_epi32(_mm256_mullo_epi32(load16to32(src[t] + x), _mm256_set1_epi32(r0[t])));
      const __m256i sub = t == 2 ? _mm256_slli_epi32(thr, 12) : _mm256_slli_epi32(thr, 10);
      const __m256i xv = _mm256_max_epi32(_mm256_sub_epi32(v, sub), _mm256_setzero_si256());
      acc[t] = add_cubes(acc[t], xv, sqshift[t], sqround[t], cshift[t], cround[t]);
    }
  }
  for (int t = 0; t < 3; ++t) sums[t] += hsum64(acc[t]);
  if (x < x1)
    reference_kernels().cm0(src, box_up, box_mid, box_down, mask_mid, centre_mid, x, x1, r0, cube_shift, cube_round,
                         sums);
}

namespace {

// ---- denominator, scale 0 ----

ADM_AVX2 void den0(const int16_t* const ref[3], int x0, int x1, uint64_t sums[3]) {
  for (int t = 0; t < 3; ++t) {
    __m256i acc = _mm256_setzero_si256();
    int x = x0;
    for (; x + 8 <= x1; x += 8) {
      const __m256i a = _mm256_abs_epi32(load16to32(ref[t] + x));  // <= 32768
      const __m256i sq = _mm256_mullo_epi32(a, a);                    // <= 2^30
      acc = _mm256_add_epi64(acc, _mm256_mul_epu32(sq, a));
      acc = _mm256_add_epi64(acc, _mm256_mul_epu32(_mm256_srli_epi64(sq, 32), _mm256_srli_epi64(a, 32)));
    }
    sums[t] += uint64_t(hsum64(acc));
    for (; x < x1; ++x) sums[t] += den_cube_scale0(ref[t][x]);
  }
}

// ---- scales 1-3: CSF, masks, contrast masking, denominator ----

// Joins the int32 results held in the low dwords of two qword vectors (even and odd elements).
ADM_AVX2 inline __m256i join_even_odd(__m256i even, __m256i odd) {
  return _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
}

// int32((r * p + 2^27) >> 28) on 8 lanes, r < 2^31: the low 32 bits of an arithmetic shift by 28
// are bits 28..59 of the int64 product, which the logical shift gives too.
ADM_AVX2 inline __m256i csf8(__m256i p, __m256i r) {
  const __m256i round = _mm256_set1_epi64x(int64_t(1) << 27);
  const __m256i even = _mm256_srli_epi64(_mm256_add_epi64(_mm256_mul_epi32(p, r), round), 28);
  const __m256i odd = _mm256_srli_epi64(_mm256_add_epi64(_mm256_mul_epi32(_mm256_srli_epi64(p, 32), r), round), 28);
  return join_even_odd(even, odd);
}

// int32((k * |c| - 2^31) >> 32) on 8 lanes: the high dword of the int64 value (|c| <= 2^31 read
// as unsigned, as the scalar rule's int64 |c|).
ADM_AVX2 inline __m256i scaled_mask8(__m256i abs_c, __m256i k) {
  const __m256i bias = _mm256_set1_epi64x(int64_t(1) << 31);
  const __m256i even = _mm256_sub_epi64(_mm256_mul_epu32(abs_c, k), bias);
  const __m256i odd = _mm256_sub_epi64(_mm256_mul_epu32(_mm256_srli_epi64(abs_c, 32), k), bias);
  return _mm256_blend_epi32(_mm256_srli_epi64(even, 32), odd, 0xAA);
}

}  // namespace

ADM_AVX2 void csf123(const int32_t* const p[3], int x0, int x1, const uint32_t r[3], int32_t* mask, int32_t* centre) {
  if (!fits_int32_factors(r)) return reference_kernels().csf123(p, x0, x1, r, mask, centre);
  const __m256i k30 = _mm256_set1_epi32(143165577), k15 = _mm256_set1_epi32(286331153);
  int x = x0;
  for (; x < x1 && x1 - x0 >= 8; x = next_step(x, 8, x1)) {
    __m256i m = _mm256_setzero_si256(), c = _mm256_setzero_si256();
    for (int t = 0; t < 3; ++t) {
      const __m256i v = csf8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p[t] + x)),
                             _mm256_set1_epi32(int32_t(r[t])));
      const __m256i a = _mm256_abs_epi32(v);
      m = _mm256_add_epi32(m, scaled_mask8(a, k30));
      c = _mm256_add_epi32(c, scaled_mask8(a, k15));
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(mask + x), m);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(centre + x), c);
  }
  if (x < x1) reference_kernels().csf123(p, x, x1, r, mask, centre);
}

ADM_AVX2 void cm123(const int32_t* const src[3], const int32_t* box_up, const int32_t* box_mid, const int32_t* box_down,
                    const int32_t* mask_mid, const int32_t* centre_mid, int x0, int x1, const uint32_t r[3],
                    uint32_t cube_shift, int64_t cube_round, int64_t sums[3]) {
  if (!fits_int32_factors(r))
    return reference_kernels().cm123(src, box_up, box_mid, box_down, mask_mid, centre_mid, x0, x1, r, cube_shift,
                                  cube_round, sums);
  __m256i acc[3] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
  const __m128i cshift = _mm_cvtsi32_si128(int(cube_shift)), sqshift = _mm_cvtsi32_si128(30);
  const __m256i cround = _mm256_set1_epi64x(cube_round), sqround = _mm256_set1_epi64x(int64_t(1) << 29);
  int x = x0;
  for (; x + 8 <= x1; x += 8) {
    const __m256i thr = threshold8(box_up, box_mid, box_down, mask_mid, centre_mid, x);
    for (int t = 0; t < 3; ++t) {
      const __m256i v = _mm256_abs_epi32(csf8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(src[t] + x)),
                                              _mm256_set1_epi32(int32_t(r[t]))));
      const __m256i xv = _mm256_max_epi32(_mm256_sub_epi32(v, thr), _mm256_setzero_si256());
      acc[t] = add_cubes(acc[t], xv, sqshift, sqround, cshift, cround);
    }
  }
  for (int t = 0; t < 3; ++t) sums[t] += hsum64(acc[t]);
  if (x < x1)
    reference_kernels().cm123(src, box_up, box_mid, box_down, mask_mid, centre_mid, x, x1, r, cube_shift, cube_round,
                           sums);
}

namespace {

// Values below 2^30 keep (a^2 + 2^qs) >> qs within 32 bits (qs >= 30); larger ones (never seen
// in practice) take the scalar path for the row.
ADM_AVX2 void den123(const int32_t* const ref[3], int x0, int x1, uint32_t sq_shift, uint32_t cube_shift,
                     uint64_t cube_round, uint64_t sums[3]) {
  const int n8 = x0 + (x1 - x0) / 8 * 8;
  __m256i big = _mm256_setzero_si256();
  const __m256i limit = _mm256_set1_epi32((1 << 30) - 1);
  for (int t = 0; t < 3; ++t)
    for (int x = x0; x < n8; x += 8) {
      const __m256i a = _mm256_abs_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(ref[t] + x)));
      // abs(INT_MIN) stays negative: its sign bit flags it like the compare's all-ones.
      big = _mm256_or_si256(big, _mm256_or_si256(_mm256_cmpgt_epi32(a, limit), a));
    }
  if (!_mm256_testz_si256(big, _mm256_set1_epi32(int32_t(0x80000000u))) || sq_shift < 30)
    return reference_kernels().den123(ref, x0, x1, sq_shift, cube_shift, cube_round, sums);
  const __m128i sqs = _mm_cvtsi32_si128(int(sq_shift)), cs = _mm_cvtsi32_si128(int(cube_shift));
  const __m256i sqr = _mm256_set1_epi64x(int64_t(1) << sq_shift), cr = _mm256_set1_epi64x(int64_t(cube_round));
  for (int t = 0; t < 3; ++t) {
    __m256i acc = _mm256_setzero_si256();
    for (int x = x0; x < n8; x += 8) {
      const __m256i a = _mm256_abs_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(ref[t] + x)));
      const __m256i halves[2] = {a, _mm256_srli_epi64(a, 32)};  // even / odd elements
      for (const __m256i& av : halves) {
        const __m256i u = _mm256_srl_epi64(_mm256_add_epi64(_mm256_mul_epu32(av, av), sqr), sqs);
        acc = _mm256_add_epi64(acc, _mm256_srl_epi64(_mm256_add_epi64(_mm256_mul_epu32(u, av), cr), cs));
      }
    }
    sums[t] += uint64_t(hsum64(acc));
    for (int x = n8; x < x1; ++x) sums[t] += den_cube_scale123(ref[t][x], sq_shift, cube_shift, cube_round);
  }
}

// ---- DWT, scales 1-3, in double lanes ----
// Inputs are int32 and taps below 2^15, so every product (< 2^46) and 4-term sum (< 2^48) is exact
// in double; adding the rounding term, scaling by 2^-shift and flooring are exact too. The int32
// narrowing of the int64 result is the low 32 bits of the exact integer, read from the mantissa
// after adding 1.5 * 2^52 (valid below 2^51 in magnitude).

ADM_AVX2 inline __m128i floor_to_int32(__m256d sum, __m256d round, __m256d scale) {
  const __m256d v = _mm256_floor_pd(_mm256_mul_pd(_mm256_add_pd(sum, round), scale));
  const __m256i bits = _mm256_castpd_si256(_mm256_add_pd(v, _mm256_set1_pd(6755399441055744.0)));
  const __m256i low = _mm256_permutevar8x32_epi32(bits, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6));
  return _mm256_castsi256_si128(low);
}

ADM_AVX2 inline __m256d filter4(const __m256d x[4], const int32_t* c) {
  __m256d s = _mm256_mul_pd(x[0], _mm256_set1_pd(c[0]));
  for (int t = 1; t < 4; ++t) s = _mm256_add_pd(s, _mm256_mul_pd(x[t], _mm256_set1_pd(c[t])));
  return s;
}

}  // namespace

ADM_AVX2 void dwt_vertical(const int32_t* const rows[4], int n, int shift, int64_t round, int32_t* lo, int32_t* hi) {
  const __m256d r = _mm256_set1_pd(double(round)), sc = _mm256_set1_pd(std::ldexp(1.0, -shift));
  int x = 0;
  for (; x + 4 <= n; x += 4) {
    __m256d v[4];
    for (int t = 0; t < 4; ++t)
      v[t] = _mm256_cvtepi32_pd(_mm_loadu_si128(reinterpret_cast<const __m128i*>(rows[t] + x)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(lo + x), floor_to_int32(filter4(v, kLo), r, sc));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(hi + x), floor_to_int32(filter4(v, kHi), r, sc));
  }
  if (x < n) {
    const int32_t* tail[4] = {rows[0] + x, rows[1] + x, rows[2] + x, rows[3] + x};
    reference_kernels().dwt_vertical(tail, n - x, shift, round, lo + x, hi + x);
  }
}

// From int16 rows (scale 1): every 4-tap sum is below 54822 * 2^15 < 2^31, so the madd sums are
// exact in int32 and so is adding the rounding term (< 2^16) and the arithmetic shift.
ADM_AVX2 void dwt_vertical16(const int16_t* const rows[4], int n, int shift, int64_t round, int32_t* lo, int32_t* hi) {
  const __m128i sh = _mm_cvtsi32_si128(shift);
  const __m256i r = _mm256_set1_epi32(int32_t(round));
  const __m256i lo01 = pair(kLo[0], kLo[1]), lo23 = pair(kLo[2], kLo[3]);
  const __m256i hi01 = pair(kHi[0], kHi[1]), hi23 = pair(kHi[2], kHi[3]);
  auto ld16 = [](const int16_t* p) ADM_AVX2 { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); };
  // unpacklo / unpackhi hold columns 0-3, 8-11 / 4-7, 12-15: permute2x128 restores the order.
  auto store = [](int32_t* p, __m256i a, __m256i b) ADM_AVX2 {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), _mm256_permute2x128_si256(a, b, 0x20));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p + 8), _mm256_permute2x128_si256(a, b, 0x31));
  };
  int x = 0;
  for (; x + 16 <= n; x += 16) {
    const __m256i s0 = ld16(rows[0] + x), s1 = ld16(rows[1] + x), s2 = ld16(rows[2] + x), s3 = ld16(rows[3] + x);
    const __m256i a01 = _mm256_unpacklo_epi16(s0, s1), b01 = _mm256_unpackhi_epi16(s0, s1);
    const __m256i a23 = _mm256_unpacklo_epi16(s2, s3), b23 = _mm256_unpackhi_epi16(s2, s3);
    auto filt = [&](__m256i x01, __m256i x23, __m256i c01, __m256i c23) ADM_AVX2 {
      const __m256i s = _mm256_add_epi32(_mm256_madd_epi16(x01, c01), _mm256_madd_epi16(x23, c23));
      return _mm256_sra_epi32(_mm256_add_epi32(s, r), sh);
    };
    store(lo + x, filt(a01, a23, lo01, lo23), filt(b01, b23, lo01, lo23));
    store(hi + x, filt(a01, a23, hi01, hi23), filt(b01, b23, hi01, hi23));
  }
  if (x < n) {
    const int16_t* tail[4] = {rows[0] + x, rows[1] + x, rows[2] + x, rows[3] + x};
    dwt_vertical_rows(tail, n - x, shift, round, lo + x, hi + x);
  }
}

namespace {

// Taps of outputs k..k+3: p[2k-1 + t], split from two loads into even / odd positions.
ADM_AVX2 inline void horizontal_taps(const int32_t* p, __m256d x[4]) {
  const __m256i idx = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
  const __m256i a = _mm256_permutevar8x32_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p - 1)), idx);
  const __m256i b = _mm256_permutevar8x32_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 1)), idx);
  x[0] = _mm256_cvtepi32_pd(_mm256_castsi256_si128(a));
  x[1] = _mm256_cvtepi32_pd(_mm256_extracti128_si256(a, 1));
  x[2] = _mm256_cvtepi32_pd(_mm256_castsi256_si128(b));
  x[3] = _mm256_cvtepi32_pd(_mm256_extracti128_si256(b, 1));
}

}  // namespace

ADM_AVX2 void dwt_horizontal(const int32_t* lo, const int32_t* hi, int n_out, int shift, int64_t round, int32_t* a,
                             int32_t* v, int32_t* h, int32_t* d) {
  const __m256d r = _mm256_set1_pd(double(round)), sc = _mm256_set1_pd(std::ldexp(1.0, -shift));
  int k = 0;
  // Loads reach p[2k + 8]: keep k + 4 < n_out so they stay inside the padded line.
  for (; k + 5 <= n_out; k += 4) {
    __m256d xl[4], xh[4];
    horizontal_taps(lo + 2 * k, xl);
    horizontal_taps(hi + 2 * k, xh);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(a + k), floor_to_int32(filter4(xl, kLo), r, sc));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(v + k), floor_to_int32(filter4(xl, kHi), r, sc));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(h + k), floor_to_int32(filter4(xh, kLo), r, sc));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + k), floor_to_int32(filter4(xh, kHi), r, sc));
  }
  if (k < n_out)
    reference_kernels().dwt_horizontal(lo + 2 * k, hi + 2 * k, n_out - k, shift, round, a + k, v + k, h + k, d + k);
}

void init_avx2(RowKernels& k) {
  k.dwt0_vertical_u8 = dwt0_vertical_u8;
  k.dwt0_vertical_u16 = dwt0_vertical_u16;
  k.dwt0_horizontal = dwt0_horizontal;
  k.decouple0 = decouple0;
  k.csf0 = csf0;
  k.cm0 = cm0;
  k.den0 = den0;
  k.dwt_vertical = dwt_vertical;
  k.dwt_horizontal = dwt_horizontal;
  k.dwt123 = dwt123_by_passes<dwt_vertical, dwt_horizontal, int32_t>;
  k.dwt1 = dwt123_by_passes<dwt_vertical16, dwt_horizontal, int16_t>;
  k.decouple123 = decouple123;
  k.csf123 = csf123;
  k.cm123 = cm123;
  k.den123 = den123;
}

}  // namespace vqtwin::integer_adm::x86

#endif
