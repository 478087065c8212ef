// integer VIF kernels, AVX2 (kernels_avx512.cpp widens the hot passes of this set to 32 columns).
// Same integers as kernels_scalar.cpp, computed differently:
//
// * 16-bit multiply-adds (vpmaddwd) do two filter taps at once. Unsigned 16-bit data is stored
//   offset by -32768 (value ^ 0x8000, an int16); since every kernel sums to 65536 the offset adds
//   exactly 2^31 to a sum, which an xor with 0x80000000 removes (all sums are < 2^32).
// * 32-bit second moments are split into 16-bit halves: sum(f*b) = 2^16 sum(f*hi) + sum(f*lo), so
//   the horizontal pass never needs 64-bit lanes.
// * 8-bit scale 0 uses u = x - 128 (|u| <= 128): x^2 = u^2 + 256x - 16384 and
//   xy = uv + 128(x + y) - 16384, with u^2, uv small enough to fold symmetric taps in int16.
// * Taps are paired (t, t+1); kernel 3's centre 43728 does not fit an int16 and is split in two
//   halves paired with its neighbours.
// * The per-pixel double block runs 4 lanes at a time with the same IEEE operations in the same
//   order as the scalar code (no FMA: this file is not built for FMA); logs use gathers.
//
// Every function here carries target("avx2") (lambdas too) and is put in a table only when
// cpu::flags() allows AVX2 (kernels.cpp), so the rest of the library does not need -mavx2. Column
// order inside a 16-wide block of the sigma rows is permuted (even columns, then odd): the
// statistic is a sum, so order does not matter.
#include <algorithm>
#include <cstring>

#include "common/isa.hpp"
#include "features/integer_vif/kernels_x86.hpp"

#if VQTWIN_X86_VARIANTS
#include <immintrin.h>

namespace vqtwin::integer_vif::x86 {
namespace {

#define VIF_AVX2 VQTWIN_TARGET_AVX2

// ---- shared helpers ---------------------------------------------------------------------------

VIF_AVX2 inline __m256i flip31(__m256i v) { return _mm256_xor_si256(v, _mm256_set1_epi32(INT32_MIN)); }

// (a * b + 2^31) >> 32 for 8 lanes of uint32.
VIF_AVX2 inline __m256i mul_hi_round(__m256i a, __m256i b) {
  const __m256i r = _mm256_set1_epi64x(0x80000000LL);
  const __m256i pe = _mm256_add_epi64(_mm256_mul_epu32(a, b), r);
  const __m256i po = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(b, 32)), r);
  return _mm256_blend_epi32(_mm256_srli_epi64(pe, 32), po, 0xAA);
}

// Two vectors of 8 uint32 values <= 65535 (columns permuted as vpmaddwd on unpacked halves leaves
// them) to 16 int16 (value - 32768) in natural column order.
VIF_AVX2 inline void store_offset16(std::int16_t* dst, __m256i lo, __m256i hi) {
  const __m256i k = _mm256_set1_epi32(32768);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst),
                      _mm256_packs_epi32(_mm256_sub_epi32(lo, k), _mm256_sub_epi32(hi, k)));
}

// A 32-bit moment as its two offset 16-bit halves.
VIF_AVX2 inline void store_split16(std::int16_t* dst_lo, std::int16_t* dst_hi, __m256i lo, __m256i hi) {
  const __m256i m = _mm256_set1_epi32(0x8000);
  const __m256i l0 = _mm256_srai_epi32(_mm256_slli_epi32(_mm256_xor_si256(lo, m), 16), 16);
  const __m256i l1 = _mm256_srai_epi32(_mm256_slli_epi32(_mm256_xor_si256(hi, m), 16), 16);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst_lo), _mm256_packs_epi32(l0, l1));
  store_offset16(dst_hi, _mm256_srli_epi32(lo, 16), _mm256_srli_epi32(hi, 16));
}

// Scalar fallback for the columns a vector block does not cover: writes the 8 planes of column j
// from exact vertical sums.
void store_column(const PlaneRows& pr, int j, std::uint32_t ax, std::uint32_t ay, std::uint32_t bxx,
                  std::uint32_t byy, std::uint32_t bxy) {
  auto off = [](std::uint32_t v) { return std::int16_t(std::int32_t(v) - 32768); };
  pr.p[kAx][j] = off(ax);
  pr.p[kAy][j] = off(ay);
  pr.p[kBxxLo][j] = off(bxx & 0xFFFF);
  pr.p[kBxxHi][j] = off(bxx >> 16);
  pr.p[kByyLo][j] = off(byy & 0xFFFF);
  pr.p[kByyHi][j] = off(byy >> 16);
  pr.p[kBxyLo][j] = off(bxy & 0xFFFF);
  pr.p[kBxyHi][j] = off(bxy >> 16);
}

