#include "backends/cuda/ordered_sum.hpp"

#include "core/ordered_sum.hpp"

namespace vqtwin::cuda {
namespace {

namespace os = ordered_sum;

// Terms the walking block stages at a time when it adds a chunk term by term.
constexpr unsigned kPiece = 2048;
constexpr unsigned kWalkThreads = 256;

std::size_t walk_shared_bytes(std::size_t count) { return (6 * count + kPiece) * sizeof(double); }

// Chunks per block in steps 1 and 2 (one thread each), and the terms of each chunk a block stages
// at a time: a thread's chunk is contiguous, so its own loads would touch a different cache line in
// every lane of a warp; the block loads kTile terms of each of its chunks together instead (each
// warp reading runs of consecutive terms), and each thread then adds its chunk's from shared memory.
constexpr unsigned kChunksPerBlock = 128;
constexpr unsigned kTile = 32;

// Feeds `use` the terms of chunk blockIdx.x * kChunksPerBlock + threadIdx.x of array blockIdx.y,
// in order (threads whose chunk does not exist get none). Every thread of the block must call it.
template <class Use>
__device__ void for_each_term_of_my_chunk(const double* terms, std::size_t n, std::size_t length, std::size_t count,
                                          Use use) {
  __shared__ double tile[kChunksPerBlock][kTile + 1];  // +1: fewer bank conflicts down a column
  const double* t = terms + std::size_t(blockIdx.y) * n;
  const std::size_t first = std::size_t(blockIdx.x) * kChunksPerBlock;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  const std::size_t mine = first + threadIdx.x;
  const std::size_t my_begin = mine * length;
  const std::size_t my_end = mine < count ? (my_begin + length < n ? my_begin + length : n) : my_begin;
  for (std::size_t off = 0; off < length; off += kTile) {
    for (unsigned r = warp; r < kChunksPerBlock; r += warps) {
      const std::size_t c = first + r, i = c * length + off;
      for (unsigned k = lane; k < kTile; k += 32)
        tile[r][k] = (c < count && off + k < length && i + k < n) ? t[i + k] : 0.0;
    }
    __syncthreads();
    const std::size_t from = my_begin + off;
    const unsigned m = from >= my_end ? 0 : unsigned(my_end - from < kTile ? my_end - from : kTile);
    for (unsigned k = 0; k < m; ++k) use(tile[threadIdx.x][k]);
    __syncthreads();
  }
}

// Step 1: each chunk's sum from 0. One thread per (chunk, array).
__global__ void chunk_sum_kernel(const double* terms, std::size_t n, std::size_t length, std::size_t count,
                                 double* sums) {
  double s = 0.0;
  for_each_term_of_my_chunk(terms, n, length, count, [&](double x) { s = s + x; });
  const std::size_t c = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c < count) sums[std::size_t(blockIdx.y) * count + c] = s;
}

// Step 1's running sum: one block per array, staged in shared memory, one thread adding.
__global__ void starts_kernel(const double* sums, std::size_t count, double* starts) {
  __shared__ double s_sums[os::kMaxChunks], s_starts[os::kMaxChunks];
  const std::size_t at = std::size_t(blockIdx.x) * count;
  for (std::size_t c = threadIdx.x; c < count; c += blockDim.x) s_sums[c] = sums[at + c];
  __syncthreads();
  if (threadIdx.x == 0) os::approximate_starts(s_sums, s_starts, count);
  __syncthreads();
  for (std::size_t c = threadIdx.x; c < count; c += blockDim.x) starts[at + c] = s_starts[c];
}

// Step 2: the four runs of each chunk. One thread per (chunk, array).
__global__ void variants_kernel(const double* terms, std::size_t n, std::size_t length, std::size_t count,
                                const double* starts, double* ends, double* reach) {
  const std::size_t c = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t at = std::size_t(blockIdx.y) * count + c;
  os::VariantRuns v;
  v.start(c < count ? starts[at] : 0.0);
  for_each_term_of_my_chunk(terms, n, length, count, [&](double x) { v.add(x); });
  if (c >= count) return;
  const os::ChunkRuns r = v.finish();
  for (int k = 0; k < os::kVariants; ++k) ends[at * os::kVariants + k] = r.end[k];
  reach[at] = r.reach;
}

// Step 3: one block per array. Thread 0 walks the staged chunk table with the exact sum; a chunk out
// of its runs' reach is added term by term, its terms staged in shared memory by the whole block.
__global__ void walk_kernel(const double* terms, std::size_t n, std::size_t length, std::size_t count,
                            const double* starts, const double* ends, const double* reach, double* result) {
  extern __shared__ double shared[];
  double* s_starts = shared;
  double* s_ends = s_starts + count;
  double* s_reach = s_ends + os::kVariants * count;
  double* piece = s_reach + count;
  __shared__ unsigned long long s_next;
  const int j = blockIdx.x;
  const std::size_t at = std::size_t(j) * count;
  const double* t = terms + std::size_t(j) * n;
  for (std::size_t c = threadIdx.x; c < count; c += blockDim.x) {
    s_starts[c] = starts[at + c];
    s_reach[c] = reach[at + c];
    for (int v = 0; v < os::kVariants; ++v) s_ends[c * os::kVariants + v] = ends[(at + c) * os::kVariants + v];
  }
  __syncthreads();
  double sum = 0.0;  // thread 0's exact running sum
  std::size_t c = 0;
  for (;;) {
    if (threadIdx.x == 0) {
      if (c < count) {
        // Chunk c's table entry in registers (shifted_end picks a run without a computed index),
        // the next one loaded while c is worked out.
        double a = s_starts[c], reach_c = s_reach[c], ends[os::kVariants];
        for (int v = 0; v < os::kVariants; ++v) ends[v] = s_ends[c * os::kVariants + v];
        for (; c < count; ++c) {
          const std::size_t nc = c + 1 < count ? c + 1 : c;
          const double next_a = s_starts[nc], next_reach = s_reach[nc];
          double next_ends[os::kVariants];
          for (int v = 0; v < os::kVariants; ++v) next_ends[v] = s_ends[nc * os::kVariants + v];
          double next;
          if (!os::shifted_end(ends, reach_c, a, sum, &next)) break;
          sum = next;
          a = next_a;
          reach_c = next_reach;
          for (int v = 0; v < os::kVariants; ++v) ends[v] = next_ends[v];
        }
      }
      s_next = c;
    }
    __syncthreads();
    c = std::size_t(s_next);
    if (c >= count) break;
    const std::size_t b = c * length, e = b + length < n ? b + length : n;
    for (std::size_t p = b; p < e; p += kPiece) {
      const std::size_t m = e - p < kPiece ? e - p : kPiece;
      for (std::size_t i = threadIdx.x; i < m; i += blockDim.x) piece[i] = t[p + i];
      __syncthreads();
      if (threadIdx.x == 0) sum = os::run(piece, 0, m, sum);
      __syncthreads();
    }
    ++c;
  }
  if (threadIdx.x == 0) result[j] = sum;
}

}  // namespace

