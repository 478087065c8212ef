#pragma once
// A picture as it is stored: 8-bit samples in uint8_t, 9..16-bit samples in uint16_t (little
// endian, low bits), three planes (one for 4:0:0), rows padded to an aligned stride.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "vqtwin/export.hpp"

namespace vqtwin {

enum class ChromaFormat { k420, k422, k444, k400 };

VQTWIN_API const char* to_string(ChromaFormat f);

struct VQTWIN_API PictureFormat {
  int width = 0;
  int height = 0;
  int bitdepth = 8;
  ChromaFormat chroma = ChromaFormat::k420;

  int num_planes() const { return chroma == ChromaFormat::k400 ? 1 : 3; }
  int bytes_per_sample() const { return bitdepth > 8 ? 2 : 1; }
  // Chroma planes of odd sizes are rounded up, as every y4m/yuv writer stores them.
  int plane_width(int p) const {
    return (p == 0 || chroma == ChromaFormat::k444) ? width : (width + 1) >> 1;
  }
  int plane_height(int p) const {
    return (p == 0 || chroma != ChromaFormat::k420) ? height : (height + 1) >> 1;
  }
  // The top-left region of plane p that the extractors compute on: libvmaf's pictures have chroma
  // planes of (width >> 1) x (height >> 1) (floor), and FFmpeg's libvmaf filter copies that much of
  // each decoded plane into them. At odd sizes this leaves out the last stored chroma column / row.
  int scored_width(int p) const {
    return (p == 0 || chroma == ChromaFormat::k444) ? width : width >> 1;
  }
  int scored_height(int p) const {
    return (p == 0 || chroma != ChromaFormat::k420) ? height : height >> 1;
  }
  // Bytes one frame takes in a y4m/yuv file (no padding).
  std::size_t frame_bytes() const;
  bool operator==(const PictureFormat&) const = default;
  std::string describe() const;  // e.g. "1920x1080 10-bit 4:2:0"
};

class VQTWIN_API Picture {
 public:
  static constexpr std::size_t kAlignment = 64;

  Picture() = default;
  // Owns zeroed, aligned memory.
  explicit Picture(const PictureFormat& format);
  // Lays the planes out in `memory` the caller provides and keeps owning (e.g. pinned host memory a
  // device can copy from): at least storage_bytes(format) bytes, kAlignment-aligned, outliving the
  // picture. Its contents are left as they are.
  Picture(const PictureFormat& format, void* memory);
  static std::size_t storage_bytes(const PictureFormat& format);

  const PictureFormat& format() const { return format_; }
  int width(int p) const { return format_.plane_width(p); }
  int height(int p) const { return format_.plane_height(p); }
  int scored_width(int p) const { return format_.scored_width(p); }
  int scored_height(int p) const { return format_.scored_height(p); }
  // Stride in samples (not bytes); a multiple of kAlignment bytes.
  std::ptrdiff_t stride(int p) const { return stride_[p]; }
  std::ptrdiff_t stride_bytes(int p) const { return stride_[p] * format_.bytes_per_sample(); }

  void* data(int p) { return planes_[p]; }
  const void* data(int p) const { return planes_[p]; }
  template <class T>
  T* row(int p, int y) { return static_cast<T*>(planes_[p]) + y * stride_[p]; }
  template <class T>
  const T* row(int p, int y) const { return static_cast<const T*>(planes_[p]) + y * stride_[p]; }

 private:
  // std::free for memory the picture allocated, a no-op for memory the caller provided.
  using Release = void (*)(void*);
  static void release_nothing(void*) {}
  static std::size_t layout(const PictureFormat& format, std::ptrdiff_t stride[3], std::size_t offsets[3]);
  PictureFormat format_{};
  std::unique_ptr<void, Release> storage_{nullptr, &release_nothing};
  void* planes_[3] = {nullptr, nullptr, nullptr};
  std::ptrdiff_t stride_[3] = {0, 0, 0};
};

}  // namespace vqtwin