template <class T>
void vertical_tail(const T* const* rx, const T* const* ry, Kernel k, int j0, int w, MomentShifts sh,
                   const PlaneRows& pr) {
  for (int j = j0; j < w; ++j) {
    std::uint64_t sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
    for (int t = 0; t < k.size; ++t) {
      const std::uint64_t f = k.taps[t], x = rx[t][j], y = ry[t][j];
      sx += f * x;
      sy += f * y;
      sxx += f * x * x;
      syy += f * y * y;
      sxy += f * x * y;
    }
    store_column(pr, j, std::uint32_t((sx + sh.mean.round) >> sh.mean.shift),
                 std::uint32_t((sy + sh.mean.round) >> sh.mean.shift),
                 std::uint32_t((sxx + sh.square.round) >> sh.square.shift),
                 std::uint32_t((syy + sh.square.round) >> sh.square.shift),
                 std::uint32_t((sxy + sh.square.round) >> sh.square.shift));
  }
}

// ---- vertical pass, 8-bit scale 0 -------------------------------------------------------------

// The five int16 "elements" of a row of 16 columns: x, y, u^2 - 8192, v^2 - 8192, uv - 64.
struct Elements8 {
  __m256i x, y, uu, vv, uv;
};

VIF_AVX2 inline Elements8 elements8(const std::uint8_t* xr, const std::uint8_t* yr) {
  const __m256i x = _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(xr)));
  const __m256i y = _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(yr)));
  const __m256i c128 = _mm256_set1_epi16(128);
  const __m256i u = _mm256_sub_epi16(x, c128), v = _mm256_sub_epi16(y, c128);
  return {x, y, _mm256_sub_epi16(_mm256_mullo_epi16(u, u), _mm256_set1_epi16(8192)),
          _mm256_sub_epi16(_mm256_mullo_epi16(v, v), _mm256_set1_epi16(8192)),
          _mm256_sub_epi16(_mm256_mullo_epi16(u, v), _mm256_set1_epi16(64))};
}

// Folded rows c-k and c+k: every sum stays inside int16 (x <= 510, uu in [-16384, 16384],
// uv in [-32640, 32640]).
VIF_AVX2 inline Elements8 fold8(const Elements8& a, const Elements8& b) {
  return {_mm256_add_epi16(a.x, b.x), _mm256_add_epi16(a.y, b.y), _mm256_add_epi16(a.uu, b.uu),
          _mm256_add_epi16(a.vv, b.vv), _mm256_add_epi16(a.uv, b.uv)};
}

struct Acc2 {
  __m256i lo, hi;
};

VIF_AVX2 inline void madd_pair(Acc2& acc, __m256i a, __m256i b, __m256i coef) {
  acc.lo = _mm256_add_epi32(acc.lo, _mm256_madd_epi16(_mm256_unpacklo_epi16(a, b), coef));
  acc.hi = _mm256_add_epi32(acc.hi, _mm256_madd_epi16(_mm256_unpackhi_epi16(a, b), coef));
}

}  // namespace

