#pragma once
// What the twins' simple kernels share: the grid-stride loop (one output per iteration, any grid
// size) and the luma-to-float conversion the float features start from (the CPU's luma_to_float,
// one call per sample, so the device value is the host's bit for bit).
#include "backends/cuda/device_picture.hpp"
#include "common/luma_float.hpp"

// i runs over [0, n) with the whole grid's stride; i is a long long (4K x 2 pictures overflow int32
// index arithmetic nowhere, and bounds are compared in 64 bits).
#define VQTWIN_GRID_STRIDE(i, n) \
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < (n); i += (long long)gridDim.x * blockDim.x)

namespace vqtwin::cuda {

// out[y * width + x] = the plane's sample at (x, y) as float minus `offset`; 8-bit samples are not
// scaled (the CPU's 8-bit path), deeper ones are divided by `scale` first.
template <class T>
__global__ void luma_to_float_kernel(DevicePlane p, float scale, float offset, float* out) {
  const int w = p.width;
  VQTWIN_GRID_STRIDE(i, (long long)w * p.height) {
    const int y = int(i / w), x = int(i % w);
    const T v = p.row<T>(y)[x];
    if constexpr (sizeof(T) == 1) out[i] = luma_to_float(v, offset);
    else out[i] = luma_to_float(v, scale, offset);
  }
}

}  // namespace vqtwin::cuda
