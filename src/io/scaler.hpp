#pragma once
// Scaling through libswscale, set up as FFmpeg 5.1's scale filter sets up its context for
// `-vf scale=W:H:flags=bicubic`, so that vqtwin's scaled pictures are ffmpeg's, sample for sample.
#include "io/convert.hpp"

struct SwsContext;

namespace vqtwin {

class Scaler {
 public:
  // Same chroma format and bit depth; any two sizes. `av_format`: FFmpeg's pixel format of the
  // frames (-1: the plain one of `from`), kept for the output as the scale filter keeps it.
  Scaler(const PictureFormat& from, const PictureFormat& to, int av_format);
  ~Scaler();
  Scaler(const Scaler&) = delete;
  Scaler& operator=(const Scaler&) = delete;
  void scale(const PlaneView& src, Picture& dst, int full_range);

 private:
  PictureFormat from_, to_;
  SwsContext* sws_ = nullptr;
  int range_set_ = -1;  // the source range last given to swscale
};

}  // namespace vqtwin
