#include "vqtwin/picture.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "vqtwin/error.hpp"

namespace vqtwin {

const char* to_string(ChromaFormat f) {
  switch (f) {
    case ChromaFormat::k420: return "4:2:0";
    case ChromaFormat::k422: return "4:2:2";
    case ChromaFormat::k444: return "4:4:4";
    case ChromaFormat::k400: return "4:0:0";
  }
  return "?";
}

std::size_t PictureFormat::frame_bytes() const {
  std::size_t n = 0;
  for (int p = 0; p < num_planes(); ++p)
    n += static_cast<std::size_t>(plane_width(p)) * static_cast<std::size_t>(plane_height(p));
  return n * static_cast<std::size_t>(bytes_per_sample());
}

std::string PictureFormat::describe() const {
  return std::to_string(width) + "x" + std::to_string(height) + " " + std::to_string(bitdepth) +
         "-bit " + to_string(chroma);
}

// Plane offsets and strides of `format` (rows padded to kAlignment bytes); returns the total bytes.
std::size_t Picture::layout(const PictureFormat& format, std::ptrdiff_t stride[3], std::size_t offsets[3]) {
  if (format.width < 1 || format.height < 1) throw Error("picture size must be at least 1x1");
  const std::size_t bps = static_cast<std::size_t>(format.bytes_per_sample());
  std::size_t total = 0;
  for (int p = 0; p < format.num_planes(); ++p) {
    const std::size_t row_bytes = static_cast<std::size_t>(format.plane_width(p)) * bps;
    const std::size_t stride_bytes = (row_bytes + kAlignment - 1) / kAlignment * kAlignment;
    stride[p] = static_cast<std::ptrdiff_t>(stride_bytes / bps);
    offsets[p] = total;
    total += stride_bytes * static_cast<std::size_t>(format.plane_height(p));
  }
  return total;
}

std::size_t Picture::storage_bytes(const PictureFormat& format) {
  std::ptrdiff_t stride[3] = {0, 0, 0};
  std::size_t offsets[3] = {0, 0, 0};
  return layout(format, stride, offsets);
}

Picture::Picture(const PictureFormat& format, void* memory) : format_(format) {
  if (!memory || reinterpret_cast<std::uintptr_t>(memory) % kAlignment)
    throw Error("picture memory must be " + std::to_string(kAlignment) + "-byte aligned");
  std::size_t offsets[3] = {0, 0, 0};
  layout(format, stride_, offsets);
  storage_ = std::unique_ptr<void, Release>(memory, &release_nothing);
  for (int p = 0; p < format.num_planes(); ++p) planes_[p] = static_cast<unsigned char*>(memory) + offsets[p];
}

Picture::Picture(const PictureFormat& format) : format_(format) {
  std::size_t offsets[3] = {0, 0, 0};
  const std::size_t total = layout(format, stride_, offsets);
  // Pictures of 1 MiB and more ask for transparent huge pages: their first touch (the memset
  // below) costs one fault per 2 MiB instead of one per 4 KiB, which on virtual machines is
  // expensive (about 20 us a fault on the development VM; 1080p: 1500 faults per picture pair).
  constexpr std::size_t kHuge = std::size_t(2) << 20;
  const bool huge = total >= kHuge / 2;
  const std::size_t align = huge ? kHuge : kAlignment;
  const std::size_t bytes = total == 0 ? align : (total + align - 1) / align * align;
  void* mem = std::aligned_alloc(align, bytes);
  if (!mem) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (huge) madvise(mem, bytes, MADV_HUGEPAGE);  // a hint, ignored where THP is off
#endif
  std::memset(mem, 0, total);
  storage_ = std::unique_ptr<void, Release>(mem, &std::free);
  for (int p = 0; p < format.num_planes(); ++p)
    planes_[p] = static_cast<unsigned char*>(mem) + offsets[p];
}

}  // namespace vqtwin
