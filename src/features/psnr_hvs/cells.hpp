#pragma once
// psnr_hvs's per-block cells (libvmaf's third_party/xiph/psnr_hvs.c, Daala's PSNR-HVS-M), one
// definition for the CPU reference (kernels.cpp: kLanes blocks side by side in GCC vectors, each lane
// doing the scalar sequence) and the CUDA twin (cuda.cu: one block per thread, the scalar instance).
//
// Per block: the integer Daala 8x8 DCT of both blocks, a masking threshold from the AC energy weighted
// by the squared, scaled CSF and by the ratio of the quadrant variances to the block variance, and 64
// terms (max(|DCT_ref - DCT_dist| - threshold / mask, 0) * csf)^2 (the DC term unmasked). Integer
// steps are exact on both; each float step is one IEEE operation (no contraction: -ffp-contract=off on
// the host, -fmad=false on the device; division and double sqrt are IEEE's on both).
//
// Every function here is a template over a lane type: `int32_t`/`float` for one block (the reference
// and the device), or GCC vectors of them for several blocks side by side (host builds only).
#include <cmath>
#include <cstdint>

#include "core/hd.hpp"

// The vector instances of the helpers and templates below are inlined into one translation unit's vector
// code: the calling convention GCC warns about (wide vectors passed without AVX-512) never applies.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

// The vector helpers and the templates are always inlined: the vector instances are inlined into each
// instruction-set build of kernels.cpp (common/isa.hpp), and an out-of-line copy would be built for the
// baseline, with another convention for passing wide vectors than its AVX-512 caller.
#if defined(__GNUC__) && !defined(__CUDACC__)
#define VQTWIN_HVS_INLINE inline __attribute__((always_inline))
#else
#define VQTWIN_HVS_INLINE VQTWIN_HD inline
#endif

