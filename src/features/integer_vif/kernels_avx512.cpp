// integer VIF kernels, AVX-512 (F, BW, DQ, VL and VNNI): the AVX2 set of kernels_avx2.cpp with its
// scale-0 vertical pass, horizontal pass, statistic and downsampling passes 32 columns at a time.
//
// The same integers as the AVX2 code, twice as wide; vpdpwssd (multiply-add-accumulate) gives
// exactly madd + add (both wrap mod 2^32, and no pair here is (-32768, -32768)). pack/unpack work
// within 128-bit lanes as in AVX2, so the column permutations are the same, per 128-bit lane. Blocks
// of fewer than 32 columns fall through to the AVX2 passes, which take a start column
// (kernels_x86.hpp); so this set needs AVX2 allowed too (kernels.cpp).
#include <algorithm>

#include "common/isa.hpp"
#include "features/integer_vif/kernels_x86.hpp"

#if VQTWIN_X86_VARIANTS
// GCC 12's AVX-512 intrinsics start from _mm512_undefined_*() values, which -Wmaybe-uninitialized
// reports at every inlined use (a false positive).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

namespace vqtwin::integer_vif::x86 {
namespace {

#define VIF_AVX512 __attribute__((target("avx2,avx512f,avx512cd,avx512bw,avx512dq,avx512vl,avx512vnni")))

VIF_AVX512 inline __m512i flip31w(__m512i v) { return _mm512_xor_si512(v, _mm512_set1_epi32(INT32_MIN)); }

VIF_AVX512 inline __m512i mul_hi_round_w(__m512i a, __m512i b) {
  const __m512i r = _mm512_set1_epi64(0x80000000LL);
  const __m512i pe = _mm512_add_epi64(_mm512_mul_epu32(a, b), r);
  const __m512i po = _mm512_add_epi64(_mm512_mul_epu32(_mm512_srli_epi64(a, 32), _mm512_srli_epi64(b, 32)), r);
  return _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(pe, 32), po);
}

VIF_AVX512 inline void store_offset16_w(std::int16_t* dst, __m512i lo, __m512i hi) {
  const __m512i k = _mm512_set1_epi32(32768);
  _mm512_storeu_si512(dst, _mm512_packs_epi32(_mm512_sub_epi32(lo, k), _mm512_sub_epi32(hi, k)));
}

VIF_AVX512 inline void store_split16_w(std::int16_t* dst_lo, std::int16_t* dst_hi, __m512i lo, __m512i hi) {
  const __m512i m = _mm512_set1_epi32(0x8000);
  const __m512i l0 = _mm512_srai_epi32(_mm512_slli_epi32(_mm512_xor_si512(lo, m), 16), 16);
  const __m512i l1 = _mm512_srai_epi32(_mm512_slli_epi32(_mm512_xor_si512(hi, m), 16), 16);
  _mm512_storeu_si512(dst_lo, _mm512_packs_epi32(l0, l1));
  store_offset16_w(dst_hi, _mm512_srli_epi32(lo, 16), _mm512_srli_epi32(hi, 16));
}

struct Elements8w {
  __m512i x, y, uu, vv, uv;
};

VIF_AVX512 inline Elements8w elements8_w(const std::uint8_t* xr, const std::uint8_t* yr) {
  const __m512i x = _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(xr)));
  const __m512i y = _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(yr)));
  const __m512i c128 = _mm512_set1_epi16(128);
  const __m512i u = _mm512_sub_epi16(x, c128), v = _mm512_sub_epi16(y, c128);
  return {x, y, _mm512_sub_epi16(_mm512_mullo_epi16(u, u), _mm512_set1_epi16(8192)),
          _mm512_sub_epi16(_mm512_mullo_epi16(v, v), _mm512_set1_epi16(8192)),
          _mm512_sub_epi16(_mm512_mullo_epi16(u, v), _mm512_set1_epi16(64))};
}

VIF_AVX512 inline Elements8w fold8_w(const Elements8w& a, const Elements8w& b) {
  return {_mm512_add_epi16(a.x, b.x), _mm512_add_epi16(a.y, b.y), _mm512_add_epi16(a.uu, b.uu),
          _mm512_add_epi16(a.vv, b.vv), _mm512_add_epi16(a.uv, b.uv)};
}

struct Acc2w {
  __m512i lo, hi;
};

VIF_AVX512 inline void madd_pair_w(Acc2w& acc, __m512i a, __m512i b, __m512i coef) {
  acc.lo = _mm512_dpwssd_epi32(acc.lo, _mm512_unpacklo_epi16(a, b), coef);
  acc.hi = _mm512_dpwssd_epi32(acc.hi, _mm512_unpackhi_epi16(a, b), coef);
}

