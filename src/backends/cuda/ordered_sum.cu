#include "backends/cuda/ordered_sum.hpp"

#include <cstdint>

#include "backends/cuda/check.hpp"
#include "common/ordered_sum.hpp"

namespace vqtwin::cuda {
namespace {

using ordered_sum::kTile;
constexpr int kThreads = 1024;
constexpr int kPer = kTile / kThreads;  // consecutive elements per thread
static_assert(kPer * kThreads == kTile);
// After a run that stops early, this many elements go the plain way first (doubling while runs keep
// stopping early, up to kMaxSerial): a sum that keeps leaving its binade gains nothing from scans.
constexpr long long kFirstSerial = 64, kMaxSerial = 8192;

// s += x[from..to), in order (loads batched ahead of the dependent adds).
__device__ double add_serially(double s, const double* x, long long from, long long to) {
  long long i = from;
  for (; i + 32 <= to; i += 32) {
    double v[32];
    for (int k = 0; k < 32; ++k) v[k] = x[i + k];
    for (int k = 0; k < 32; ++k) s += v[k];
  }
  for (; i < to; ++i) s += x[i];
  return s;
}

__global__ void __launch_bounds__(kThreads) ordered_sums_kernel(OrderedSums sums, double* out, bool runs) {
  const double* x = sums.values[blockIdx.x];
  const long long n = sums.count[blockIdx.x];
  __shared__ unsigned long long warp_total[kThreads / 32];
  __shared__ double sum;
  __shared__ long long pos, serial, early;
  __shared__ int first_bad;
  __shared__ long long end_units;
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  if (t == 0) {
    sum = 0.0;
    pos = 0;
    serial = runs ? 0 : n;
    early = 0;
  }
  __syncthreads();
  for (;;) {
    const double s = sum;
    const long long p = pos;
    const long long k_serial = serial;
    if (p >= n) break;
    int e = 0;
    if (k_serial > 0 || !ordered_sum::grid_exponent(s, e)) {
      // A stretch the run rule does not take: the plain loop, one thread.
      __syncthreads();
      if (t == 0) {
        const long long m = k_serial > 0 ? (k_serial < n - p ? k_serial : n - p) : 1;
        sum = add_serially(s, x, p, p + m);
        pos = p + m;
        serial = 0;
      }
      __syncthreads();
      continue;
    }
    const int len = n - p < kTile ? int(n - p) : kTile;
    if (t == 0) first_bad = len;
    __syncthreads();

    // This thread's elements in grid steps, and their total.
    std::int64_t q[kPer];
    bool ok[kPer];
    unsigned long long mine = 0;
    for (int k = 0; k < kPer; ++k) {
      const int idx = t * kPer + k;
      q[k] = 0;
      ok[k] = idx >= len || ordered_sum::steps_of(x[p + idx], e, q[k]);
      if (!ok[k]) q[k] = 0;
      mine += (unsigned long long)q[k];
    }
    // Exclusive prefix of the thread totals (integer adds modulo 2^64: any order is exact).
    unsigned long long incl = mine;
    for (int off = 1; off < 32; off <<= 1) {
      const unsigned long long v = __shfl_up_sync(0xffffffffu, incl, off);
      if (lane >= off) incl += v;
    }
    if (lane == 31) warp_total[warp] = incl;
    __syncthreads();
    if (warp == 0) {
      unsigned long long w = warp_total[lane];
      for (int off = 1; off < 32; off <<= 1) {
        const unsigned long long v = __shfl_up_sync(0xffffffffu, w, off);
        if (lane >= off) w += v;
      }
      warp_total[lane] = w;  // inclusive over warps
    }
    __syncthreads();
    const unsigned long long before = (warp > 0 ? warp_total[warp - 1] : 0ull) + (incl - mine);
    const std::int64_t start = ordered_sum::units_of(s, e);
    unsigned long long a = (unsigned long long)start + before;
    for (int k = 0; k < kPer; ++k) {
      const int idx = t * kPer + k;
      if (idx >= len) break;
      a += (unsigned long long)q[k];
      if (!ok[k] || !ordered_sum::inside(std::int64_t(a))) {
        atomicMin(&first_bad, idx);
        break;
      }
    }
    __syncthreads();
    const int fb = first_bad;
    // The sum just before element fb, from the thread that holds element fb - 1.
    if (fb > 0 && (fb - 1) / kPer == t) {
      unsigned long long r = (unsigned long long)start + before;
      for (int k = 0; k <= (fb - 1) % kPer; ++k) r += (unsigned long long)q[k];
      end_units = (long long)r;
    }
    __syncthreads();
    if (t == 0) {
      double v = ordered_sum::value_of(fb > 0 ? std::int64_t(end_units) : start, e);
      long long next = p + fb;
      if (fb < len) {
        v += x[next++];  // the element the rule does not cover: one ordinary add
        // A run that stopped early: the next stretch goes the plain way, longer while this repeats.
        if (fb < len / 8) {
          const long long m = kFirstSerial << (early < 7 ? early : 7);
          serial = m < kMaxSerial ? m : kMaxSerial;
          ++early;
        } else {
          early = 0;
        }
      } else {
        early = 0;
      }
      sum = v;
      pos = next;
    }
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = sum;
}

}  // namespace

void enqueue_ordered_sums(const OrderedSums& sums, double* out, cudaStream_t stream, OrderedSumMode mode) {
  if (sums.arrays <= 0) return;
  ordered_sums_kernel<<<unsigned(sums.arrays), kThreads, 0, stream>>>(sums, out, mode == OrderedSumMode::kRuns);
  check(cudaGetLastError(), "ordered sum kernel launch");
}

}  // namespace vqtwin::cuda