// Scale 0 only (8-bit planes exist only there): the 17-tap kernel as a constant.
// Columns j0.. (a wider set handles the columns before j0).
VIF_AVX2 void vertical_u8(const std::uint8_t* const* rx, const std::uint8_t* const* ry, int j0, int w,
                          MomentShifts sh, const PlaneRows& pr) {
  constexpr Kernel k = kernel_of(0);
  // Terms: centre, then folds 1..half, with coefficients f[half], f[half-1], ..., f[0]; paired in order.
  const int nterms = k.half + 1;
  __m256i coef[(kMaxHalf + 2) / 2];
  for (int i = 0; 2 * i < nterms; ++i) {
    const std::uint32_t c0 = k.taps[k.half - 2 * i];
    const std::uint32_t c1 = 2 * i + 1 < nterms ? k.taps[k.half - 2 * i - 1] : 0u;
    coef[i] = _mm256_set1_epi32(std::int32_t((c1 << 16) | c0));
  }
  const __m128i mean_shift = _mm_cvtsi32_si128(int(sh.mean.shift));
  const __m256i mean_round = _mm256_set1_epi32(std::int32_t(sh.mean.round));
  int j = j0;
  for (; j + 16 <= w; j += 16) {
    const __m256i z = _mm256_setzero_si256();
    Acc2 ax{z, z}, ay{z, z}, uu{z, z}, vv{z, z}, uv{z, z};
    for (int i = 0; 2 * i < nterms; ++i) {
      const int t0 = 2 * i, t1 = 2 * i + 1;
      auto term = [&](int t) VIF_AVX2 {
        if (t == 0) return elements8(rx[k.half] + j, ry[k.half] + j);
        return fold8(elements8(rx[k.half - t] + j, ry[k.half - t] + j),
                     elements8(rx[k.half + t] + j, ry[k.half + t] + j));
      };
      const Elements8 a = term(t0);
      const Elements8 b = t1 < nterms ? term(t1) : Elements8{z, z, z, z, z};
      madd_pair(ax, a.x, b.x, coef[i]);
      madd_pair(ay, a.y, b.y, coef[i]);
      madd_pair(uu, a.uu, b.uu, coef[i]);
      madd_pair(vv, a.vv, b.vv, coef[i]);
      madd_pair(uv, a.uv, b.uv, coef[i]);
    }
    // Back to x^2, y^2, xy sums: sum(f u^2) = uu + 2^29, so B_xx = uu + 256 A_x - 2^29;
    // sum(f uv) = uv + 2^22, so B_xy = uv + 128 (A_x + A_y) + 2^22 - 2^30 (all mod 2^32, exact).
    const __m256i c29 = _mm256_set1_epi32(1 << 29);
    const __m256i cxy = _mm256_set1_epi32((1 << 22) - (1 << 30));
    auto finish = [&](__m256i sx, __m256i sy, __m256i suu, __m256i svv, __m256i suv, __m256i out[5]) VIF_AVX2 {
      out[0] = _mm256_srl_epi32(_mm256_add_epi32(sx, mean_round), mean_shift);
      out[1] = _mm256_srl_epi32(_mm256_add_epi32(sy, mean_round), mean_shift);
      out[2] = _mm256_sub_epi32(_mm256_add_epi32(suu, _mm256_slli_epi32(sx, 8)), c29);
      out[3] = _mm256_sub_epi32(_mm256_add_epi32(svv, _mm256_slli_epi32(sy, 8)), c29);
      out[4] = _mm256_add_epi32(_mm256_add_epi32(suv, _mm256_slli_epi32(_mm256_add_epi32(sx, sy), 7)), cxy);
    };
    __m256i lo[5], hi[5];
    finish(ax.lo, ay.lo, uu.lo, vv.lo, uv.lo, lo);
    finish(ax.hi, ay.hi, uu.hi, vv.hi, uv.hi, hi);
    // 8-bit: the squares are not shifted (sh.square is (0, 0)).
    store_offset16(pr.p[kAx] + j, lo[0], hi[0]);
    store_offset16(pr.p[kAy] + j, lo[1], hi[1]);
    store_split16(pr.p[kBxxLo] + j, pr.p[kBxxHi] + j, lo[2], hi[2]);
    store_split16(pr.p[kByyLo] + j, pr.p[kByyHi] + j, lo[3], hi[3]);
    store_split16(pr.p[kBxyLo] + j, pr.p[kBxyHi] + j, lo[4], hi[4]);
  }
  vertical_tail(rx, ry, k, j, w, sh, pr);
}