// vertical_u8, 32 columns at a time.
VIF_AVX512 void vertical_u8_w(const std::uint8_t* const* rx, const std::uint8_t* const* ry, int w, MomentShifts sh,
                              const PlaneRows& pr) {
  constexpr Kernel k = kernel_of(0);
  const int nterms = k.half + 1;
  __m512i coef[(kMaxHalf + 2) / 2];
  for (int i = 0; 2 * i < nterms; ++i) {
    const std::uint32_t c0 = k.taps[k.half - 2 * i];
    const std::uint32_t c1 = 2 * i + 1 < nterms ? k.taps[k.half - 2 * i - 1] : 0u;
    coef[i] = _mm512_set1_epi32(std::int32_t((c1 << 16) | c0));
  }
  const __m128i mean_shift = _mm_cvtsi32_si128(int(sh.mean.shift));
  const __m512i mean_round = _mm512_set1_epi32(std::int32_t(sh.mean.round));
  int j = 0;
  for (; j + 32 <= w; j += 32) {
    const __m512i z = _mm512_setzero_si512();
    Acc2w ax{z, z}, ay{z, z}, uu{z, z}, vv{z, z}, uv{z, z};
    for (int i = 0; 2 * i < nterms; ++i) {
      const int t0 = 2 * i, t1 = 2 * i + 1;
      auto term = [&](int t) VIF_AVX512 {
        if (t == 0) return elements8_w(rx[k.half] + j, ry[k.half] + j);
        return fold8_w(elements8_w(rx[k.half - t] + j, ry[k.half - t] + j),
                       elements8_w(rx[k.half + t] + j, ry[k.half + t] + j));
      };
      const Elements8w a = term(t0);
      const Elements8w b = t1 < nterms ? term(t1) : Elements8w{z, z, z, z, z};
      madd_pair_w(ax, a.x, b.x, coef[i]);
      madd_pair_w(ay, a.y, b.y, coef[i]);
      madd_pair_w(uu, a.uu, b.uu, coef[i]);
      madd_pair_w(vv, a.vv, b.vv, coef[i]);
      madd_pair_w(uv, a.uv, b.uv, coef[i]);
    }
    const __m512i c29 = _mm512_set1_epi32(1 << 29);
    const __m512i cxy = _mm512_set1_epi32((1 << 22) - (1 << 30));
    auto finish = [&](__m512i sx, __m512i sy, __m512i suu, __m512i svv, __m512i suv, __m512i out[5]) VIF_AVX512 {
      out[0] = _mm512_srl_epi32(_mm512_add_epi32(sx, mean_round), mean_shift);
      out[1] = _mm512_srl_epi32(_mm512_add_epi32(sy, mean_round), mean_shift);
      out[2] = _mm512_sub_epi32(_mm512_add_epi32(suu, _mm512_slli_epi32(sx, 8)), c29);
      out[3] = _mm512_sub_epi32(_mm512_add_epi32(svv, _mm512_slli_epi32(sy, 8)), c29);
      out[4] = _mm512_add_epi32(_mm512_add_epi32(suv, _mm512_slli_epi32(_mm512_add_epi32(sx, sy), 7)), cxy);
    };
    __m512i lo[5], hi[5];
    finish(ax.lo, ay.lo, uu.lo, vv.lo, uv.lo, lo);
    finish(ax.hi, ay.hi, uu.hi, vv.hi, uv.hi, hi);
    store_offset16_w(pr.p[kAx] + j, lo[0], hi[0]);
    store_offset16_w(pr.p[kAy] + j, lo[1], hi[1]);
    store_split16_w(pr.p[kBxxLo] + j, pr.p[kBxxHi] + j, lo[2], hi[2]);
    store_split16_w(pr.p[kByyLo] + j, pr.p[kByyHi] + j, lo[3], hi[3]);
    store_split16_w(pr.p[kBxyLo] + j, pr.p[kBxyHi] + j, lo[4], hi[4]);
  }
  vertical_u8(rx, ry, j, w, sh, pr);  // the AVX2 pass
}

// The vertical mean (as vertical_mean_w) of 32 columns of 8-bit samples, sample(t) the widened row at
// tap offset t (-half..half from the centre). The symmetric taps are folded first (two samples sum to at
// most 510), so kernel 1's 9 taps take 3 multiply-add pairs instead of 5; the sum is the same integer.
template <int Scale, class Sample>
VIF_AVX512 inline void vertical_mean_folded_w(Sample sample, Shift sh, std::int16_t* out) {
  constexpr Kernel k = kernel_of(Scale);
  constexpr int nterms = k.half + 1;
  const __m512i z = _mm512_setzero_si512();
  auto term = [&](int d) VIF_AVX512 { return d == 0 ? sample(0) : _mm512_add_epi16(sample(-d), sample(d)); };
  Acc2w acc{z, z};
  for (int i = 0; 2 * i < nterms; ++i) {
    const std::uint32_t c0 = k.taps[k.half - 2 * i];
    const std::uint32_t c1 = 2 * i + 1 < nterms ? k.taps[k.half - 2 * i - 1] : 0u;
    madd_pair_w(acc, term(2 * i), 2 * i + 1 < nterms ? term(2 * i + 1) : z,
                _mm512_set1_epi32(std::int32_t((c1 << 16) | c0)));
  }
  const __m128i shift = _mm_cvtsi32_si128(int(sh.shift));
  const __m512i round = _mm512_set1_epi32(std::int32_t(sh.round));
  store_offset16_w(out, _mm512_srl_epi32(_mm512_add_epi32(acc.lo, round), shift),
                   _mm512_srl_epi32(_mm512_add_epi32(acc.hi, round), shift));
}

// vertical_u8_w for a band of `rows` consecutive output rows (at most kBand): rx[r], ry[r] for r in
// 0..rows+15 are the input rows of the band (output row o is the window rx[o..o+16]). Each 32-column block
// computes the elements (widened samples and offset products) of its rows+16 input rows once, into a
// stack buffer the band's windows then read, instead of once per window: 17 products per sample and
// window become (rows+16)/rows. The sums are the same integers as vertical_u8_w's. The rows+16 input
// rows of both pictures are more than L1 holds, so each block prefetches the next block's 64 bytes of
// every input row (the hardware prefetchers do not follow 48 row streams).
constexpr int kBand = 8;

// Where vertical_u8_band_w also writes the first pass of the downsampling to scale 1 (vertical_mean_w's
// offset int16 rows, kernel 1) for the band's output rows downsampling keeps: from the same widened
// samples, while they are at hand, instead of reading both pictures again afterwards.
struct DownRows {
  std::int16_t* x[kBand];  // nullptr: a row downsampling skips
  std::int16_t* y[kBand];
};

