#pragma once
// Frames decoded on a device (NVDEC) and the pictures the twins read, in one place: how a decoder's
// surface is laid out, the integer conversion to vqtwin's planar pictures (one definition for the
// host reference below and the CUDA kernel, backends/cuda/surface_convert.cu), and where a source
// may hand such a frame instead of copying it to the host.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/hd.hpp"
#include "vqtwin/picture.hpp"

namespace vqtwin {

// A decoder's surface: NV12 (8-bit) or P010/P016 (10/12-bit, 16-bit words with the sample in the
// high bits) are semi-planar: the luma plane, then one plane of interleaved U,V pairs. 4:4:4 comes
// planar: YUV444P (8-bit) or YUV444P16 (the sample in the high bits of 16-bit words).
struct SurfaceLayout {
  bool semi_planar = true;
  int bytes_per_sample = 1;  // 1 or 2
  // Right shift of each stored word that gives the decoded sample: 16 - bitdepth for 16-bit words
  // (P010: 6, P016 at 12 bits: 4), 0 for 8-bit surfaces.
  int shift = 0;
};

// The sample a stored word holds. NVDEC writes a b-bit sample as `sample << (16 - b)` with zero low
// bits (what libavcodec's software decoder gives is `sample`), so the shift is exact: no rounding.
VQTWIN_HD inline std::uint16_t surface_sample(std::uint16_t word, int shift) { return std::uint16_t(word >> shift); }

// Sample (x, y) of output plane p (0 Y, 1 U, 2 V) of a surface whose planes start at `plane` with
// `pitch` bytes per row (semi-planar: plane[1] holds the pairs; plane[2] unused).
VQTWIN_HD inline std::uint16_t surface_at(const unsigned char* const plane[3], const std::ptrdiff_t pitch[3],
                                          const SurfaceLayout& l, int p, int x, int y) {
  const int source = l.semi_planar && p > 0 ? 1 : p;
  const int column = l.semi_planar && p > 0 ? 2 * x + (p - 1) : x;
  const unsigned char* row = plane[source] + std::ptrdiff_t(y) * pitch[source];
  const std::uint16_t word = l.bytes_per_sample == 1
                                 ? std::uint16_t(row[column])
                                 : reinterpret_cast<const std::uint16_t*>(row)[column];
  return surface_sample(word, l.shift);
}

// A frame on a device, as the decoder left it. `hold` keeps the decoder's frame (its surface) alive
// until whoever took the frame is done reading it.
struct DeviceFrame {
  int device = 0;  // CUDA device ordinal
  SurfaceLayout layout;
  const unsigned char* plane[3] = {};
  std::ptrdiff_t pitch[3] = {};
  // The CUstream the decoder wrote the surface on (its copy into the output surface is queued there
  // when the frame is handed out); null: CUDA's legacy default stream.
  void* stream = nullptr;
  std::shared_ptr<void> hold;
};

// Where a source may put a frame decoded on a device instead of copying it into a host picture: a
// device slot's picture (backends/device.hpp's FrameSlot::device_target). The source hands the frame
// over only when it was decoded on device(); otherwise it fills the host picture as usual.
class DeviceFrameTarget {
 public:
  virtual ~DeviceFrameTarget() = default;
  virtual int device() const = 0;
  // The surface stays valid while `frame.hold` lives: a target that reads it later keeps the hold.
  virtual void take(DeviceFrame frame) = 0;
};

// The host reference of the conversion: `pic`'s planes (format `pic.format()`) from a surface in host
// memory (the frame copied back), sample by sample as the device kernel computes them.
void unpack_surface(const unsigned char* const plane[3], const std::ptrdiff_t pitch[3], const SurfaceLayout& layout,
                    Picture& pic);

}  // namespace vqtwin