namespace {

// ---- vertical pass, 16-bit samples ------------------------------------------------------------

VIF_AVX2 inline __m256i load16(const std::uint16_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}

template <int Scale>
VIF_AVX2 void vertical_u16_s(const std::uint16_t* const* rx, const std::uint16_t* const* ry, int j0, int w,
                             MomentShifts sh, const PlaneRows& pr) {
  constexpr Kernel k = kernel_of(Scale);
  constexpr PairTaps pt = pair_taps(k);
  __m256i coef[9];
  for (int i = 0; i < pt.n; ++i) coef[i] = _mm256_set1_epi32(pt.coef[i]);
  const __m256i flip = _mm256_set1_epi16(INT16_MIN);
  const __m128i mean_shift = _mm_cvtsi32_si128(int(sh.mean.shift));
  const __m256i mean_round = _mm256_set1_epi32(std::int32_t(sh.mean.round));
  const __m128i sq_shift = _mm_cvtsi32_si128(int(sh.square.shift));
  const __m128i sq_up = _mm_cvtsi32_si128(int(16 - sh.square.shift));
  const __m256i sq_round = _mm256_set1_epi32(std::int32_t(sh.square.round));
  // B = 2^16 S_hi + S_lo, so (B + round) >> q = (S_hi << (16 - q)) + ((S_lo + round) >> q), q <= 16.
  auto square = [&](__m256i s_lo, __m256i s_hi) VIF_AVX2 {
    return _mm256_add_epi32(_mm256_sll_epi32(flip31(s_hi), sq_up),
                            _mm256_srl_epi32(_mm256_add_epi32(flip31(s_lo), sq_round), sq_shift));
  };
  auto mean = [&](__m256i s) VIF_AVX2 {
    return _mm256_srl_epi32(_mm256_add_epi32(flip31(s), mean_round), mean_shift);
  };
  int j = j0;
  for (; j + 16 <= w; j += 16) {
    const __m256i z = _mm256_setzero_si256();
    // Pass 1: means and the cross moment; pass 2: the two squares (keeps the accumulators in registers).
    Acc2 ax{z, z}, ay{z, z}, xyl{z, z}, xyh{z, z};
    for (int i = 0; i < pt.n; ++i) {
      const int t0 = pt.offset[i];
      const int t1 = t0 + 1 < k.size ? t0 + 1 : t0;  // a lone last tap has coefficient 0 on its pair
      const __m256i xa = load16(rx[t0] + j), xb = load16(rx[t1] + j);
      const __m256i ya = load16(ry[t0] + j), yb = load16(ry[t1] + j);
      madd_pair(ax, _mm256_xor_si256(xa, flip), _mm256_xor_si256(xb, flip), coef[i]);
      madd_pair(ay, _mm256_xor_si256(ya, flip), _mm256_xor_si256(yb, flip), coef[i]);
      madd_pair(xyl, _mm256_xor_si256(_mm256_mullo_epi16(xa, ya), flip),
                _mm256_xor_si256(_mm256_mullo_epi16(xb, yb), flip), coef[i]);
      madd_pair(xyh, _mm256_xor_si256(_mm256_mulhi_epu16(xa, ya), flip),
                _mm256_xor_si256(_mm256_mulhi_epu16(xb, yb), flip), coef[i]);
    }
    store_offset16(pr.p[kAx] + j, mean(ax.lo), mean(ax.hi));
    store_offset16(pr.p[kAy] + j, mean(ay.lo), mean(ay.hi));
    store_split16(pr.p[kBxyLo] + j, pr.p[kBxyHi] + j, square(xyl.lo, xyh.lo), square(xyl.hi, xyh.hi));
    Acc2 xxl{z, z}, xxh{z, z}, yyl{z, z}, yyh{z, z};
    for (int i = 0; i < pt.n; ++i) {
      const int t0 = pt.offset[i];
      const int t1 = t0 + 1 < k.size ? t0 + 1 : t0;
      const __m256i xa = load16(rx[t0] + j), xb = load16(rx[t1] + j);
      const __m256i ya = load16(ry[t0] + j), yb = load16(ry[t1] + j);
      madd_pair(xxl, _mm256_xor_si256(_mm256_mullo_epi16(xa, xa), flip),
                _mm256_xor_si256(_mm256_mullo_epi16(xb, xb), flip), coef[i]);
      madd_pair(xxh, _mm256_xor_si256(_mm256_mulhi_epu16(xa, xa), flip),
                _mm256_xor_si256(_mm256_mulhi_epu16(xb, xb), flip), coef[i]);
      madd_pair(yyl, _mm256_xor_si256(_mm256_mullo_epi16(ya, ya), flip),
                _mm256_xor_si256(_mm256_mullo_epi16(yb, yb), flip), coef[i]);
      madd_pair(yyh, _mm256_xor_si256(_mm256_mulhi_epu16(ya, ya), flip),
                _mm256_xor_si256(_mm256_mulhi_epu16(yb, yb), flip), coef[i]);
    }
    store_split16(pr.p[kBxxLo] + j, pr.p[kBxxHi] + j, square(xxl.lo, xxh.lo), square(xxl.hi, xxh.hi));
    store_split16(pr.p[kByyLo] + j, pr.p[kByyHi] + j, square(yyl.lo, yyh.lo), square(yyl.hi, yyh.hi));
  }
  vertical_tail(rx, ry, k, j, w, sh, pr);
}

}  // namespace

void vertical_u16(const std::uint16_t* const* rx, const std::uint16_t* const* ry, Kernel k, int j0, int w,
                  MomentShifts sh, const PlaneRows& pr) {
  with_scale(k, [&]<int S>() { vertical_u16_s<S>(rx, ry, j0, w, sh, pr); });
}

namespace {

// ---- horizontal pass --------------------------------------------------------------------------

// 16 outputs of one plane from column j0: even columns j0, j0+2, ... and odd columns j0+1, ...
VIF_AVX2 inline void hfilter(const std::int16_t* plane, int j0, int half, const PairTaps& pt,
                             const __m256i* coef, __m256i& even, __m256i& odd) {
  even = _mm256_setzero_si256();
  odd = _mm256_setzero_si256();
  const std::int16_t* base = plane + j0 - half;
  for (int i = 0; i < pt.n; ++i) {
    const std::int16_t* q = base + pt.offset[i];
    even = _mm256_add_epi32(even, _mm256_madd_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(q)), coef[i]));
    odd = _mm256_add_epi32(odd,
                           _mm256_madd_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(q + 1)), coef[i]));
  }
}

// E = (sum f*b + 32768) >> 16 from the offset sums of b's halves.
VIF_AVX2 inline __m256i second_moment(__m256i s_lo, __m256i s_hi) {
  return _mm256_add_epi32(flip31(s_hi), _mm256_srli_epi32(_mm256_add_epi32(flip31(s_lo), _mm256_set1_epi32(32768)), 16));
}