VIF_AVX512 void vertical_u8_band_w(const std::uint8_t* const* rx, const std::uint8_t* const* ry, int rows, int w,
                                   MomentShifts sh, const PlaneRows* pr, const DownRows* down) {
  constexpr Kernel k = kernel_of(0);
  const int nterms = k.half + 1;
  __m512i coef[(kMaxHalf + 2) / 2];
  for (int i = 0; 2 * i < nterms; ++i) {
    const std::uint32_t c0 = k.taps[k.half - 2 * i];
    const std::uint32_t c1 = 2 * i + 1 < nterms ? k.taps[k.half - 2 * i - 1] : 0u;
    coef[i] = _mm512_set1_epi32(std::int32_t((c1 << 16) | c0));
  }
  const __m128i mean_shift = _mm_cvtsi32_si128(int(sh.mean.shift));
  const __m512i mean_round = _mm512_set1_epi32(std::int32_t(sh.mean.round));
  const Shift dsh = downsample_shift(8, 0);
  Elements8w e[kBand + 2 * kMaxHalf];
  int j = 0;
  for (; j + 32 <= w; j += 32) {
    for (int r = 0; r < rows + 2 * k.half; ++r) {
      _mm_prefetch(reinterpret_cast<const char*>(rx[r] + j + 64), _MM_HINT_T0);
      _mm_prefetch(reinterpret_cast<const char*>(ry[r] + j + 64), _MM_HINT_T0);
      e[r] = elements8_w(rx[r] + j, ry[r] + j);
    }
    if (down != nullptr) {
      for (int o = 0; o < rows; ++o)
        if (down->x[o] != nullptr) {
          const Elements8w* c = e + o + k.half;
          vertical_mean_folded_w<1>([&](int t) VIF_AVX512 { return c[t].x; }, dsh, down->x[o] + j);
          vertical_mean_folded_w<1>([&](int t) VIF_AVX512 { return c[t].y; }, dsh, down->y[o] + j);
        }
    }
    for (int o = 0; o < rows; ++o) {
      const Elements8w* c = e + o + k.half;  // the window's centre row
      const __m512i z = _mm512_setzero_si512();
      Acc2w ax{z, z}, ay{z, z}, uu{z, z}, vv{z, z}, uv{z, z};
      for (int i = 0; 2 * i < nterms; ++i) {
        const int t0 = 2 * i, t1 = 2 * i + 1;
        auto term = [&](int t) VIF_AVX512 { return t == 0 ? c[0] : fold8_w(c[-t], c[t]); };
        const Elements8w a = term(t0);
        const Elements8w b = t1 < nterms ? term(t1) : Elements8w{z, z, z, z, z};
        madd_pair_w(ax, a.x, b.x, coef[i]);
        madd_pair_w(ay, a.y, b.y, coef[i]);
        madd_pair_w(uu, a.uu, b.uu, coef[i]);
        madd_pair_w(vv, a.vv, b.vv, coef[i]);
        madd_pair_w(uv, a.uv, b.uv, coef[i]);
      }
      const __m512i c29 = _mm512_set1_epi32(1 << 29);
      const __m512i cxy = _mm512_set1_epi32((1 << 22) - (1 << 30));
      auto finish = [&](__m512i sx, __m512i sy, __m512i suu, __m512i svv, __m512i suv, __m512i out[5]) VIF_AVX512 {
        out[0] = _mm512_srl_epi32(_mm512_add_epi32(sx, mean_round), mean_shift);
        out[1] = _mm512_srl_epi32(_mm512_add_epi32(sy, mean_round), mean_shift);
        out[2] = _mm512_sub_epi32(_mm512_add_epi32(suu, _mm512_slli_epi32(sx, 8)), c29);
        out[3] = _mm512_sub_epi32(_mm512_add_epi32(svv, _mm512_slli_epi32(sy, 8)), c29);
        out[4] = _mm512_add_epi32(_mm512_add_epi32(suv, _mm512_slli_epi32(_mm512_add_epi32(sx, sy), 7)), cxy);
      };
      __m512i lo[5], hi[5];
      finish(ax.lo, ay.lo, uu.lo, vv.lo, uv.lo, lo);
      finish(ax.hi, ay.hi, uu.hi, vv.hi, uv.hi, hi);
      const PlaneRows& q = pr[o];
      store_offset16_w(q.p[kAx] + j, lo[0], hi[0]);
      store_offset16_w(q.p[kAy] + j, lo[1], hi[1]);
      store_split16_w(q.p[kBxxLo] + j, q.p[kBxxHi] + j, lo[2], hi[2]);
      store_split16_w(q.p[kByyLo] + j, q.p[kByyHi] + j, lo[3], hi[3]);
      store_split16_w(q.p[kBxyLo] + j, q.p[kBxyHi] + j, lo[4], hi[4]);
    }
  }
  for (int o = 0; o < rows; ++o) {  // the AVX2 passes
    vertical_u8(rx + o, ry + o, j, w, sh, pr[o]);
    if (down != nullptr && down->x[o] != nullptr) {
      constexpr int d = k.half - kernel_of(1).half;  // the kernel-1 window of output row o starts at o + d
      vertical_mean(rx + o + d, kernel_of(1), j, w, dsh, down->x[o]);
      vertical_mean(ry + o + d, kernel_of(1), j, w, dsh, down->y[o]);
    }
  }
}

VIF_AVX512 inline __m512i load16_w(const std::uint16_t* p) { return _mm512_loadu_si512(p); }

// The last step of the 16-bit vertical passes (row and band): the offset int32 sums of the means and of
// the two 16-bit halves of each product, shifted with rounding as moment_shifts() says.
struct MomentFinish16w {
  __m128i mean_shift, sq_shift, sq_up;
  __m512i mean_round, sq_round;
  VIF_AVX512 explicit MomentFinish16w(MomentShifts sh)
      : mean_shift(_mm_cvtsi32_si128(int(sh.mean.shift))),
        sq_shift(_mm_cvtsi32_si128(int(sh.square.shift))),
        sq_up(_mm_cvtsi32_si128(int(16 - sh.square.shift))),
        mean_round(_mm512_set1_epi32(std::int32_t(sh.mean.round))),
        sq_round(_mm512_set1_epi32(std::int32_t(sh.square.round))) {}
  VIF_AVX512 __m512i mean(__m512i v) const {
    return _mm512_srl_epi32(_mm512_add_epi32(flip31w(v), mean_round), mean_shift);
  }
  VIF_AVX512 __m512i square(__m512i s_lo, __m512i s_hi) const {
    return _mm512_add_epi32(_mm512_sll_epi32(flip31w(s_hi), sq_up),
                            _mm512_srl_epi32(_mm512_add_epi32(flip31w(s_lo), sq_round), sq_shift));
  }
};

