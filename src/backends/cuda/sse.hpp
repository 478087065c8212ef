#pragma once
// The exact sum of squared differences of one plane on the device, shared by the psnr and
// float_psnr twins: integer squares summed in 64 bits, so every order gives the CPU's total.
#include <cstdint>

#include "backends/cuda/device_picture.hpp"

namespace vqtwin::cuda {

// Enqueues sum += SSE(ref plane, dist plane) on `stream`; `sum` must be zeroed first (on the stream).
// `bytes_per_sample` is 1 (uint8) or 2 (uint16); squares of 16-bit differences fit in 32 bits.
void enqueue_plane_sse(const DevicePlane& ref, const DevicePlane& dist, int bytes_per_sample,
                       unsigned long long* sum, cudaStream_t stream);

}  // namespace vqtwin::cuda