void horizontal_tail(const PlaneRows& pr, Kernel k, int j0, int w, std::int32_t* s1, std::int32_t* s2,
                     std::int32_t* s12) {
  auto val = [&](int plane, int c) { return std::uint64_t(std::int32_t(pr.p[plane][c]) + 32768); };
  for (int j = j0; j < w; ++j) {
    std::uint64_t mx = 0, my = 0, exx = 0, eyy = 0, exy = 0;
    for (int t = 0; t < k.size; ++t) {
      const std::uint64_t f = k.taps[t];
      const int c = j - k.half + t;
      mx += f * val(kAx, c);
      my += f * val(kAy, c);
      exx += f * ((val(kBxxHi, c) << 16) | val(kBxxLo, c));
      eyy += f * ((val(kByyHi, c) << 16) | val(kByyLo, c));
      exy += f * ((val(kBxyHi, c) << 16) | val(kBxyLo, c));
    }
    const std::int64_t pxx = std::int64_t((mx * mx + 0x80000000u) >> 32);
    const std::int64_t pyy = std::int64_t((my * my + 0x80000000u) >> 32);
    const std::int64_t pxy = std::int64_t((mx * my + 0x80000000u) >> 32);
    s1[j] = std::int32_t(std::int64_t((exx + 32768) >> 16) - pxx);
    s2[j] = std::int32_t(std::int64_t((eyy + 32768) >> 16) - pyy);
    s12[j] = std::int32_t(std::int64_t((exy + 32768) >> 16) - pxy);
  }
}

VIF_AVX2 inline void hfilter_shared(const std::int16_t* plane, int j0, int half, const SharedTaps& st,
                                    const __m256i* ce, const __m256i* co, __m256i& even, __m256i& odd) {
  even = _mm256_setzero_si256();
  odd = _mm256_setzero_si256();
  const std::int16_t* base = plane + j0 - half;
  for (int i = 0; i < st.n; ++i) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(base + st.offset[i]));
    even = _mm256_add_epi32(even, _mm256_madd_epi16(v, ce[i]));
    odd = _mm256_add_epi32(odd, _mm256_madd_epi16(v, co[i]));
  }
}

// The sigmas of 16 columns from j0 given the filtered means and a filter for the second moments.
template <class Filter>
VIF_AVX2 inline void sigma_block(const PlaneRows& pr, int j0, __m256i mxe, __m256i mxo, __m256i mye, __m256i myo,
                                 Filter filter, std::int32_t* s1, std::int32_t* s2, std::int32_t* s12) {
  mxe = flip31(mxe), mxo = flip31(mxo), mye = flip31(mye), myo = flip31(myo);
  // sigma = E - P for each second moment (written out: an array of these structs costs a memset).
  auto one = [&](int lo_plane, int hi_plane, __m256i pe, __m256i po, std::int32_t* dst) VIF_AVX2 {
    __m256i le, lo, he, ho;
    filter(pr.p[lo_plane], le, lo);
    filter(pr.p[hi_plane], he, ho);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + j0), _mm256_sub_epi32(second_moment(le, he), pe));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + j0 + 8), _mm256_sub_epi32(second_moment(lo, ho), po));
  };
  one(kBxxLo, kBxxHi, mul_hi_round(mxe, mxe), mul_hi_round(mxo, mxo), s1);
  one(kByyLo, kByyHi, mul_hi_round(mye, mye), mul_hi_round(myo, myo), s2);
  one(kBxyLo, kBxyHi, mul_hi_round(mxe, mye), mul_hi_round(mxo, myo), s12);
}

template <int Scale>
VIF_AVX2 void horizontal_s(const PlaneRows& pr, int j0, int w, std::int32_t* s1, std::int32_t* s2,
                           std::int32_t* s12) {
  constexpr Kernel k = kernel_of(Scale);
  int j = j0;
  if constexpr (k.taps[k.half] <= 32767) {
    constexpr SharedTaps st = shared_taps(k);
    __m256i ce[9], co[9];
    for (int i = 0; i < st.n; ++i) ce[i] = _mm256_set1_epi32(st.even[i]), co[i] = _mm256_set1_epi32(st.odd[i]);
    for (; j + 16 <= w; j += 16) {
      auto filter = [&](const std::int16_t* plane, __m256i& e, __m256i& o) VIF_AVX2 {
        hfilter_shared(plane, j, k.half, st, ce, co, e, o);
      };
      __m256i mxe, mxo, mye, myo;
      filter(pr.p[kAx], mxe, mxo);
      filter(pr.p[kAy], mye, myo);
      sigma_block(pr, j, mxe, mxo, mye, myo, filter, s1, s2, s12);
    }
  } else {
    constexpr PairTaps pt = pair_taps(k);
    __m256i coef[9];
    for (int i = 0; i < pt.n; ++i) coef[i] = _mm256_set1_epi32(pt.coef[i]);
    for (; j + 16 <= w; j += 16) {
      auto filter = [&](const std::int16_t* plane, __m256i& e, __m256i& o) VIF_AVX2 {
        hfilter(plane, j, k.half, pt, coef, e, o);
      };
      __m256i mxe, mxo, mye, myo;
      filter(pr.p[kAx], mxe, mxo);
      filter(pr.p[kAy], mye, myo);
      sigma_block(pr, j, mxe, mxo, mye, myo, filter, s1, s2, s12);
    }
  }
  horizontal_tail(pr, k, j, w, s1, s2, s12);
}

}  // namespace

