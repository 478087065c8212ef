#pragma once
// A sequential double sum, ((+0 + t[0]) + t[1]) + ... + t[n-1] with every addition rounded once, as a
// CPU reference adds in raster order, reproduced bit for bit by chunks that run in parallel.
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
VQTWIN_HD inline double from_bits(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __longlong_as_double((long long)x);
#else
  double a = 0;
  std::memcpy(&a, &x, sizeof a);
  return a;
#endif
}
VQTWIN_HD inline bool same_bits(double a, double b) { return bits_of(a) == bits_of(b); }

// The power of two at or below |a| (its binade's start); 0 for 0 and subnormals.
VQTWIN_HD inline double binade_of(double a) { return from_bits(bits_of(a) & 0x7FF0000000000000ull); }
// The spacing of doubles in |a|'s binade (2^-52 of its start); 0 where that is not a normal double.
VQTWIN_HD inline double grid_of(double a) {
  const std::uint64_t e = (bits_of(a) >> 52) & 0x7FF;
  return (e > 52 && e < 0x7FF) ? from_bits((e - 52) << 52) : 0.0;
}

// start + t[begin] + ... + t[end - 1], in index order, each addition rounded once.
VQTWIN_HD inline double run(const double* t, std::size_t begin, std::size_t end, double start) {
  double s = start;
  for (std::size_t i = begin; i < end; ++i) s = s + t[i];
  return s;
}

// A chunk's four runs from a + j*g (step 2 above).
struct ChunkRuns {
  double end[kVariants];
  double reach;  // the runs shifted by any |d| < reach are exact; <= 0: never
};

// 1/g for a grid g = grid_of(a) > 0: a power of two, so exact (and normal: g >= 2^-1022).
VQTWIN_HD inline double inverse_grid(double g) {
  return from_bits((std::uint64_t(2046) - ((bits_of(g) >> 52) & 0x7FF)) << 52);
}

VQTWIN_HD inline ChunkRuns run_variants(const double* t, std::size_t begin, std::size_t end, double a) {
  const double g = grid_of(a);
  ChunkRuns r{{a, a + g, a + 2 * g, a + 3 * g}, -1.0};
  // Within reach, every partial sum keeps a's sign and stays in [B, 4B) in magnitude (B = a's binade),
  // so the only powers of two it can come near are B, 2B and 4B. Per run, the smallest and largest
  // partial sums give the distances to B and 4B, and the distance of each partial sum to P = +-2B is
  // kept (exact there: Sterbenz). Partial sums that leave [B, 4B), change sign or stop being finite
  // (a NaN or infinity reaches the end, where it is seen) make the chunk walked.
  const double B = binade_of(a);
  const double P = a < 0 ? -2 * B : 2 * B;
  double lo[kVariants], hi[kVariants], near[kVariants];
  for (int j = 0; j < kVariants; ++j) {
    lo[j] = hi[j] = r.end[j];
    near[j] = fabs(r.end[j] - P);
  }
  for (std::size_t i = begin; i < end; ++i) {
    const double x = t[i];
    for (int j = 0; j < kVariants; ++j) {
      const double e = r.end[j] + x;
      r.end[j] = e;
      lo[j] = fmin(lo[j], e);
      hi[j] = fmax(hi[j], e);
      near[j] = fmin(near[j], fabs(e - P));
    }
  }
  bool ok = g > 0;
  double low = INFINITY, high = 0, clearance = INFINITY;  // magnitudes over the four runs
  for (int j = 0; j < kVariants; ++j) {
    ok = ok && fabs(r.end[j]) < INFINITY;  // false for NaN too
    const double l = a < 0 ? -hi[j] : lo[j], h = a < 0 ? -lo[j] : hi[j];
    low = fmin(low, l);
    high = fmax(high, h);
    clearance = fmin(clearance, near[j]);
  }
  // At most one binade above a's (grids g and 2g: a shift by a multiple of 4g is even on both).
  if (ok && low >= B && high < 4 * B) {
    // low - B and 4B - high are exact where they are the smallest distance (Sterbenz).
    clearance = fmin(clearance, fmin(low - B, 4 * B - high));
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
VQTWIN_HD inline bool shifted_end(const double* ends, double reach, double a, double s, double* end) {
  if (same_bits(a, s)) {
    *end = ends[0];
    return true;
  }
  const double d = s - a;
  if (!(reach > 0) || !(fabs(d) < reach)) return false;
  const double g = grid_of(a);
  const double k = d * inverse_grid(g);         // an integer: s and a are on a's grid
  const double j = k - 4.0 * floor(k * 0.25);  // k mod 4, in [0, 4)
  // The run chosen without indexing by a computed value (registers on a device).
  const double e = j < 2.0 ? (j < 1.0 ? ends[0] : ends[1]) : (j < 3.0 ? ends[2] : ends[3]);
  *end = e + (d - j * g);
  return true;
}
VQTWIN_HD inline bool shifted_end(const ChunkRuns& r, double a, double s, double* end) {
  return shifted_end(r.end, r.reach, a, s, end);
}

// Step 1's approximate starts: a[0] = 0, a[c+1] = a[c] + (chunk c's sum from 0).
VQTWIN_HD inline void approximate_starts(const double* chunk_sums, double* a, std::size_t count) {
  double s = 0.0;
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
inline double sum_by_chunks(const double* t, std::size_t n, Stats* stats = nullptr) {
  const std::size_t length = chunk_length(n), count = chunk_count(n, length);
  static thread_local double sums[kMaxChunks], starts[kMaxChunks];
  static thread_local ChunkRuns runs[kMaxChunks];
  auto bounds = [&](std::size_t c, std::size_t& b, std::size_t& e) {
    b = c * length;
    e = b + length < n ? b + length : n;
  };
  std::size_t b = 0, e = 0;
  for (std::size_t c = 0; c < count; ++c) {
    bounds(c, b, e);
    sums[c] = run(t, b, e, 0.0);
  }
  approximate_starts(sums, starts, count);
  for (std::size_t c = 0; c < count; ++c) {
    bounds(c, b, e);
    runs[c] = run_variants(t, b, e, starts[c]);
  }
  double s = 0.0;
  std::size_t walked = 0;
  for (std::size_t c = 0; c < count; ++c) {
    double next = 0;
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
