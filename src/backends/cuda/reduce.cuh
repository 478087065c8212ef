#pragma once
// Block-wide sums of per-thread 64-bit integers, for the twins' per-frame (and per-row) reductions.
// Integer adds modulo 2^64: the total is the same in every tree order, so it equals the CPU's sum
// whenever the CPU's sum is exact (or wraps the same way).
namespace vqtwin::cuda {

// Sums v[0..N) over the threads of the block; the totals are left in thread 0's v (other threads'
// v are clobbered). Every thread of the block must call it; blockDim.x a multiple of 32, <= 1024.
template <int N>
__device__ inline void block_sum(unsigned long long (&v)[N]) {
  __shared__ unsigned long long part[32][N];
  for (int off = 16; off > 0; off >>= 1)
    for (int i = 0; i < N; ++i) v[i] += __shfl_down_sync(0xffffffffu, v[i], off);
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
  if (lane == 0)
    for (int i = 0; i < N; ++i) part[warp][i] = v[i];
  __syncthreads();
  if (warp == 0) {
    const unsigned warps = blockDim.x >> 5;
    for (int i = 0; i < N; ++i) v[i] = lane < warps ? part[lane][i] : 0ull;
    for (int off = 16; off > 0; off >>= 1)
      for (int i = 0; i < N; ++i) v[i] += __shfl_down_sync(0xffffffffu, v[i], off);
  }
  __syncthreads();  // `part` is free for the next call
}

// block_sum, then thread 0 adds the totals into dst[0..N) (one atomic per value and block).
template <int N>
__device__ inline void block_add(unsigned long long (&v)[N], unsigned long long* dst) {
  block_sum<N>(v);
  if (threadIdx.x == 0)
    for (int i = 0; i < N; ++i)
      if (v[i]) atomicAdd(dst + i, v[i]);
}

}  // namespace vqtwin::cuda