namespace vqtwin::psnr_hvs {

// A plane's CSF and its masking table (math.hpp's make_tables).
struct Tables {
  float csf[64];
  float mask[64];
};

// --- lane helpers: one block (int32_t / float), or kLanes blocks (GCC vectors; declared here, before
// the templates, since unqualified calls on vector types find only what is declared before them) ---
VQTWIN_HVS_INLINE float to_float(std::int32_t v) { return float(v); }
VQTWIN_HVS_INLINE std::int32_t abs_int(std::int32_t v) { return v < 0 ? -v : v; }
VQTWIN_HVS_INLINE float less_select(float a, float b, float if_less, float otherwise) { return a < b ? if_less : otherwise; }
VQTWIN_HVS_INLINE float greater_select(float a, float b, float if_greater, float otherwise) { return a > b ? if_greater : otherwise; }
// libvmaf: float = sqrt(double(x)) / 32.f (a double quotient rounded to float).
// The device's double sqrt is IEEE's correctly rounded one, as glibc's (sqrt is exact to the half ulp
// on both): the same double, then the same division by 32 and rounding to float.
VQTWIN_HVS_INLINE float masked_root(float x) {
#if defined(__CUDA_ARCH__)
  return float(__dsqrt_rn(double(x)) / 32.0f);
#else
  return float(std::sqrt(double(x)) / 32.0f);
#endif
}
// Daala's OD_UNBIASED_RSHIFT32: (int32)((uint32)a >> (32 - b)) + a) >> b, i.e. a / 2^b rounded toward 0.
template <int B>
VQTWIN_HVS_INLINE std::int32_t unbiased_rshift(std::int32_t a) {
  return std::int32_t((std::uint32_t(a) >> (32 - B)) + std::uint32_t(a)) >> B;
}

#if defined(__GNUC__) && !defined(__CUDACC__)
inline constexpr int kLanes = 16;
typedef std::int32_t VInt __attribute__((vector_size(4 * kLanes)));
typedef std::uint32_t VUint __attribute__((vector_size(4 * kLanes)));
typedef float VFloat __attribute__((vector_size(4 * kLanes)));
VQTWIN_HVS_INLINE VFloat to_float(VInt v) { return __builtin_convertvector(v, VFloat); }
VQTWIN_HVS_INLINE VInt abs_int(VInt v) { return v < 0 ? -v : v; }
VQTWIN_HVS_INLINE VFloat less_select(VFloat a, VFloat b, VFloat if_less, VFloat otherwise) { return a < b ? if_less : otherwise; }
VQTWIN_HVS_INLINE VFloat greater_select(VFloat a, VFloat b, VFloat if_greater, VFloat otherwise) {
  return a > b ? if_greater : otherwise;
}
VQTWIN_HVS_INLINE VFloat masked_root(VFloat x) {
  VFloat r;
  for (int l = 0; l < kLanes; ++l) r[l] = masked_root(float(x[l]));
  return r;
}
template <int B>
VQTWIN_HVS_INLINE VInt unbiased_rshift(VInt a) {
  return VInt((VUint(a) >> (32 - B)) + VUint(a)) >> B;
}
#endif

// Daala's integer 8-point forward DCT (lifting steps), input x[0], x[stride], ...; output y[0..7].
template <class I>
VQTWIN_HVS_INLINE void fdct8(I* y, const I* x, int stride) {
  I t0 = x[0 * stride], t4 = x[1 * stride], t2 = x[2 * stride], t6 = x[3 * stride];
  I t7 = x[4 * stride], t3 = x[5 * stride], t5 = x[6 * stride], t1 = x[7 * stride];
  t1 = t0 - t1;
  const I t1h = unbiased_rshift<1>(t1);
  t0 -= t1h;
  t4 += t5;
  const I t4h = unbiased_rshift<1>(t4);
  t5 -= t4h;
  t3 = t2 - t3;
  t2 -= unbiased_rshift<1>(t3);
  t6 += t7;
  const I t6h = unbiased_rshift<1>(t6);
  t7 = t6h - t7;
  t0 += t6h;
  t6 = t0 - t6;
  t2 = t4h - t2;
  t4 = t2 - t4;
  t0 -= (t4 * 13573 + 16384) >> 15;
  t4 += (t0 * 11585 + 8192) >> 14;
  t0 -= (t4 * 13573 + 16384) >> 15;
  t6 -= (t2 * 21895 + 16384) >> 15;
  t2 += (t6 * 15137 + 8192) >> 14;
  t6 -= (t2 * 21895 + 16384) >> 15;
  t3 += (t5 * 19195 + 16384) >> 15;
  t5 += (t3 * 11585 + 8192) >> 14;
  t3 -= (t5 * 7489 + 4096) >> 13;
  t7 = unbiased_rshift<1>(t5) - t7;
  t5 -= t7;
  t3 = t1h - t3;
  t1 -= t3;
  t7 += (t1 * 3227 + 16384) >> 15;
  t1 -= (t7 * 6393 + 16384) >> 15;
  t7 += (t1 * 3227 + 16384) >> 15;
  t5 += (t3 * 2485 + 4096) >> 13;
  t3 -= (t5 * 18205 + 16384) >> 15;
  t5 += (t3 * 2485 + 4096) >> 13;
  y[0] = t0;
  y[1] = t1;
  y[2] = t2;
  y[3] = t3;
  y[4] = t4;
  y[5] = t5;
  y[6] = t6;
  y[7] = t7;
}

// The 8x8 DCT in place: columns into rows of a temporary, then its columns into rows of b.
template <class I>
VQTWIN_HVS_INLINE void fdct8x8(I* b) {
  I z[64];
  for (int i = 0; i < 8; ++i) fdct8(z + 8 * i, b + i, 8);
  for (int i = 0; i < 8; ++i) fdct8(b + 8 * i, z + i, 8);
}

// The quadrant (0..3) of coefficient (i, j): libvmaf's ((i & 12) >> 2) + ((j & 12) >> 1).
constexpr int quadrant(int i, int j) { return ((i & 12) >> 2) + ((j & 12) >> 1); }

// Variance ratio of one block: sum of the four quadrant variances over the block variance (unchanged when
// that is not positive), every sum fp32 in row order as libvmaf adds them.
template <class I, class F>
VQTWIN_HVS_INLINE F variance_ratio(const I* b) {
  I total{};
  I quad[4] = {I{}, I{}, I{}, I{}};
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      total += b[i * 8 + j];
      quad[quadrant(i, j)] += b[i * 8 + j];
    }
  // Integer sums below 2^24 are what libvmaf's fp32 running sums hold exactly; /64 and /16 are exact.
  const F mean = to_float(total) / 64.f;
  F qmean[4];
  for (int q = 0; q < 4; ++q) qmean[q] = to_float(quad[q]) / 16.f;
  F var{};
  F qvar[4] = {F{}, F{}, F{}, F{}};
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      const F v = to_float(b[i * 8 + j]);
      const int q = quadrant(i, j);
      var += (v - mean) * (v - mean);
      qvar[q] += (v - qmean[q]) * (v - qmean[q]);
    }
  var *= 1 / 63.f * 64;
  for (int q = 0; q < 4; ++q) qvar[q] *= 1 / 15.f * 16;
  return greater_select(var, F{}, (qvar[0] + qvar[1] + qvar[2] + qvar[3]) / var, var);
}

