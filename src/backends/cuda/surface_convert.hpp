#pragma once
// A frame NVDEC decoded, converted on the device into a slot's picture (the planar layout every twin
// reads), exactly as software decoding gives it: io/device_frame.hpp's surface_at() per sample.
#include <cuda_runtime.h>

#include "backends/cuda/device_picture.hpp"
#include "io/device_frame.hpp"

namespace vqtwin::cuda {

// Enqueues on `stream` the conversion of `frame` into `to` (every plane). The decoder's copy into
// the surface is ordered on the decoder's stream (frame.stream; CUDA's legacy default stream when
// libavcodec has none), which `stream` (a non-blocking stream) does not wait for by itself: `decoded`
// is recorded there and waited on first.
void convert_surface(const DeviceFrame& frame, const DevicePicture& to, cudaEvent_t decoded, cudaStream_t stream);

}  // namespace vqtwin::cuda
