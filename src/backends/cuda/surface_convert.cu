#include <cstdlib>
#include <cstring>

#include "backends/cuda/check.hpp"
#include "backends/cuda/grid.cuh"
#include "backends/cuda/surface_convert.hpp"

namespace vqtwin::cuda {
namespace {

struct Surface {
  const unsigned char* plane[3];
  std::ptrdiff_t pitch[3];
  SurfaceLayout layout;
};

// One output sample per iteration: plane p of `to` at (x, y) is the surface's sample (integers only).
template <class T>
__global__ void convert_kernel(Surface s, DevicePlane to, int p) {
  const int w = to.width;
  VQTWIN_GRID_STRIDE(i, (long long)w * to.height) {
    const int y = int(i / w), x = int(i % w);
    const_cast<T*>(to.row<T>(y))[x] = T(surface_at(s.plane, s.pitch, s.layout, p, x, y));
  }
}

// The planted bug the NVDEC checks must catch (VQTWIN_PLANT=nvdec_shift5): 16-bit words shifted by
// one bit less, so a 10-bit sample comes out doubled.
int planted_shift(int shift) {
  static const bool plant = [] {
    const char* v = std::getenv("VQTWIN_PLANT");
    return v && std::strcmp(v, "nvdec_shift5") == 0;
  }();
  return plant && shift > 0 ? shift - 1 : shift;
}

}  // namespace

void convert_surface(const DeviceFrame& frame, const DevicePicture& to, cudaEvent_t decoded, cudaStream_t stream) {
  const cudaStream_t decoder = frame.stream ? static_cast<cudaStream_t>(frame.stream) : cudaStreamLegacy;
  check(cudaEventRecord(decoded, decoder), "cudaEventRecord (decoded frame)");
  check(cudaStreamWaitEvent(stream, decoded, 0), "cudaStreamWaitEvent (decoded frame)");
  Surface s{};
  for (int p = 0; p < 3; ++p) {
    s.plane[p] = frame.plane[p];
    s.pitch[p] = frame.pitch[p];
  }
  s.layout = frame.layout;
  s.layout.shift = planted_shift(frame.layout.shift);
  for (int p = 0; p < to.planes; ++p) {
    const DevicePlane& plane = to.plane[p];
    const long long n = (long long)plane.width * plane.height;
    const int blocks = int((n + 255) / 256 < 4096 ? (n + 255) / 256 : 4096);
    if (to.bitdepth > 8)
      convert_kernel<unsigned short><<<blocks, 256, 0, stream>>>(s, plane, p);
    else
      convert_kernel<unsigned char><<<blocks, 256, 0, stream>>>(s, plane, p);
    check(cudaGetLastError(), "convert a decoded frame (kernel launch)");
  }
}

}  // namespace vqtwin::cuda