// vertical_u16_s, 32 columns at a time.
template <int Scale>
VIF_AVX512 void vertical_u16_w_s(const std::uint16_t* const* rx, const std::uint16_t* const* ry, int w,
                                 MomentShifts sh, const PlaneRows& pr) {
  constexpr Kernel k = kernel_of(Scale);
  constexpr PairTaps pt = pair_taps(k);
  __m512i coef[9];
  for (int i = 0; i < pt.n; ++i) coef[i] = _mm512_set1_epi32(pt.coef[i]);
  const __m512i flip = _mm512_set1_epi16(INT16_MIN);
  const MomentFinish16w fin(sh);
  auto square = [&](__m512i s_lo, __m512i s_hi) VIF_AVX512 { return fin.square(s_lo, s_hi); };
  auto mean = [&](__m512i v) VIF_AVX512 { return fin.mean(v); };
  int j = 0;
  for (; j + 32 <= w; j += 32) {
    const __m512i z = _mm512_setzero_si512();
    Acc2w ax{z, z}, ay{z, z}, xyl{z, z}, xyh{z, z};
    for (int i = 0; i < pt.n; ++i) {
      const int t0 = pt.offset[i];
      const int t1 = t0 + 1 < k.size ? t0 + 1 : t0;
      const __m512i xa = load16_w(rx[t0] + j), xb = load16_w(rx[t1] + j);
      const __m512i ya = load16_w(ry[t0] + j), yb = load16_w(ry[t1] + j);
      madd_pair_w(ax, _mm512_xor_si512(xa, flip), _mm512_xor_si512(xb, flip), coef[i]);
      madd_pair_w(ay, _mm512_xor_si512(ya, flip), _mm512_xor_si512(yb, flip), coef[i]);
      madd_pair_w(xyl, _mm512_xor_si512(_mm512_mullo_epi16(xa, ya), flip),
                  _mm512_xor_si512(_mm512_mullo_epi16(xb, yb), flip), coef[i]);
      madd_pair_w(xyh, _mm512_xor_si512(_mm512_mulhi_epu16(xa, ya), flip),
                  _mm512_xor_si512(_mm512_mulhi_epu16(xb, yb), flip), coef[i]);
    }
    store_offset16_w(pr.p[kAx] + j, mean(ax.lo), mean(ax.hi));
    store_offset16_w(pr.p[kAy] + j, mean(ay.lo), mean(ay.hi));
    store_split16_w(pr.p[kBxyLo] + j, pr.p[kBxyHi] + j, square(xyl.lo, xyh.lo), square(xyl.hi, xyh.hi));
    Acc2w xxl{z, z}, xxh{z, z}, yyl{z, z}, yyh{z, z};
    for (int i = 0; i < pt.n; ++i) {
      const int t0 = pt.offset[i];
      const int t1 = t0 + 1 < k.size ? t0 + 1 : t0;
      const __m512i xa = load16_w(rx[t0] + j), xb = load16_w(rx[t1] + j);
      const __m512i ya = load16_w(ry[t0] + j), yb = load16_w(ry[t1] + j);
      madd_pair_w(xxl, _mm512_xor_si512(_mm512_mullo_epi16(xa, xa), flip),
                  _mm512_xor_si512(_mm512_mullo_epi16(xb, xb), flip), coef[i]);
      madd_pair_w(xxh, _mm512_xor_si512(_mm512_mulhi_epu16(xa, xa), flip),
                  _mm512_xor_si512(_mm512_mulhi_epu16(xb, xb), flip), coef[i]);
      madd_pair_w(yyl, _mm512_xor_si512(_mm512_mullo_epi16(ya, ya), flip),
                  _mm512_xor_si512(_mm512_mullo_epi16(yb, yb), flip), coef[i]);
      madd_pair_w(yyh, _mm512_xor_si512(_mm512_mulhi_epu16(ya, ya), flip),
                  _mm512_xor_si512(_mm512_mulhi_epu16(yb, yb), flip), coef[i]);
    }
    store_split16_w(pr.p[kBxxLo] + j, pr.p[kBxxHi] + j, square(xxl.lo, xxh.lo), square(xxl.hi, xxh.hi));
    store_split16_w(pr.p[kByyLo] + j, pr.p[kByyHi] + j, square(yyl.lo, yyh.lo), square(yyl.hi, yyh.hi));
  }
  vertical_u16(rx, ry, k, j, w, sh, pr);  // the AVX2 pass
}

// vertical_u16_w_s for a band of `rows` consecutive output rows (at most kBand) of scales 1-3: rx[r], ry[r]
// for r in 0..rows+size-2 are the band's input rows. Each 32-column block forms the elements of its input
// rows (the flipped samples and the flipped low and high halves of their products, as vertical_u16_w_s
// does per window) once, into a stack buffer the windows read: the multiplies were most of the pass's
// work on the multiply port, 9 times per sample at scale 1. Same integers as vertical_u16_w_s.
struct Elements16w {
  __m512i x, y, xy_lo, xy_hi, xx_lo, xx_hi, yy_lo, yy_hi;
};

VIF_AVX512 inline Elements16w elements16_w(const std::uint16_t* xr, const std::uint16_t* yr) {
  const __m512i flip = _mm512_set1_epi16(INT16_MIN);
  const __m512i x = load16_w(xr), y = load16_w(yr);
  auto f = [&](__m512i v) VIF_AVX512 { return _mm512_xor_si512(v, flip); };
  return {f(x),
          f(y),
          f(_mm512_mullo_epi16(x, y)),
          f(_mm512_mulhi_epu16(x, y)),
          f(_mm512_mullo_epi16(x, x)),
          f(_mm512_mulhi_epu16(x, x)),
          f(_mm512_mullo_epi16(y, y)),
          f(_mm512_mulhi_epu16(y, y))};
}

