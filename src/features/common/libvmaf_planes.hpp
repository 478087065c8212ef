#pragma once
// The plane sizes libvmaf's extractors see. vmaf_picture_alloc gives chroma planes of w >> ss_hor by
// h >> ss_ver samples (the file's last column / row is dropped at odd sizes, where the file and our
// Picture hold (w + 1) >> 1), with rows of a stride rounded up to 32 samples.
#include "vqtwin/picture.hpp"

namespace vqtwin {

inline int libvmaf_plane_width(const PictureFormat& f, int plane) {
  if (plane == 0 || f.chroma == ChromaFormat::k444) return f.width;
  return f.chroma == ChromaFormat::k400 ? 0 : f.width >> 1;
}

inline int libvmaf_plane_height(const PictureFormat& f, int plane) {
  if (plane == 0 || f.chroma == ChromaFormat::k444 || f.chroma == ChromaFormat::k422) return f.height;
  return f.chroma == ChromaFormat::k400 ? 0 : f.height >> 1;
}

// libvmaf's row stride of a plane, in samples (DATA_ALIGN = 32).
inline int libvmaf_plane_stride(const PictureFormat& f, int plane) { return (libvmaf_plane_width(f, plane) + 31) & ~31; }

}  // namespace vqtwin
