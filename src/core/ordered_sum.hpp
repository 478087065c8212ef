#pragma once
// A sequential double (or float) sum, ((+0 + t[0]) + t[1]) + ... + t[n-1] with every addition rounded
// once, as a CPU reference adds in raster order, reproduced bit for bit by chunks that run in parallel.
// Every step below holds for both binary formats (only the grid and exponent fields differ: Format).
//
// Why it is needed: float_ssim and integer_ssim add per-pixel doubles in raster order, and that
// rounding sequence is part of their values (integer_ssim's score is not rounded afterwards;
// float_ssim's fp32 mean hides it only away from rounding boundaries). No reordering is exact.
//
// How (nothing here is approximate; the approximations only choose where to look):
//  1. The terms are cut into `count` chunks of `length`. Each chunk's sum from 0 (in parallel) and a
//     running sum of those give approximate starts a[c], close to the CPU's partial sums S[c].
//  2. From a[c], each chunk runs four times in parallel, from a + j*g (j = 0..3, g the spacing of
//     doubles at a), recording each end and how close any partial sum came to a power of two.
//  3. One thread walks the chunks with the exact S (S[0] = 0) and takes S[c+1] from the runs:
//     inside one binade (power-of-two range) addition rounds to the binade's grid, so a run started
//     d = S - a later ends exactly d later, provided (a) no partial sum of the shifted run falls into
//     another binade than the unshifted one's and (b) d is a multiple of twice every grid visited, so
//     that ties round to even the same way. The run j = (d/g) mod 4 leaves a shift d - j*g, a multiple
//     of 4g; runs never climb more than one binade (grid 2g); "reach" is the largest |d| for which
//     (a) holds given the recorded clearance. Within reach, S[c+1] = end[j] + (d - j*g), exactly.
//     Out of reach (a chunk whose sums pass next to a power of two, change sign, or overflow), the
//     walker adds that chunk's terms itself, from the exact S[c]. Chunk 0 starts at a = S = 0.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/hd.hpp"

