#pragma once
// psnr_hvs's scalar math (libvmaf's third_party/xiph/psnr_hvs.c, PSNR-HVS-M of Ponomarenko et al. as
// Daala computes it), shared by the CPU reference and the twins.
//
// A plane is cut into 8x8 blocks at steps of 7 (x = 0, 7, 14, ... while x < w - 7; the same for y).
// Per block: the integer Daala 8x8 DCT of both blocks, a masking threshold from the AC energy weighted by
// the squared, scaled CSF and by the ratio of the quadrant variances to the block variance, and 64 terms
// (max(|DCT_ref - DCT_dist| - threshold / mask, 0) * csf)^2 (the DC term unmasked). All terms of all blocks
// are added into one fp32 total, block by block in raster order, term by term in row order; the plane's
// score is total / count / (2^bpc - 1)^2 (fp32), written as 10 * -log10(score).
//
// Every function here is a template over a lane type: `int32_t`/`float` for one block (the reference), or
// GCC vectors of them for several blocks side by side, each lane doing exactly the scalar sequence.
#include <cmath>
#include <cstdint>

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
#define VQTWIN_HVS_INLINE inline
#endif

namespace vqtwin::psnr_hvs {

// Daala's normalised inverse quantisation matrices for the 8x8 DCT (as float, rounded from these decimals).
inline constexpr float kCsfY[64] = {
    1.6193873005f,  2.2901594831f,  2.08509755623f,  1.48366094411f,  1.00227514334f,  0.678296995242f, 0.466224900598f, 0.3265091542f,
    2.2901594831f,  1.94321815382f, 2.04793073064f,  1.68731108984f,  1.2305666963f,   0.868920337363f, 0.61280991668f,  0.436405793551f,
    2.08509755623f, 2.04793073064f, 1.34329019223f,  1.09205635862f,  0.875748795257f, 0.670882927016f, 0.501731932449f, 0.372504254596f,
    1.48366094411f, 1.68731108984f, 1.09205635862f,  0.772819797575f, 0.605636379554f, 0.48309405692f,  0.380429446972f, 0.295774038565f,
    1.00227514334f, 1.2305666963f,  0.875748795257f, 0.605636379554f, 0.448996256676f, 0.352889268808f, 0.283006984131f, 0.226951348204f,
    0.678296995242f, 0.868920337363f, 0.670882927016f, 0.48309405692f, 0.352889268808f, 0.27032073436f,  0.215017739696f, 0.17408067321f,
    0.466224900598f, 0.61280991668f, 0.501731932449f, 0.380429446972f, 0.283006984131f, 0.215017739696f, 0.168869545842f, 0.136153931001f,
    0.3265091542f,  0.436405793551f, 0.372504254596f, 0.295774038565f, 0.226951348204f, 0.17408067321f,  0.136153931001f, 0.109083846276f};

inline constexpr float kCsfCb[64] = {
    1.91113096927f,  2.46074210438f,  1.18284184739f,  1.14982565193f,  1.05017074788f,  0.898018824055f, 0.74725392039f,  0.615105596242f,
    2.46074210438f,  1.58529308355f,  1.21363250036f,  1.38190029285f,  1.33100189972f,  1.17428548929f,  0.996404342439f, 0.830890433625f,
    1.18284184739f,  1.21363250036f,  0.978712413627f, 1.02624506078f,  1.03145147362f,  0.960060382087f, 0.849823426169f, 0.731221236837f,
    1.14982565193f,  1.38190029285f,  1.02624506078f,  0.861317501629f, 0.801821139099f, 0.751437590932f, 0.685398513368f, 0.608694761374f,
    1.05017074788f,  1.33100189972f,  1.03145147362f,  0.801821139099f, 0.676555426187f, 0.605503172737f, 0.55002013668f,  0.495804539034f,
    0.898018824055f, 1.17428548929f,  0.960060382087f, 0.751437590932f, 0.605503172737f, 0.514674450957f, 0.454353482512f, 0.407050308965f,
    0.74725392039f,  0.996404342439f, 0.849823426169f, 0.685398513368f, 0.55002013668f,  0.454353482512f, 0.389234902883f, 0.342353999733f,
    0.615105596242f, 0.830890433625f, 0.731221236837f, 0.608694761374f, 0.495804539034f, 0.407050308965f, 0.342353999733f, 0.295530605237f};

inline constexpr float kCsfCr[64] = {
    2.03871978502f,  2.62502345193f,  1.26180942886f,  1.11019789803f,  1.01397751469f,  0.867069376285f, 0.721500455585f, 0.593906509971f,
    2.62502345193f,  1.69112867013f,  1.17180569821f,  1.3342742857f,   1.28513006198f,  1.13381474809f,  0.962064122248f, 0.802254508198f,
    1.26180942886f,  1.17180569821f,  0.944981930573f, 0.990876405848f, 0.995903384143f, 0.926972725286f, 0.820534991409f, 0.706020324706f,
    1.11019789803f,  1.3342742857f,   0.990876405848f, 0.831632933426f, 0.77418706195f,  0.725539939514f, 0.661776842059f, 0.587716619023f,
    1.01397751469f,  1.28513006198f,  0.995903384143f, 0.77418706195f,  0.653238524286f, 0.584635025748f, 0.531064164893f, 0.478717061273f,
    0.867069376285f, 1.13381474809f,  0.926972725286f, 0.725539939514f, 0.584635025748f, 0.496936637883f, 0.438694579826f, 0.393021669543f,
    0.721500455585f, 0.962064122248f, 0.820534991409f, 0.661776842059f, 0.531064164893f, 0.438694579826f, 0.375820256136f, 0.330555063063f,
    0.593906509971f, 0.802254508198f, 0.706020324706f, 0.587716619023f, 0.478717061273f, 0.393021669543f, 0.330555063063f, 0.285345396658f};

// The CSF of plane p: luma, then libvmaf uses the 4:2:0 Cb and Cr tables for every chroma format.
inline const float* csf_of(int plane) { return plane == 0 ? kCsfY : plane == 1 ? kCsfCb : kCsfCr; }

// The masking table: (csf * 0.3885746225901003)^2, the products in double, rounded to float once.
struct Tables {
  float csf[64];
  float mask[64];
};
inline Tables make_tables(const float* csf) {
  Tables t{};
  for (int k = 0; k < 64; ++k) {
    t.csf[k] = csf[k];
    t.mask[k] = float((double(csf[k]) * 0.3885746225901003) * (double(csf[k]) * 0.3885746225901003));
  }
  return t;
}

// --- lane helpers: one block (int32_t / float), or kLanes blocks (GCC vectors; declared here, before
// the templates, since unqualified calls on vector types find only what is declared before them) ---
VQTWIN_HVS_INLINE float to_float(std::int32_t v) { return float(v); }
VQTWIN_HVS_INLINE std::int32_t abs_int(std::int32_t v) { return v < 0 ? -v : v; }
VQTWIN_HVS_INLINE float less_select(float a, float b, float if_less, float otherwise) { return a < b ? if_less : otherwise; }
VQTWIN_HVS_INLINE float greater_select(float a, float b, float if_greater, float otherwise) { return a > b ? if_greater : otherwise; }
// libvmaf: float = sqrt(double(x)) / 32.f (a double quotient rounded to float).
VQTWIN_HVS_INLINE float masked_root(float x) { return float(std::sqrt(double(x)) / 32.0f); }
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

// The plane's score from the fp32 total of its terms and their count, as libvmaf divides.
inline double plane_score(float total, int count, int bitdepth) {
  float r = total / float(count);
  const std::int32_t max = (std::int32_t(1) << bitdepth) - 1;
  r /= float(max * max);
  return r;
}

// 10 * (-1 * log10(score)).
inline double to_db(double score) { return 10 * (-1 * std::log10(score)); }

// The frame's combined score from the three plane scores.
inline double combined_score(double y, double cb, double cr) { return y * .8 + .1 * (cb + cr); }

}  // namespace vqtwin::psnr_hvs

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
