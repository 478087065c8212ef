#pragma once
// The conversions --scale and --common_bitdepth ask for, applied where frames are made: a decoder
// converts its own output (io/decoded_source.cpp), y4m and raw input is wrapped in a ConvertedSource.
#include <cstddef>
#include <memory>

#include "io/picture_source.hpp"
#include "vqtwin/picture.hpp"

namespace vqtwin {

// The planes of one frame where they lie (a decoded frame, a picture); strides in bytes.
struct PlaneView {
  const unsigned char* data[3] = {nullptr, nullptr, nullptr};
  std::ptrdiff_t stride_bytes[3] = {0, 0, 0};
  static PlaneView of(const Picture& pic);
};

class Scaler;

// Copies the planes of `src` (format `f`, the format of `dst`) into `dst`, row by row.
void copy_planes(const PlaneView& src, const PictureFormat& f, Picture& dst);

// Frames of `from` to pictures of `to` (same chroma format): the size first, by swscale's bicubic set
// up as FFmpeg's scale filter does (the pixels of ffmpeg -vf scale=W:H:flags=bicubic), then the bit
// depth, up only, by a left shift (libvmaf's common bit depth: v << (to - from)).
class FrameConverter {
 public:
  // `av_format`: FFmpeg's pixel format of the source frames where known (a decoder's, e.g. the
  // full-range yuvj420p), else -1 (the plain format of `from`); the scaled frames keep it, as the
  // scale filter keeps its input's format.
  FrameConverter(const PictureFormat& from, const PictureFormat& to, int av_format = -1);
  ~FrameConverter();
  FrameConverter(const FrameConverter&) = delete;
  FrameConverter& operator=(const FrameConverter&) = delete;

  // `full_range`: the frame's colour range as FFmpeg's scale filter reads it from a decoded frame
  // (-1 unspecified, 0 limited, 1 full); only scaling looks at it.
  void convert(const PlaneView& src, Picture& dst, int full_range = -1);

 private:
  PictureFormat from_, to_;
  std::unique_ptr<Scaler> scaler_;   // when the sizes differ
  std::unique_ptr<Picture> scaled_;  // the scaled frame before its shift (when both are asked)
};

// A source whose frames are converted after reading (y4m and raw input): read into a picture of the
// source's format, converted into the caller's.
class ConvertedSource final : public PictureSource {
 public:
  ConvertedSource(std::unique_ptr<PictureSource> inner, const PictureFormat& target);
  const PictureFormat& format() const override { return target_; }
  bool read(Picture& pic) override;
  bool skip() override { return inner_->skip(); }
  const std::string& path() const override { return inner_->path(); }
  unsigned known_frames() const override { return inner_->known_frames(); }
  unsigned estimated_frames() const override { return inner_->estimated_frames(); }
  std::string kind() const override { return inner_->kind(); }
  double frame_rate() const override { return inner_->frame_rate(); }
  int color_range() const override { return inner_->color_range(); }

 private:
  std::unique_ptr<PictureSource> inner_;
  PictureFormat target_;
  Picture frame_;
  FrameConverter converter_;
};

}  // namespace vqtwin