OrderedSums::OrderedSums(std::size_t n, int arrays)
    : n_(n),
      length_(os::chunk_length(n)),
      count_(os::chunk_count(n, length_)),
      arrays_(arrays),
      sums_(count_ * std::size_t(arrays)),
      starts_(count_ * std::size_t(arrays)),
      ends_(count_ * std::size_t(arrays) * os::kVariants),
      reach_(count_ * std::size_t(arrays)) {
  // The walk's table and term buffer exceed the default 48 KiB of shared memory for large counts.
  static const bool raised = [] {
    check(cudaFuncSetAttribute(walk_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               int(walk_shared_bytes(os::kMaxChunks))),
          "cudaFuncSetAttribute");
    return true;
  }();
  (void)raised;
}

void OrderedSums::enqueue(const double* terms, double* result, cudaStream_t stream) const {
  const dim3 grid(unsigned((count_ + kChunksPerBlock - 1) / kChunksPerBlock), unsigned(arrays_));
  chunk_sum_kernel<<<grid, kChunksPerBlock, 0, stream>>>(terms, n_, length_, count_, sums_.get());
  check(cudaGetLastError(), "ordered sum: chunk sums launch");
  starts_kernel<<<unsigned(arrays_), 256, 0, stream>>>(sums_.get(), count_, starts_.get());
  check(cudaGetLastError(), "ordered sum: starts launch");
  variants_kernel<<<grid, kChunksPerBlock, 0, stream>>>(terms, n_, length_, count_, starts_.get(), ends_.get(), reach_.get());
  check(cudaGetLastError(), "ordered sum: runs launch");
  walk_kernel<<<unsigned(arrays_), kWalkThreads, walk_shared_bytes(count_), stream>>>(
      terms, n_, length_, count_, starts_.get(), ends_.get(), reach_.get(), result);
  check(cudaGetLastError(), "ordered sum: walk launch");
}

}  // namespace vqtwin::cuda