// The AC energy weighted by the mask table: sum over (i, j) != (0, 0) of float(c^2) * mask, in row order.
// c^2 is an int product (at most 12-bit samples: below 2^31), rounded to float as libvmaf converts it.
template <class I, class F>
VQTWIN_HVS_INLINE F masked_energy(const I* c, const float* mask) {
  F e{};
  for (int k = 1; k < 64; ++k) e += to_float(c[k] * c[k]) * mask[k];
  return e;
}

// The 64 terms of one block pair (s = reference samples, d = distorted; both overwritten by their DCTs).
template <class I, class F>
VQTWIN_HVS_INLINE void block_terms(I* s, I* d, const Tables& t, F* terms) {
  const F s_ratio = variance_ratio<I, F>(s);
  const F d_ratio = variance_ratio<I, F>(d);
  fdct8x8(s);
  fdct8x8(d);
  const F s_mask = masked_root(masked_energy<I, F>(s, t.mask) * s_ratio);
  const F d_mask = masked_root(masked_energy<I, F>(d, t.mask) * d_ratio);
  const F m = greater_select(d_mask, s_mask, d_mask, s_mask);
  for (int k = 0; k < 64; ++k) {
    F err = to_float(abs_int(s[k] - d[k]));
    if (k != 0) {
      const F threshold = m / t.mask[k];
      err = less_select(err, threshold, F{}, err - threshold);
    }
    terms[k] = (err * t.csf[k]) * (err * t.csf[k]);
  }
}

// Blocks along one dimension of n samples: positions 0, 7, 14, ... below n - 7.
constexpr int block_count(int n) { return n > 7 ? (n - 1) / 7 : 0; }

// The 64 terms of the block at (x, y) of one plane pair (scalar lanes; the twin's one thread per block).
// `ref(r)` / `dist(r)` give row r's samples (type T).
template <class T, class Rows>
VQTWIN_HVS_INLINE void block_terms_at(const Rows& ref, const Rows& dist, int x, int y, const Tables& t, float* terms) {
  std::int32_t s[64], d[64];
  for (int i = 0; i < 8; ++i) {
    const T* rr = ref(y + i);
    const T* dr = dist(y + i);
    for (int j = 0; j < 8; ++j) {
      s[i * 8 + j] = rr[x + j];
      d[i * 8 + j] = dr[x + j];
    }
  }
  block_terms<std::int32_t, float>(s, d, t, terms);
}

}  // namespace vqtwin::psnr_hvs

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