template <int Scale>
VIF_AVX512 void vertical_u16_band_w_s(const std::uint16_t* const* rx, const std::uint16_t* const* ry, int rows,
                                      int w, MomentShifts sh, const PlaneRows* pr) {
  static_assert(Scale > 0, "scale 0 (10-bit and deeper input) keeps the row pass");
  constexpr Kernel k = kernel_of(Scale);
  constexpr PairTaps pt = pair_taps(k);
  __m512i coef[9];
  for (int i = 0; i < pt.n; ++i) coef[i] = _mm512_set1_epi32(pt.coef[i]);
  const MomentFinish16w fin(sh);
  auto square = [&](__m512i s_lo, __m512i s_hi) VIF_AVX512 { return fin.square(s_lo, s_hi); };
  auto mean = [&](__m512i v) VIF_AVX512 { return fin.mean(v); };
  Elements16w e[kBand + 2 * kMaxHalf];
  int j = 0;
  for (; j + 32 <= w; j += 32) {
    for (int r = 0; r < rows + k.size - 1; ++r) {
      _mm_prefetch(reinterpret_cast<const char*>(rx[r] + j + 64), _MM_HINT_T0);
      _mm_prefetch(reinterpret_cast<const char*>(ry[r] + j + 64), _MM_HINT_T0);
      e[r] = elements16_w(rx[r] + j, ry[r] + j);
    }
    for (int o = 0; o < rows; ++o) {
      const Elements16w* c = e + o;  // the window's first row
      const __m512i z = _mm512_setzero_si512();
      Acc2w ax{z, z}, ay{z, z}, xyl{z, z}, xyh{z, z};
      for (int i = 0; i < pt.n; ++i) {
        const int t0 = pt.offset[i];
        const int t1 = t0 + 1 < k.size ? t0 + 1 : t0;
        madd_pair_w(ax, c[t0].x, c[t1].x, coef[i]);
        madd_pair_w(ay, c[t0].y, c[t1].y, coef[i]);
        madd_pair_w(xyl, c[t0].xy_lo, c[t1].xy_lo, coef[i]);
        madd_pair_w(xyh, c[t0].xy_hi, c[t1].xy_hi, coef[i]);
      }
      const PlaneRows& q = pr[o];
      store_offset16_w(q.p[kAx] + j, mean(ax.lo), mean(ax.hi));
      store_offset16_w(q.p[kAy] + j, mean(ay.lo), mean(ay.hi));
      store_split16_w(q.p[kBxyLo] + j, q.p[kBxyHi] + j, square(xyl.lo, xyh.lo), square(xyl.hi, xyh.hi));
      Acc2w xxl{z, z}, xxh{z, z}, yyl{z, z}, yyh{z, z};
      for (int i = 0; i < pt.n; ++i) {
        const int t0 = pt.offset[i];
        const int t1 = t0 + 1 < k.size ? t0 + 1 : t0;
        madd_pair_w(xxl, c[t0].xx_lo, c[t1].xx_lo, coef[i]);
        madd_pair_w(xxh, c[t0].xx_hi, c[t1].xx_hi, coef[i]);
        madd_pair_w(yyl, c[t0].yy_lo, c[t1].yy_lo, coef[i]);
        madd_pair_w(yyh, c[t0].yy_hi, c[t1].yy_hi, coef[i]);
      }
      store_split16_w(q.p[kBxxLo] + j, q.p[kBxxHi] + j, square(xxl.lo, xxh.lo), square(xxl.hi, xxh.hi));
      store_split16_w(q.p[kByyLo] + j, q.p[kByyHi] + j, square(yyl.lo, yyh.lo), square(yyl.hi, yyh.hi));
    }
  }
  for (int o = 0; o < rows; ++o) vertical_u16(rx + o, ry + o, k, j, w, sh, pr[o]);  // the AVX2 pass
}

void vertical_u16_w(const std::uint16_t* const* rx, const std::uint16_t* const* ry, Kernel k, int w,
                    MomentShifts sh, const PlaneRows& pr) {
  with_scale(k, [&]<int S>() { vertical_u16_w_s<S>(rx, ry, w, sh, pr); });
}

// 32 outputs of one plane from column j0: even columns j0, j0+2, ..., j0+30 and the odd ones.
template <int Scale>
VIF_AVX512 inline void hfilter_w(const std::int16_t* plane, int j0, const __m512i* ce, const __m512i* co,
                                 __m512i& even, __m512i& odd) {
  constexpr Kernel k = kernel_of(Scale);
  even = _mm512_setzero_si512();
  odd = _mm512_setzero_si512();
  const std::int16_t* base = plane + j0 - k.half;
  if constexpr (k.taps[k.half] <= 32767) {
    constexpr SharedTaps st = shared_taps(k);
    for (int i = 0; i < st.n; ++i) {
      const __m512i v = _mm512_loadu_si512(base + st.offset[i]);
      even = _mm512_dpwssd_epi32(even, v, ce[i]);
      odd = _mm512_dpwssd_epi32(odd, v, co[i]);
    }
  } else {
    constexpr PairTaps pt = pair_taps(k);
    for (int i = 0; i < pt.n; ++i) {
      const std::int16_t* q = base + pt.offset[i];
      even = _mm512_dpwssd_epi32(even, _mm512_loadu_si512(q), ce[i]);
      odd = _mm512_dpwssd_epi32(odd, _mm512_loadu_si512(q + 1), ce[i]);
    }
  }
}

VIF_AVX512 inline __m512i second_moment_w(__m512i s_lo, __m512i s_hi) {
  return _mm512_add_epi32(flip31w(s_hi),
                          _mm512_srli_epi32(_mm512_add_epi32(flip31w(s_lo), _mm512_set1_epi32(32768)), 16));
}

template <int Scale>
VIF_AVX512 void horizontal_w_s(const PlaneRows& pr, int w, std::int32_t* s1, std::int32_t* s2, std::int32_t* s12) {
  constexpr Kernel k = kernel_of(Scale);
  __m512i ce[9], co[9];
  if constexpr (k.taps[k.half] <= 32767) {
    constexpr SharedTaps st = shared_taps(k);
    for (int i = 0; i < st.n; ++i) ce[i] = _mm512_set1_epi32(st.even[i]), co[i] = _mm512_set1_epi32(st.odd[i]);
  } else {
    constexpr PairTaps pt = pair_taps(k);
    for (int i = 0; i < pt.n; ++i) ce[i] = co[i] = _mm512_set1_epi32(pt.coef[i]);
  }
  int j = 0;
  for (; j + 32 <= w; j += 32) {
    __m512i mxe, mxo, mye, myo;
    hfilter_w<Scale>(pr.p[kAx], j, ce, co, mxe, mxo);
    hfilter_w<Scale>(pr.p[kAy], j, ce, co, mye, myo);
    mxe = flip31w(mxe), mxo = flip31w(mxo), mye = flip31w(mye), myo = flip31w(myo);
    auto one = [&](int lo_plane, int hi_plane, __m512i pe, __m512i po, std::int32_t* dst) VIF_AVX512 {
      __m512i le, lo, he, ho;
      hfilter_w<Scale>(pr.p[lo_plane], j, ce, co, le, lo);
      hfilter_w<Scale>(pr.p[hi_plane], j, ce, co, he, ho);
      _mm512_storeu_si512(dst + j, _mm512_sub_epi32(second_moment_w(le, he), pe));
      _mm512_storeu_si512(dst + j + 16, _mm512_sub_epi32(second_moment_w(lo, ho), po));
    };
    one(kBxxLo, kBxxHi, mul_hi_round_w(mxe, mxe), mul_hi_round_w(mxo, mxo), s1);
    one(kByyLo, kByyHi, mul_hi_round_w(mye, mye), mul_hi_round_w(myo, myo), s2);
    one(kBxyLo, kBxyHi, mul_hi_round_w(mxe, mye), mul_hi_round_w(mxo, myo), s12);
  }
  horizontal(pr, k, j, w, s1, s2, s12);  // the AVX2 pass
}