void horizontal(const PlaneRows& pr, Kernel k, int j0, int w, std::int32_t* s1, std::int32_t* s2,
                std::int32_t* s12) {
  with_scale(k, [&]<int S>() { horizontal_s<S>(pr, j0, w, s1, s2, s12); });
}

namespace {

// ---- per-pixel statistic ----------------------------------------------------------------------

// Bit length of 8 int32 lanes holding values in [2^8, 2^31): exact through a float conversion of
// v >> 8 (< 2^23, so no rounding).
VIF_AVX2 inline __m256i bit_length32(__m256i v) {
  const __m256 f = _mm256_cvtepi32_ps(_mm256_srli_epi32(v, 8));
  return _mm256_sub_epi32(_mm256_srli_epi32(_mm256_castps_si256(f), 23), _mm256_set1_epi32(127 - 9));
}

// L(v) for 8 lanes (v in [2^17, 2^31)); lanes outside `mask` give 0 - 2048 k (ignored).
VIF_AVX2 inline __m256i log32(const std::uint16_t* table, __m256i v, __m256i mask) {
  const __m256i k = _mm256_sub_epi32(bit_length32(v), _mm256_set1_epi32(16));
  const __m256i m = _mm256_srlv_epi32(v, k);
  const __m256i t = _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), reinterpret_cast<const int*>(table), m,
                                                mask, 2);
  return _mm256_add_epi32(_mm256_and_si256(t, _mm256_set1_epi32(0xFFFF)), _mm256_slli_epi32(k, 11));
}

// The numerator terms L(n2) - L(n1) of 4 pixels (double block of accumulate_pixel, same order).
// Returns n1 (int32 x4) and L(n2) (int32 x4).
struct NumHalf {
  __m128i sv;
  __m128i log_n2;
};

VIF_AVX2 inline NumHalf numerator4(__m128i s1, __m128i s2, __m128i s12, __m256d egl, const std::uint16_t* table,
                                   __m128i mask) {
  const __m256d d1 = _mm256_cvtepi32_pd(s1), d2 = _mm256_cvtepi32_pd(s2), d12 = _mm256_cvtepi32_pd(s12);
  const __m256d den = _mm256_add_pd(d1, _mm256_set1_pd(kEps));
  __m256d g = _mm256_div_pd(d12, den);
  const __m256d g_s12 = _mm256_mul_pd(g, d12);
  const __m256d t = _mm256_sub_pd(d2, g_s12);
  // trunc toward zero; out-of-range (t <= -2^31) gives INT32_MIN, so the max with 0 handles both.
  const __m128i sv = _mm_max_epi32(_mm256_cvttpd_epi32(t), _mm_setzero_si128());
  g = _mm256_min_pd(g, egl);  // g < egl ? g : egl
  const __m256d p = _mm256_mul_pd(_mm256_mul_pd(g, g), d1);
  // trunc(p) + n1 as an exact double (< 2^53); its exponent gives the bit length, and adding 2^52
  // exposes the integer in the mantissa bits.
  const __m256d tp = _mm256_round_pd(p, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  const __m128i n1 = _mm_add_epi32(sv, _mm_set1_epi32(kSigmaNsq));
  const __m256d n2d = _mm256_add_pd(tp, _mm256_cvtepi32_pd(n1));
  const __m256i e = _mm256_sub_epi64(_mm256_srli_epi64(_mm256_castpd_si256(n2d), 52), _mm256_set1_epi64x(1023 + 15));
  const __m256d two52 = _mm256_set1_pd(4503599627370496.0);
  const __m256i n2 = _mm256_sub_epi64(_mm256_castpd_si256(_mm256_add_pd(n2d, two52)), _mm256_castpd_si256(two52));
  const __m256i m = _mm256_srlv_epi64(n2, e);
  const __m128i tv = _mm256_mask_i64gather_epi32(_mm_setzero_si128(), reinterpret_cast<const int*>(table), m, mask, 2);
  // k as int32 x4: the low dwords of e.
  const __m128i k = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(e, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6)));
  return {sv, _mm_add_epi32(_mm_and_si128(tv, _mm_set1_epi32(0xFFFF)), _mm_slli_epi32(k, 11))};
}

// Horizontal sum of 8 int32 lanes as int64.
VIF_AVX2 inline std::int64_t hsum32(__m256i v) {
  const __m256i w = _mm256_add_epi64(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(v)),
                                     _mm256_cvtepi32_epi64(_mm256_extracti128_si256(v, 1)));
  const __m128i s = _mm_add_epi64(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1));
  return _mm_cvtsi128_si64(s) + _mm_extract_epi64(s, 1);
}

VIF_AVX2 inline std::int64_t hsum64(__m256i v) {
  const __m128i s = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  return _mm_cvtsi128_si64(s) + _mm_extract_epi64(s, 1);
}

}  // namespace

