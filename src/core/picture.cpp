#include "vqtwin/picture.hpp"

#include <cstdlib>
#include <cstring>
#include <new>

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

void Picture::Free::operator()(void* ptr) const { std::free(ptr); }

Picture::Picture(const PictureFormat& format) : format_(format) {
  if (format.width < 1 || format.height < 1) throw Error("picture size must be at least 1x1");
  const std::size_t bps = static_cast<std::size_t>(format.bytes_per_sample());
  std::size_t offsets[3] = {0, 0, 0};
  std::size_t total = 0;
  for (int p = 0; p < format.num_planes(); ++p) {
    const std::size_t row_bytes = static_cast<std::size_t>(format.plane_width(p)) * bps;
    const std::size_t stride_bytes = (row_bytes + kAlignment - 1) / kAlignment * kAlignment;
    stride_[p] = static_cast<std::ptrdiff_t>(stride_bytes / bps);
    offsets[p] = total;
    total += stride_bytes * static_cast<std::size_t>(format.plane_height(p));
  }
  void* mem = std::aligned_alloc(kAlignment, total == 0 ? kAlignment : total);
  if (!mem) throw std::bad_alloc();
  std::memset(mem, 0, total);
  storage_.reset(mem);
  for (int p = 0; p < format.num_planes(); ++p)
    planes_[p] = static_cast<unsigned char*>(mem) + offsets[p];
}

}  // namespace vqtwin