void horizontal_w(const PlaneRows& pr, Kernel k, int w, std::int32_t* s1, std::int32_t* s2, std::int32_t* s12) {
  with_scale(k, [&]<int S>() { horizontal_w_s<S>(pr, w, s1, s2, s12); });
}

// ---- the statistic, 16 lanes --------------------------------------------------------------------

// L(v) for 16 lanes of uint32 v >= 2^17 (only the lanes of `mask` are looked up): k = bit_length(v) - 16
// from vplzcntd, the table at the 16 leading bits.
VIF_AVX512 inline __m512i log32_w(const std::uint16_t* table, __m512i v, __mmask16 mask) {
  const __m512i k = _mm512_sub_epi32(_mm512_set1_epi32(16), _mm512_lzcnt_epi32(v));
  const __m512i m = _mm512_srlv_epi32(v, k);
  const __m512i t = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), mask, m, table, 2);
  return _mm512_add_epi32(_mm512_and_si512(t, _mm512_set1_epi32(0xFFFF)), _mm512_slli_epi32(k, 11));
}

struct NumHalfW {
  __m256i sv;
  __m256i log_n2;
};

// numerator4 for 8 lanes: the same IEEE operations in the same order.
VIF_AVX512 inline NumHalfW numerator8_w(__m256i s1, __m256i s2, __m256i s12, __m512d egl, const std::uint16_t* table,
                                        __mmask8 mask) {
  const __m512d d1 = _mm512_cvtepi32_pd(s1), d2 = _mm512_cvtepi32_pd(s2), d12 = _mm512_cvtepi32_pd(s12);
  const __m512d den = _mm512_add_pd(d1, _mm512_set1_pd(kEps));
  __m512d g = _mm512_div_pd(d12, den);
  const __m512d g_s12 = _mm512_mul_pd(g, d12);
  const __m512d t = _mm512_sub_pd(d2, g_s12);
  // Out-of-range truncations give INT32_MIN, as with AVX2; the max with 0 handles them.
  const __m256i sv = _mm256_max_epi32(_mm512_cvttpd_epi32(t), _mm256_setzero_si256());
  g = _mm512_min_pd(g, egl);
  const __m512d p = _mm512_mul_pd(_mm512_mul_pd(g, g), d1);
  // n2 = trunc(p) + n1 in int64 (p >= 0 and < 2^47: the truncating conversion is exact), then
  // e = bit_length(n2) - 16 >= 2 (n2 >= 2^17) from vplzcntq.
  const __m512i n1 = _mm512_add_epi64(_mm512_cvtepi32_epi64(sv), _mm512_set1_epi64(kSigmaNsq));
  const __m512i n2 = _mm512_add_epi64(_mm512_cvttpd_epi64(p), n1);
  const __m512i e = _mm512_sub_epi64(_mm512_set1_epi64(48), _mm512_lzcnt_epi64(n2));
  const __m512i m = _mm512_srlv_epi64(n2, e);
  const __m256i tv = _mm512_mask_i64gather_epi32(_mm256_setzero_si256(), mask, m, table, 2);
  const __m256i k = _mm512_cvtepi64_epi32(e);
  return {sv, _mm256_add_epi32(_mm256_and_si256(tv, _mm256_set1_epi32(0xFFFF)), _mm256_slli_epi32(k, 11))};
}

VIF_AVX512 inline std::int64_t hsum32_w(__m512i v) {
  return _mm512_reduce_add_epi64(_mm512_add_epi64(_mm512_cvtepi32_epi64(_mm512_castsi512_si256(v)),
                                                  _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(v, 1))));
}

