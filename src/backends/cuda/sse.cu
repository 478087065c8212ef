#include "backends/cuda/sse.hpp"

#include "backends/cuda/check.hpp"
#include "backends/cuda/twin.hpp"

namespace vqtwin::cuda {
namespace {

constexpr unsigned kThreads = 256;

// Each block walks whole rows (grid-stride over rows, threads across the row); each thread sums in
// 64 bits, the warp folds its sums, and one atomic add per warp reaches `sum`.
template <class T>
__global__ void plane_sse_kernel(DevicePlane ref, DevicePlane dist, unsigned long long* sum) {
  unsigned long long acc = 0;
  for (int y = blockIdx.x; y < ref.height; y += gridDim.x) {
    const T* a = ref.row<T>(y);
    const T* b = dist.row<T>(y);
    for (int x = threadIdx.x; x < ref.width; x += blockDim.x) {
      const int d = int(a[x]) - int(b[x]);
      const unsigned int m = unsigned(d < 0 ? -d : d);
      acc += (unsigned long long)(m * m);  // m < 2^16: the square fits in 32 bits
    }
  }
  for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, off);
  if ((threadIdx.x & 31) == 0 && acc) atomicAdd(sum, acc);
}

}  // namespace

void enqueue_plane_sse(const DevicePlane& ref, const DevicePlane& dist, int bytes_per_sample,
                       unsigned long long* sum, cudaStream_t stream) {
  const unsigned blocks = blocks_for(ref.height, 1, 1, 4096);
  if (bytes_per_sample == 1)
    plane_sse_kernel<unsigned char><<<blocks, kThreads, 0, stream>>>(ref, dist, sum);
  else
    plane_sse_kernel<unsigned short><<<blocks, kThreads, 0, stream>>>(ref, dist, sum);
  check(cudaGetLastError(), "plane SSE kernel launch");
}

}  // namespace vqtwin::cuda