VIF_AVX2 void statistic(const std::int32_t* sigma1, const std::int32_t* sigma2, const std::int32_t* sigma12, int n,
                        double gain_limit, const std::uint16_t* table, Accum& acc) {
  const __m256i nsq_minus1 = _mm256_set1_epi32(kSigmaNsq - 1);
  const __m256i nsq = _mm256_set1_epi32(kSigmaNsq);
  const __m256i zero = _mm256_setzero_si256();
  const __m256i low32 = _mm256_set1_epi64x(0xFFFFFFFFLL);
  const __m256d egl = _mm256_set1_pd(gain_limit);
  // Per-lane partial sums: int32 for the bounded per-pixel terms (DL < 2^15, NL < 2^17, counts 1),
  // int64 for sigma2. Flushed to int64 every 2^12 blocks so the int32 lanes cannot overflow.
  std::int64_t num_log = 0, den_log = 0, lin_count = 0;
  __m256i lin_q = zero;
  int j = 0;
  while (j + 8 <= n) {
    __m256i dl = zero, nl = zero, cnt = zero;
    const int stop = std::min(n - 7, j + 8 * 4096);
    for (; j < stop; j += 8) {
      const __m256i s1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(sigma1 + j));
      const __m256i s2 = _mm256_max_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(sigma2 + j)), zero);
      const __m256i s12 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(sigma12 + j));
      const __m256i is_log = _mm256_cmpgt_epi32(s1, nsq_minus1);
      // Linear branch: count and sigma2 sum.
      const __m256i lin_s2 = _mm256_andnot_si256(is_log, s2);
      cnt = _mm256_sub_epi32(cnt, _mm256_andnot_si256(is_log, _mm256_set1_epi32(-1)));
      lin_q = _mm256_add_epi64(lin_q, _mm256_add_epi64(_mm256_and_si256(lin_s2, low32), _mm256_srli_epi64(lin_s2, 32)));
      if (_mm256_testz_si256(is_log, is_log)) continue;
      // Log branch: denominator term.
      const __m256i lden = log32(table, _mm256_add_epi32(s1, nsq), is_log);
      dl = _mm256_add_epi32(dl, _mm256_and_si256(is_log, _mm256_sub_epi32(lden, _mm256_set1_epi32(kLogSigmaNsq))));
      // Numerator where sigma12 > 0 and sigma2 > 0.
      const __m256i is_num =
          _mm256_and_si256(is_log, _mm256_and_si256(_mm256_cmpgt_epi32(s12, zero), _mm256_cmpgt_epi32(s2, zero)));
      if (_mm256_testz_si256(is_num, is_num)) continue;
      const NumHalf lo = numerator4(_mm256_castsi256_si128(s1), _mm256_castsi256_si128(s2),
                                    _mm256_castsi256_si128(s12), egl, table, _mm256_castsi256_si128(is_num));
      const NumHalf hi = numerator4(_mm256_extracti128_si256(s1, 1), _mm256_extracti128_si256(s2, 1),
                                    _mm256_extracti128_si256(s12, 1), egl, table, _mm256_extracti128_si256(is_num, 1));
      const __m256i sv = _mm256_set_m128i(hi.sv, lo.sv);
      const __m256i log_n2 = _mm256_set_m128i(hi.log_n2, lo.log_n2);
      const __m256i log_n1 = log32(table, _mm256_add_epi32(sv, nsq), is_num);
      nl = _mm256_add_epi32(nl, _mm256_and_si256(is_num, _mm256_sub_epi32(log_n2, log_n1)));
    }
    num_log += hsum32(nl);
    den_log += hsum32(dl);
    lin_count += hsum32(cnt);
  }
  acc.num_log += num_log;
  acc.den_log += den_log;
  acc.lin_count += lin_count;
  acc.lin_sigma2 += hsum64(lin_q);
  for (; j < n; ++j) accumulate_pixel(sigma1[j], sigma2[j], sigma12[j], gain_limit, table, acc);
}

// ---- downsampling -----------------------------------------------------------------------------

namespace {

template <class T, int Scale>
VIF_AVX2 void vertical_mean_s(const T* const* rows, int j0, int w, Shift sh, std::int16_t* out) {
  constexpr Kernel k = kernel_of(Scale);
  constexpr PairTaps pt = pair_taps(k);
  __m256i coef[9];
  for (int i = 0; i < pt.n; ++i) coef[i] = _mm256_set1_epi32(pt.coef[i]);
  const __m128i shift = _mm_cvtsi32_si128(int(sh.shift));
  const __m256i round = _mm256_set1_epi32(std::int32_t(sh.round));
  const __m256i flip = _mm256_set1_epi16(INT16_MIN);
  int j = j0;
  for (; j + 16 <= w; j += 16) {
    const __m256i z = _mm256_setzero_si256();
    Acc2 acc{z, z};
    for (int i = 0; i < pt.n; ++i) {
      const int t0 = pt.offset[i];
      const int t1 = t0 + 1 < k.size ? t0 + 1 : t0;
      __m256i a, b;
      if constexpr (sizeof(T) == 1) {
        // 8-bit samples fit int16 as they are; the sum is exact without an offset.
        a = _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(rows[t0] + j)));
        b = _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(rows[t1] + j)));
      } else {
        a = _mm256_xor_si256(load16(rows[t0] + j), flip);
        b = _mm256_xor_si256(load16(rows[t1] + j), flip);
      }
      madd_pair(acc, a, b, coef[i]);
    }
    if constexpr (sizeof(T) != 1) acc = {flip31(acc.lo), flip31(acc.hi)};
    store_offset16(out + j, _mm256_srl_epi32(_mm256_add_epi32(acc.lo, round), shift),
                   _mm256_srl_epi32(_mm256_add_epi32(acc.hi, round), shift));
  }
  for (; j < w; ++j) {
    std::uint64_t sum = 0;
    for (int t = 0; t < k.size; ++t) sum += std::uint64_t(k.taps[t]) * rows[t][j];
    out[j] = std::int16_t(std::int32_t((sum + sh.round) >> sh.shift) - 32768);
  }
}