VIF_AVX512 void statistic_w(const std::int32_t* sigma1, const std::int32_t* sigma2, const std::int32_t* sigma12,
                            int n, double gain_limit, const std::uint16_t* table, Accum& acc) {
  const __m512i nsq = _mm512_set1_epi32(kSigmaNsq);
  const __m512i zero = _mm512_setzero_si512();
  const __m512d egl = _mm512_set1_pd(gain_limit);
  // As in the AVX2 statistic: int32 lane sums flushed every 2^11 blocks, sigma2 in int64 lanes.
  std::int64_t num_log = 0, den_log = 0, lin_count = 0;
  __m512i lin_q = zero;
  int j = 0;
  while (j + 16 <= n) {
    __m512i dl = zero, nl = zero, cnt = zero;
    const int stop = std::min(n - 15, j + 16 * 2048);
    for (; j < stop; j += 16) {
      const __m512i s1 = _mm512_loadu_si512(sigma1 + j);
      const __m512i s2 = _mm512_max_epi32(_mm512_loadu_si512(sigma2 + j), zero);
      const __m512i s12 = _mm512_loadu_si512(sigma12 + j);
      const __mmask16 is_log = _mm512_cmpge_epi32_mask(s1, nsq);
      if (is_log != 0xFFFF) {  // textured content has blocks of log-branch pixels only: skip the linear sums
        const __m512i lin_s2 = _mm512_maskz_mov_epi32(__mmask16(~is_log), s2);
        cnt = _mm512_mask_sub_epi32(cnt, __mmask16(~is_log), cnt, _mm512_set1_epi32(-1));
        lin_q = _mm512_add_epi64(lin_q, _mm512_add_epi64(_mm512_cvtepu32_epi64(_mm512_castsi512_si256(lin_s2)),
                                                         _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(lin_s2, 1))));
      }
      if (is_log == 0) continue;
      const __m512i lden = log32_w(table, _mm512_add_epi32(s1, nsq), is_log);
      dl = _mm512_mask_add_epi32(dl, is_log, dl, _mm512_sub_epi32(lden, _mm512_set1_epi32(kLogSigmaNsq)));
      const __mmask16 is_num = is_log & _mm512_cmpgt_epi32_mask(s12, zero) & _mm512_cmpgt_epi32_mask(s2, zero);
      if (is_num == 0) continue;
      const NumHalfW lo = numerator8_w(_mm512_castsi512_si256(s1), _mm512_castsi512_si256(s2),
                                       _mm512_castsi512_si256(s12), egl, table, __mmask8(is_num));
      const NumHalfW hi = numerator8_w(_mm512_extracti64x4_epi64(s1, 1), _mm512_extracti64x4_epi64(s2, 1),
                                       _mm512_extracti64x4_epi64(s12, 1), egl, table, __mmask8(is_num >> 8));
      const __m512i sv = _mm512_inserti64x4(_mm512_castsi256_si512(lo.sv), hi.sv, 1);
      const __m512i log_n2 = _mm512_inserti64x4(_mm512_castsi256_si512(lo.log_n2), hi.log_n2, 1);
      const __m512i log_n1 = log32_w(table, _mm512_add_epi32(sv, nsq), is_num);
      nl = _mm512_mask_add_epi32(nl, is_num, nl, _mm512_sub_epi32(log_n2, log_n1));
    }
    num_log += hsum32_w(nl);
    den_log += hsum32_w(dl);
    lin_count += hsum32_w(cnt);
  }
  acc.num_log += num_log;
  acc.den_log += den_log;
  acc.lin_count += lin_count;
  acc.lin_sigma2 += _mm512_reduce_add_epi64(lin_q);
  statistic(sigma1 + j, sigma2 + j, sigma12 + j, n - j, gain_limit, table, acc);  // the AVX2 one
}

// The downsampling passes, AVX-512: 32 filtered columns, 16 outputs at a time.
template <class T, int Scale>
VIF_AVX512 void vertical_mean_w(const T* const* rows, int w, Shift sh, std::int16_t* out) {
  constexpr Kernel k = kernel_of(Scale);
  constexpr PairTaps pt = pair_taps(k);
  __m512i coef[9];
  for (int i = 0; i < pt.n; ++i) coef[i] = _mm512_set1_epi32(pt.coef[i]);
  const __m128i shift = _mm_cvtsi32_si128(int(sh.shift));
  const __m512i round = _mm512_set1_epi32(std::int32_t(sh.round));
  const __m512i flip = _mm512_set1_epi16(INT16_MIN);
  int j = 0;
  for (; j + 32 <= w; j += 32) {
    if constexpr (sizeof(T) == 1) {
      vertical_mean_folded_w<Scale>(
          [&](int t) VIF_AVX512 {
            return _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows[k.half + t] + j)));
          },
          sh, out + j);
    } else {
      const __m512i z = _mm512_setzero_si512();
      Acc2w acc{z, z};
      for (int i = 0; i < pt.n; ++i) {
        const int t0 = pt.offset[i];
        const int t1 = t0 + 1 < k.size ? t0 + 1 : t0;
        madd_pair_w(acc, _mm512_xor_si512(load16_w(rows[t0] + j), flip), _mm512_xor_si512(load16_w(rows[t1] + j), flip),
                    coef[i]);
      }
      acc = {flip31w(acc.lo), flip31w(acc.hi)};
      store_offset16_w(out + j, _mm512_srl_epi32(_mm512_add_epi32(acc.lo, round), shift),
                       _mm512_srl_epi32(_mm512_add_epi32(acc.hi, round), shift));
    }
  }
  vertical_mean(rows, k, j, w, sh, out);  // the AVX2 pass
}

template <int Scale>
VIF_AVX512 void horizontal_mean_even_w(const std::int16_t* v, int out_w, std::uint16_t* out) {
  constexpr Kernel k = kernel_of(Scale);
  constexpr PairTaps pt = pair_taps(k);
  __m512i coef[9];
  for (int i = 0; i < pt.n; ++i) coef[i] = _mm512_set1_epi32(pt.coef[i]);
  int j = 0;
  for (; j + 16 <= out_w; j += 16) {
    __m512i acc = _mm512_setzero_si512();
    const std::int16_t* base = v + 2 * j - k.half;
    for (int i = 0; i < pt.n; ++i) acc = _mm512_dpwssd_epi32(acc, _mm512_loadu_si512(base + pt.offset[i]), coef[i]);
    const __m512i r = _mm512_srli_epi32(_mm512_add_epi32(flip31w(acc), _mm512_set1_epi32(32768)), 16);
    // r <= 65535: the truncating narrowing is exact.
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + j), _mm512_cvtepi32_epi16(r));
  }
  horizontal_mean_even(k, v, j, out_w, out);  // the AVX2 pass
}

// Whole rows, for the drivers of kernels_x86.hpp.
struct Avx512Passes {
  static void vertical(const std::uint8_t* const* rx, const std::uint8_t* const* ry, Kernel, int w, MomentShifts sh,
                       const PlaneRows& pr) {
    vertical_u8_w(rx, ry, w, sh, pr);
  }
  static void vertical(const std::uint16_t* const* rx, const std::uint16_t* const* ry, Kernel k, int w,
                       MomentShifts sh, const PlaneRows& pr) {
    vertical_u16_w(rx, ry, k, w, sh, pr);
  }
  static void horizontal(const PlaneRows& pr, Kernel k, int w, std::int32_t* s1, std::int32_t* s2,
                         std::int32_t* s12) {
    horizontal_w(pr, k, w, s1, s2, s12);
  }
  static constexpr auto statistic = statistic_w;
  template <class T>
  static void vertical_mean(const T* const* rows, Kernel k, int w, Shift sh, std::int16_t* out) {
    with_scale(k, [&]<int S>() { vertical_mean_w<T, S>(rows, w, sh, out); });
  }
  static void horizontal_mean_even(Kernel k, const std::int16_t* v, int out_w, std::uint16_t* out) {
    with_scale(k, [&]<int S>() { horizontal_mean_even_w<S>(v, out_w, out); });
  }
};