namespace vqtwin::ordered_sum {

// Chunks never exceed this count: the walk stages their table in a block's shared memory.
inline constexpr std::size_t kMaxChunks = 2048;
inline constexpr int kVariants = 4;

// The chunk length for n terms: about sqrt(n) (parallel runs and the walk take similar time), at
// least 256, and no more than kMaxChunks chunks.
inline std::size_t chunk_length(std::size_t n) {
  std::size_t len = std::size_t(std::sqrt(double(n))) + 1;
  if (len < 256) len = 256;
  const std::size_t min_len = (n + kMaxChunks - 1) / kMaxChunks;
  return len < min_len ? min_len : len;
}
inline std::size_t chunk_count(std::size_t n, std::size_t length) { return n == 0 ? 1 : (n + length - 1) / length; }

VQTWIN_HD inline std::uint64_t bits_of(double a) {
#if defined(__CUDA_ARCH__)
  return std::uint64_t(__double_as_longlong(a));
#else
  std::uint64_t x = 0;
  std::memcpy(&x, &a, sizeof a);
  return x;
#endif
}
VQTWIN_HD inline std::uint32_t bits_of(float a) {
#if defined(__CUDA_ARCH__)
  return std::uint32_t(__float_as_uint(a));
#else
  std::uint32_t x = 0;
  std::memcpy(&x, &a, sizeof a);
  return x;
#endif
}
VQTWIN_HD inline double from_bits(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __longlong_as_double((long long)x);
#else
  double a = 0;
  std::memcpy(&a, &x, sizeof a);
  return a;
#endif
}
VQTWIN_HD inline float from_bits(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(x);
#else
  float a = 0;
  std::memcpy(&a, &x, sizeof a);
  return a;
#endif
}
template <class T>
VQTWIN_HD inline bool same_bits(T a, T b) { return bits_of(a) == bits_of(b); }

// The binary formats the sums run in (binary64 for the SSIM-like sums, binary32 for fp32 sequences):
// the bits, the exponent field (where and how wide) and the largest biased exponent of a finite value.
template <class T>
struct Format;
template <>
struct Format<double> {
  using Bits = std::uint64_t;
  static constexpr int kMantissa = 52;
  static constexpr Bits kExpMask = 0x7FF;
};
template <>
struct Format<float> {
  using Bits = std::uint32_t;
  static constexpr int kMantissa = 23;
  static constexpr Bits kExpMask = 0xFF;
};

// The power of two at or below |a| (its binade's start); 0 for 0 and subnormals.
template <class T>
VQTWIN_HD inline T binade_of(T a) {
  using F = Format<T>;
  return from_bits(typename F::Bits(bits_of(a) & (F::kExpMask << F::kMantissa)));
}
// The spacing of values in |a|'s binade (2^-mantissa of its start); 0 where that is not a normal value.
template <class T>
VQTWIN_HD inline T grid_of(T a) {
  using F = Format<T>;
  const typename F::Bits e = (bits_of(a) >> F::kMantissa) & F::kExpMask;
  return (e > typename F::Bits(F::kMantissa) && e < F::kExpMask)
             ? from_bits(typename F::Bits((e - F::kMantissa) << F::kMantissa))
             : T(0);
}

// The magnitude, minimum and maximum used below (no NaN reaches a decision through them: a NaN
// partial sum makes the run's end NaN, which is checked).
template <class T>
VQTWIN_HD inline T magnitude(T a) { return a < 0 ? -a : a; }
template <class T>
VQTWIN_HD inline T smaller(T a, T b) { return b < a ? b : a; }
template <class T>
VQTWIN_HD inline T larger(T a, T b) { return b > a ? b : a; }

// start + t[begin] + ... + t[end - 1], in index order, each addition rounded once.
template <class T>
VQTWIN_HD inline T run(const T* t, std::size_t begin, std::size_t end, T start) {
  T s = start;
  for (std::size_t i = begin; i < end; ++i) s = s + t[i];
  return s;
}

// A chunk's four runs from a + j*g (step 2 above).
template <class T>
struct Runs {
  T end[kVariants];
  T reach;  // the runs shifted by any |d| < reach are exact; <= 0: never
};
using ChunkRuns = Runs<double>;

// 1/g for a grid g = grid_of(a) > 0: a power of two, so exact (and normal: g >= the smallest normal).
template <class T>
VQTWIN_HD inline T inverse_grid(T g) {
  using F = Format<T>;
  const typename F::Bits e = (bits_of(g) >> F::kMantissa) & F::kExpMask;
  return from_bits(typename F::Bits((2 * (F::kExpMask >> 1) - e) << F::kMantissa));
}

template <class T>
VQTWIN_HD inline T floor_of(T x) {
  if constexpr (sizeof(T) == 4) return floorf(x);
  else return floor(x);
}

template <class T>
VQTWIN_HD inline Runs<T> run_variants(const T* t, std::size_t begin, std::size_t end, T a) {
  const T g = grid_of(a);
  Runs<T> r{{a, a + g, a + 2 * g, a + 3 * g}, T(-1)};
  // Within reach, every partial sum keeps a's sign and stays in [B, 4B) in magnitude (B = a's binade),
  // so the only powers of two it can come near are B, 2B and 4B. Per run, the smallest and largest
  // partial sums give the distances to B and 4B, and the distance of each partial sum to P = +-2B is
  // kept (exact there: Sterbenz). Partial sums that leave [B, 4B), change sign or stop being finite
  // (a NaN or infinity reaches the end, where it is seen) make the chunk walked.
  const T B = binade_of(a);
  const T P = a < 0 ? -2 * B : 2 * B;
  T lo[kVariants], hi[kVariants], near[kVariants];
  for (int j = 0; j < kVariants; ++j) {
    lo[j] = hi[j] = r.end[j];
    near[j] = magnitude(T(r.end[j] - P));
  }
  for (std::size_t i = begin; i < end; ++i) {
    const T x = t[i];
    for (int j = 0; j < kVariants; ++j) {
      const T e = r.end[j] + x;
      r.end[j] = e;
      lo[j] = smaller(lo[j], e);
      hi[j] = larger(hi[j], e);
      near[j] = smaller(near[j], magnitude(T(e - P)));
    }
  }
  const T inf = T(INFINITY);
  bool ok = g > 0;
  T low = inf, high = 0, clearance = inf;  // magnitudes over the four runs
  for (int j = 0; j < kVariants; ++j) {
    ok = ok && magnitude(r.end[j]) < inf;  // false for NaN too
    const T l = a < 0 ? -hi[j] : lo[j], h = a < 0 ? -lo[j] : hi[j];
    low = smaller(low, l);
    high = larger(high, h);
    clearance = smaller(clearance, near[j]);
  }
  // At most one binade above a's (grids g and 2g: a shift by a multiple of 4g is even on both).
  if (ok && low >= B && high < 4 * B) {
    // low - B and 4B - high are exact where they are the smallest distance (Sterbenz).
    clearance = smaller(clearance, smaller(T(low - B), T(4 * B - high)));
    // A shifted partial sum stays in its binade when its shift plus half a grid step (the exact sum
    // before rounding) is below the clearance; the shift is |d| plus up to 3g; 2 * grid_of(high)
    // more covers the rounding of this subtraction.
    r.reach = clearance - 4 * g - 2 * grid_of(high);
  }
  return r;
}

// The end of a chunk's run from the exact start s, from its runs from a (step 3); false when s is
// out of their reach. `ends` are the four run ends. Every operation below is exact (the comments of
// run_variants say why): d and g are on a's grid, 1/g is a power of two.
template <class T>
VQTWIN_HD inline bool shifted_end(const T* ends, T reach, T a, T s, T* end) {
  if (same_bits(a, s)) {
    *end = ends[0];
    return true;
  }
  const T d = s - a;
  if (!(reach > 0) || !(magnitude(d) < reach)) return false;
  const T g = grid_of(a);
  const T k = d * inverse_grid(g);                    // an integer: s and a are on a's grid
  const T j = k - T(4) * floor_of(T(k * T(0.25)));  // k mod 4, in [0, 4)
  // The run chosen without indexing by a computed value (registers on a device).
  const T e = j < T(2) ? (j < T(1) ? ends[0] : ends[1]) : (j < T(3) ? ends[2] : ends[3]);
  *end = e + (d - j * g);
  return true;
}
template <class T>
VQTWIN_HD inline bool shifted_end(const Runs<T>& r, T a, T s, T* end) {
  return shifted_end(r.end, r.reach, a, s, end);
}

// Step 1's approximate starts: a[0] = 0, a[c+1] = a[c] + (chunk c's sum from 0).
template <class T>
VQTWIN_HD inline void approximate_starts(const T* chunk_sums, T* a, std::size_t count) {
  T s = 0;
  for (std::size_t c = 0; c < count; ++c) {
    a[c] = s;
    s = s + chunk_sums[c];
  }
}

// Counts of the last host sum_by_chunks (for tests and measurements).
struct Stats {
  std::size_t chunks = 0, walked = 0;  // walked: chunks added term by term in step 3
};

// The whole procedure on the host, step for step as the device runs it (backends/cuda/
// ordered_sum.cu): what the unit tests check against a plain loop.
template <class T>
inline T sum_by_chunks(const T* t, std::size_t n, Stats* stats = nullptr) {
  const std::size_t length = chunk_length(n), count = chunk_count(n, length);
  static thread_local T sums[kMaxChunks], starts[kMaxChunks];
  static thread_local Runs<T> runs[kMaxChunks];
  auto bounds = [&](std::size_t c, std::size_t& b, std::size_t& e) {
    b = c * length;
    e = b + length < n ? b + length : n;
  };
  std::size_t b = 0, e = 0;
  for (std::size_t c = 0; c < count; ++c) {
    bounds(c, b, e);
    sums[c] = run(t, b, e, T(0));
  }
  approximate_starts(sums, starts, count);
  for (std::size_t c = 0; c < count; ++c) {
    bounds(c, b, e);
    runs[c] = run_variants(t, b, e, starts[c]);
  }
  T s = 0;
  std::size_t walked = 0;
  for (std::size_t c = 0; c < count; ++c) {
    T next = 0;
    if (shifted_end(runs[c], starts[c], s, &next)) {
      s = next;
    } else {
      bounds(c, b, e);
      s = run(t, b, e, s);
      ++walked;
    }
  }
  if (stats) *stats = {count, walked};
  return s;
}

}  // namespace vqtwin::ordered_sum
