#pragma once
// The exact per-plane sum of squared differences on a Vulkan device (shaders/plane_sse.comp): each
// workgroup writes one 64-bit partial (integer: any order gives the CPU's total), the twin's reduce
// adds them on the host. Shared by every SSE-based twin.
#include <cerrno>
#include <cstdint>

#include "backends/vulkan/staged_twin.hpp"

namespace vqtwin::vulkan {

// Partials per plane: one per workgroup; workgroups take rows y, y + 256, ...
inline constexpr unsigned kSseGroups = 256;

// 0, or -ENOTSUP where the device lacks shaderInt64 (64-bit sums) or a plane of `format` exceeds
// maxStorageBufferRange.
inline int plane_sse_check(const DeviceFeatures& d, const PictureFormat& f) {
  if (!d.int64) return -ENOTSUP;
  for (int p = 0; p < f.num_planes(); ++p) {
    const std::size_t bytes = stored_plane_bytes(f, p);
    if (bytes + d.min_storage_offset > d.max_storage_range) return -ENOTSUP;  // binding starts up to one alignment early
  }
  return 0;
}

// Records the SSE of plane `p`'s top-left `w` x `h` region into results [first, first + kSseGroups)
// (the groups past min(h, kSseGroups) are not written: declare the results zeroed). Nothing for an
// empty region.
template <class R>
void record_plane_sse(const Frame<R>& frame, const PictureFormat& f, int p, int w, int h, std::uint32_t first) {
  if (w <= 0 || h <= 0) return;
  struct Push {
    std::uint32_t width, height, stride_bytes, bytes_per_sample, ref_base, dist_base, first_partial;
  };
  const Range ref = frame.ref_plane(p), dist = frame.dist_plane(p);
  const std::uint32_t bps = std::uint32_t(f.bytes_per_sample());
  const Push push{std::uint32_t(w), std::uint32_t(h), std::uint32_t(frame.slot().ref().stride_bytes(p)), bps,
                  ref.base, dist.base, first};
  frame.dispatch("plane_sse", {ref, dist, frame.results()}, push, unsigned(h < int(kSseGroups) ? h : int(kSseGroups)));
}

}  // namespace vqtwin::vulkan
