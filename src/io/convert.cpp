#include "io/convert.hpp"

#include <cstdint>
#include <cstring>

#include "vqtwin/error.hpp"
#if VQTWIN_HAVE_FFMPEG
#include "io/scaler.hpp"
#endif

namespace vqtwin {

#if !VQTWIN_HAVE_FFMPEG
class Scaler {};
#endif

PlaneView PlaneView::of(const Picture& pic) {
  PlaneView v;
  for (int p = 0; p < pic.format().num_planes(); ++p) {
    v.data[p] = static_cast<const unsigned char*>(pic.data(p));
    v.stride_bytes[p] = pic.stride_bytes(p);
  }
  return v;
}

namespace {

// Copies the planes of `src` (format `f`) into `dst`, each sample shifted left by `shift` bits
// (0: a plain copy, row by row).
void copy_shifted(const PlaneView& src, const PictureFormat& f, Picture& dst, int shift) {
  for (int p = 0; p < f.num_planes(); ++p) {
    const int w = f.plane_width(p), h = f.plane_height(p);
    for (int y = 0; y < h; ++y) {
      const unsigned char* in = src.data[p] + y * src.stride_bytes[p];
      if (shift == 0) {
        unsigned char* out = static_cast<unsigned char*>(dst.data(p)) + y * dst.stride_bytes(p);
        std::memcpy(out, in, std::size_t(w) * std::size_t(f.bytes_per_sample()));
      } else if (f.bitdepth == 8) {
        std::uint16_t* out = dst.row<std::uint16_t>(p, y);
        for (int x = 0; x < w; ++x) out[x] = std::uint16_t(in[x] << shift);
      } else {
        const std::uint16_t* in16 = reinterpret_cast<const std::uint16_t*>(in);
        std::uint16_t* out = dst.row<std::uint16_t>(p, y);
        for (int x = 0; x < w; ++x) out[x] = std::uint16_t(in16[x] << shift);
      }
    }
  }
}

}  // namespace

void copy_planes(const PlaneView& src, const PictureFormat& f, Picture& dst) { copy_shifted(src, f, dst, 0); }

FrameConverter::FrameConverter(const PictureFormat& from, const PictureFormat& to, int av_format)
    : from_(from), to_(to) {
  if (from.chroma != to.chroma || to.bitdepth < from.bitdepth)
    throw Error("cannot convert " + from.describe() + " pictures to " + to.describe());
  if (from.width != to.width || from.height != to.height) {
#if VQTWIN_HAVE_FFMPEG
    PictureFormat scaled = to;
    scaled.bitdepth = from.bitdepth;
    scaler_ = std::make_unique<Scaler>(from, scaled, av_format);
    if (scaled.bitdepth != to.bitdepth) scaled_ = std::make_unique<Picture>(scaled);
#else
    (void)av_format;
    throw Error("--scale needs FFmpeg's libswscale; this vqtwin was built with -DVQTWIN_FFMPEG=OFF");
#endif
  }
}

FrameConverter::~FrameConverter() = default;

void FrameConverter::convert(const PlaneView& src, Picture& dst, int full_range) {
  const int shift = to_.bitdepth - from_.bitdepth;
#if VQTWIN_HAVE_FFMPEG
  if (scaler_) {
    if (!scaled_) return scaler_->scale(src, dst, full_range);
    scaler_->scale(src, *scaled_, full_range);
    return copy_shifted(PlaneView::of(*scaled_), scaled_->format(), dst, shift);
  }
#endif
  copy_shifted(src, from_, dst, shift);
}

ConvertedSource::ConvertedSource(std::unique_ptr<PictureSource> inner, const PictureFormat& target)
    : inner_(std::move(inner)), target_(target), frame_(inner_->format()), converter_(inner_->format(), target) {}

bool ConvertedSource::read(Picture& pic) {
  if (!inner_->read(frame_)) return false;
  converter_.convert(PlaneView::of(frame_), pic, inner_->color_range());
  return true;
}

}  // namespace vqtwin