// scale_sums (kernels_x86.hpp) a band of kBand rows at a time through the vertical pass
// (vertical_u8_band_w for 8-bit scale 0, vertical_u16_band_w_s for scales 1-3), then row by row through
// the horizontal pass and the statistic. Each row sees exactly the same passes as in scale_sums; only the
// vertical pass's order of work differs. With down_x and down_y (8-bit only), also the scale-1 planes of
// both pictures (downsample's), the vertical pass of the downsampling done by the band pass from its rows.
template <class T>
Accum scale_sums_band(const T* x, std::ptrdiff_t stride_x, const T* y, std::ptrdiff_t stride_y, const ScaleArgs& a,
                      std::uint16_t* down_x, std::uint16_t* down_y, Scratch& s) {
  const Kernel f = kernel_of(a.scale);
  const MomentShifts sh = moment_shifts(a.bpc, a.scale);
  const std::size_t row = std::size_t(a.w) + 2 * kMaxHalf + kSlack;
  const std::size_t band_row = kNumPlanes * row;
  auto* mem = static_cast<std::int16_t*>(s.get(0, kBand * band_row * sizeof(std::int16_t)));
  std::memset(mem, 0, kBand * band_row * sizeof(std::int16_t));  // the slack is read with coefficient 0
  PlaneRows pr[kBand];
  for (int o = 0; o < kBand; ++o)
    for (int i = 0; i < kNumPlanes; ++i) pr[o].p[i] = mem + std::size_t(o) * band_row + std::size_t(i) * row + kMaxHalf;
  // The downsampling's vertical means of the band's kept (even) rows: kBand / 2 rows per picture.
  const bool with_down = down_x != nullptr;
  std::int16_t* vm = nullptr;
  if (with_down) {
    vm = static_cast<std::int16_t*>(s.get(2, kBand * row * sizeof(std::int16_t)));
    std::memset(vm, 0, kBand * row * sizeof(std::int16_t));
  }
  const int out_w = a.w / 2, out_h = a.h / 2;
  auto* sig = static_cast<std::int32_t*>(s.get(1, 3 * std::size_t(a.w) * sizeof(std::int32_t)));
  std::int32_t* s1 = sig;
  std::int32_t* s2 = sig + a.w;
  std::int32_t* s12 = sig + 2 * a.w;
  const T* rx[kBand + 2 * kMaxHalf];
  const T* ry[kBand + 2 * kMaxHalf];
  Accum acc;
  static_assert(kBand % 2 == 0, "bands start on even rows, the rows downsampling keeps");
  for (int i0 = 0; i0 < a.h; i0 += kBand) {
    const int rows = std::min(kBand, a.h - i0);
    for (int r = 0; r < rows + 2 * f.half; ++r) {
      const std::ptrdiff_t m = mirror(i0 - f.half + r, a.h);
      rx[r] = x + m * stride_x;
      ry[r] = y + m * stride_y;
    }
    DownRows down{};
    if (with_down)
      for (int o = 0; o < rows; o += 2)
        if ((i0 + o) / 2 < out_h) {
          down.x[o] = vm + std::size_t(o) * row + kMaxHalf;
          down.y[o] = vm + std::size_t(o + 1) * row + kMaxHalf;
        }
    if constexpr (sizeof(T) == 1) {
      vertical_u8_band_w(rx, ry, rows, a.w, sh, pr, with_down ? &down : nullptr);
    } else {
      with_scale(f, [&]<int S>() {
        if constexpr (S > 0) vertical_u16_band_w_s<S>(rx, ry, rows, a.w, sh, pr);
      });
    }
    for (int o = 0; o < rows; ++o) {
      for (std::int16_t* p : pr[o].p) mirror16(p, a.w, f.half);
      horizontal_w(pr[o], f, a.w, s1, s2, s12);
      statistic_w(s1, s2, s12, a.w, a.gain_limit, a.log_table, acc);
      if (down.x[o] != nullptr) {
        const std::ptrdiff_t at = std::ptrdiff_t((i0 + o) / 2) * out_w;
        for (std::int16_t* v : {down.x[o], down.y[o]}) mirror16(v, a.w, kernel_of(1).half);
        horizontal_mean_even_w<1>(down.x[o], out_w, down_x + at);
        horizontal_mean_even_w<1>(down.y[o], out_w, down_y + at);
      }
    }
  }
  return acc;
}

Accum scale_sums_u8_w(const std::uint8_t* x, std::ptrdiff_t stride_x, const std::uint8_t* y, std::ptrdiff_t stride_y,
                      const ScaleArgs& a, Scratch& s) {
  return scale_sums_band(x, stride_x, y, stride_y, a, nullptr, nullptr, s);
}

// 16-bit planes: scales 1-3 on bands; scale 0 (10-bit and deeper input) row by row.
Accum scale_sums_u16_w(const std::uint16_t* x, std::ptrdiff_t stride_x, const std::uint16_t* y,
                       std::ptrdiff_t stride_y, const ScaleArgs& a, Scratch& s) {
  if (a.scale == 0) return scale_sums<Avx512Passes, std::uint16_t>(x, stride_x, y, stride_y, a, s);
  return scale_sums_band(x, stride_x, y, stride_y, a, nullptr, nullptr, s);
}

}  // namespace

void init_avx512(KernelSet& k) {
  k.name = "avx512";
  k.scale_sums_u8 = scale_sums_u8_w;
  k.scale_sums_down_u8 = scale_sums_band<std::uint8_t>;
  k.scale_sums_u16 = scale_sums_u16_w;
  k.downsample_u8 = downsample<Avx512Passes, std::uint8_t>;
  k.downsample_u16 = downsample<Avx512Passes, std::uint16_t>;
  k.statistic = statistic_w;
}

}  // namespace vqtwin::integer_vif::x86

#endif
