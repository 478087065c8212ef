#include "backends/cuda/ordered_sum.hpp"

#include "core/ordered_sum.hpp"

namespace vqtwin::cuda {
namespace {

namespace os = ordered_sum;

// Terms the walking block stages at a time when it adds a chunk term by term.
constexpr unsigned kPiece = 2048;
constexpr unsigned kWalkThreads = 256;

template <class T>
std::size_t walk_shared_bytes(std::size_t count) { return (6 * count + kPiece) * sizeof(T); }

// Step 1: each chunk's sum from 0. One thread per (chunk, array).
template <class T>
__global__ void chunk_sum_kernel(const T* terms, std::size_t n, std::size_t length, std::size_t count, T* sums) {
  const int j = blockIdx.y;
  const std::size_t c = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c >= count) return;
  const std::size_t b = c * length, e = b + length < n ? b + length : n;
  sums[std::size_t(j) * count + c] = os::run(terms + std::size_t(j) * n, b, e, T(0));
}

// Step 1's running sum: one block per array, staged in shared memory, one thread adding.
template <class T>
__global__ void starts_kernel(const T* sums, std::size_t count, T* starts) {
  __shared__ T s_sums[os::kMaxChunks], s_starts[os::kMaxChunks];
  const std::size_t at = std::size_t(blockIdx.x) * count;
  for (std::size_t c = threadIdx.x; c < count; c += blockDim.x) s_sums[c] = sums[at + c];
  __syncthreads();
  if (threadIdx.x == 0) os::approximate_starts(s_sums, s_starts, count);
  __syncthreads();
  for (std::size_t c = threadIdx.x; c < count; c += blockDim.x) starts[at + c] = s_starts[c];
}

// Step 2: the four runs of each chunk. One thread per (chunk, array).
template <class T>
__global__ void variants_kernel(const T* terms, std::size_t n, std::size_t length, std::size_t count, const T* starts,
                                T* ends, T* reach) {
  const int j = blockIdx.y;
  const std::size_t c = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c >= count) return;
  const std::size_t at = std::size_t(j) * count + c;
  const std::size_t b = c * length, e = b + length < n ? b + length : n;
  const os::Runs<T> r = os::run_variants(terms + std::size_t(j) * n, b, e, starts[at]);
  for (int v = 0; v < os::kVariants; ++v) ends[at * os::kVariants + v] = r.end[v];
  reach[at] = r.reach;
}

// Step 3: one block per array. Thread 0 walks the staged chunk table with the exact sum; a chunk out
// of its runs' reach is added term by term, its terms staged in shared memory by the whole block.
template <class T>
__global__ void walk_kernel(const T* terms, std::size_t n, std::size_t length, std::size_t count, const T* starts,
                            const T* ends, const T* reach, T* result) {
  extern __shared__ __align__(8) unsigned char shared_bytes[];
  T* s_starts = reinterpret_cast<T*>(shared_bytes);
  T* s_ends = s_starts + count;
  T* s_reach = s_ends + os::kVariants * count;
  T* piece = s_reach + count;
  __shared__ unsigned long long s_next;
  const int j = blockIdx.x;
  const std::size_t at = std::size_t(j) * count;
  const T* t = terms + std::size_t(j) * n;
  for (std::size_t c = threadIdx.x; c < count; c += blockDim.x) {
    s_starts[c] = starts[at + c];
    s_reach[c] = reach[at + c];
    for (int v = 0; v < os::kVariants; ++v) s_ends[c * os::kVariants + v] = ends[(at + c) * os::kVariants + v];
  }
  __syncthreads();
  T sum = 0;  // thread 0's exact running sum
  std::size_t c = 0;
  for (;;) {
    if (threadIdx.x == 0) {
      for (; c < count; ++c) {
        T ends[os::kVariants];  // registers: shifted_end picks one without a computed index
        for (int v = 0; v < os::kVariants; ++v) ends[v] = s_ends[c * os::kVariants + v];
        T next;
        if (!os::shifted_end(ends, s_reach[c], s_starts[c], sum, &next)) break;
        sum = next;
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

template <class T>
OrderedSumsOf<T>::OrderedSumsOf(std::size_t n, int arrays)
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
    check(cudaFuncSetAttribute(walk_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               int(walk_shared_bytes<T>(os::kMaxChunks))),
          "cudaFuncSetAttribute");
    return true;
  }();
  (void)raised;
}

template <class T>
void OrderedSumsOf<T>::enqueue(const T* terms, T* result, cudaStream_t stream) const {
  const dim3 grid(unsigned((count_ + 127) / 128), unsigned(arrays_));
  chunk_sum_kernel<T><<<grid, 128, 0, stream>>>(terms, n_, length_, count_, sums_.get());
  check(cudaGetLastError(), "ordered sum: chunk sums launch");
  starts_kernel<T><<<unsigned(arrays_), 256, 0, stream>>>(sums_.get(), count_, starts_.get());
  check(cudaGetLastError(), "ordered sum: starts launch");
  variants_kernel<T><<<grid, 128, 0, stream>>>(terms, n_, length_, count_, starts_.get(), ends_.get(), reach_.get());
  check(cudaGetLastError(), "ordered sum: runs launch");
  walk_kernel<T><<<unsigned(arrays_), kWalkThreads, walk_shared_bytes<T>(count_), stream>>>(
      terms, n_, length_, count_, starts_.get(), ends_.get(), reach_.get(), result);
  check(cudaGetLastError(), "ordered sum: walk launch");
}

template class OrderedSumsOf<double>;
template class OrderedSumsOf<float>;

}  // namespace vqtwin::cuda