template <int Scale>
VIF_AVX2 void horizontal_mean_even_s(const std::int16_t* v, int j0, int out_w, std::uint16_t* out) {
  constexpr Kernel k = kernel_of(Scale);
  constexpr PairTaps pt = pair_taps(k);
  __m256i coef[9];
  for (int i = 0; i < pt.n; ++i) coef[i] = _mm256_set1_epi32(pt.coef[i]);
  int j = j0;
  for (; j + 8 <= out_w; j += 8) {
    __m256i acc = _mm256_setzero_si256();
    const std::int16_t* base = v + 2 * j - k.half;
    for (int i = 0; i < pt.n; ++i)
      acc = _mm256_add_epi32(
          acc, _mm256_madd_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(base + pt.offset[i])), coef[i]));
    const __m256i r = _mm256_srli_epi32(_mm256_add_epi32(flip31(acc), _mm256_set1_epi32(32768)), 16);
    const __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi32(r, r), 0x08);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + j), _mm256_castsi256_si128(packed));
  }
  for (; j < out_w; ++j) {
    std::uint64_t sum = 0;
    for (int t = 0; t < k.size; ++t) sum += std::uint64_t(k.taps[t]) * std::uint64_t(v[2 * j - k.half + t] + 32768);
    out[j] = std::uint16_t((sum + 32768) >> 16);
  }
}

}  // namespace

void vertical_mean(const std::uint8_t* const* rows, Kernel k, int j0, int w, Shift sh, std::int16_t* out) {
  with_scale(k, [&]<int S>() { vertical_mean_s<std::uint8_t, S>(rows, j0, w, sh, out); });
}
void vertical_mean(const std::uint16_t* const* rows, Kernel k, int j0, int w, Shift sh, std::int16_t* out) {
  with_scale(k, [&]<int S>() { vertical_mean_s<std::uint16_t, S>(rows, j0, w, sh, out); });
}
void horizontal_mean_even(Kernel k, const std::int16_t* v, int j0, int out_w, std::uint16_t* out) {
  with_scale(k, [&]<int S>() { horizontal_mean_even_s<S>(v, j0, out_w, out); });
}

namespace {

// Whole rows, for the drivers of kernels_x86.hpp.
struct Avx2Passes {
  static void vertical(const std::uint8_t* const* rx, const std::uint8_t* const* ry, Kernel, int w, MomentShifts sh,
                       const PlaneRows& pr) {
    vertical_u8(rx, ry, 0, w, sh, pr);
  }
  static void vertical(const std::uint16_t* const* rx, const std::uint16_t* const* ry, Kernel k, int w,
                       MomentShifts sh, const PlaneRows& pr) {
    vertical_u16(rx, ry, k, 0, w, sh, pr);
  }
  static void horizontal(const PlaneRows& pr, Kernel k, int w, std::int32_t* s1, std::int32_t* s2,
                         std::int32_t* s12) {
    x86::horizontal(pr, k, 0, w, s1, s2, s12);
  }
  static constexpr auto statistic = x86::statistic;
  template <class T>
  static void vertical_mean(const T* const* rows, Kernel k, int w, Shift sh, std::int16_t* out) {
    x86::vertical_mean(rows, k, 0, w, sh, out);
  }
  static void horizontal_mean_even(Kernel k, const std::int16_t* v, int out_w, std::uint16_t* out) {
    x86::horizontal_mean_even(k, v, 0, out_w, out);
  }
};

}  // namespace

void init_avx2(KernelSet& k) {
  k.name = "avx2";
  k.scale_sums_u8 = scale_sums<Avx2Passes, std::uint8_t>;
  k.scale_sums_u16 = scale_sums<Avx2Passes, std::uint16_t>;
  k.downsample_u8 = downsample<Avx2Passes, std::uint8_t>;
  k.downsample_u16 = downsample<Avx2Passes, std::uint16_t>;
  k.statistic = statistic;
}

}  // namespace vqtwin::integer_vif::x86

#endif
