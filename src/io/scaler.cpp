#include "io/scaler.hpp"

extern "C" {
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include "io/av_formats.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {

Scaler::Scaler(const PictureFormat& from, const PictureFormat& to, int av_format) : from_(from), to_(to) {
  const AVPixelFormat src_fmt = av_format >= 0 ? AVPixelFormat(av_format) : av_pixel_format_of(from);
  const AVPixelFormat dst_fmt = src_fmt;
  if (src_fmt == AV_PIX_FMT_NONE || from.chroma != to.chroma || from.bitdepth != to.bitdepth)
    throw Error("cannot scale " + from.describe() + " to " + to.describe());
  sws_ = sws_alloc_context();
  if (!sws_) throw std::bad_alloc();
  // The scale filter's settings: sizes and formats, and the flags given (flags=bicubic, nothing else:
  // no accurate_rnd, no full_chroma_int); the rest at swscale's defaults, as the filter leaves them
  // (tests/io/scale_test.cpp compares the pixels with ffmpeg's).
  av_opt_set_int(sws_, "srcw", from.width, 0);
  av_opt_set_int(sws_, "srch", from.height, 0);
  av_opt_set_int(sws_, "src_format", src_fmt, 0);
  av_opt_set_int(sws_, "dstw", to.width, 0);
  av_opt_set_int(sws_, "dsth", to.height, 0);
  av_opt_set_int(sws_, "dst_format", dst_fmt, 0);
  av_opt_set_int(sws_, "sws_flags", SWS_BICUBIC, 0);
  if (sws_init_context(sws_, nullptr, nullptr) < 0) {
    sws_freeContext(sws_);
    throw Error("swscale cannot scale " + from.describe() + " to " + to.describe());
  }
}

Scaler::~Scaler() { sws_freeContext(sws_); }

void Scaler::scale(const PlaneView& src, Picture& dst, int full_range) {
  // A frame that states its range (a decoder's, y4m's XCOLORRANGE) is handed on as the scale filter
  // does: the source range is set, the output keeps swscale's default for the format (limited, full
  // for the yuvj formats), so full-range yuv420p comes out limited, as from ffmpeg.
  if (full_range >= 0 && full_range != range_set_) {
    int* inv_table = nullptr;
    int* table = nullptr;
    int src_full = 0, dst_full = 0, brightness = 0, contrast = 0, saturation = 0;
    sws_getColorspaceDetails(sws_, &inv_table, &src_full, &table, &dst_full, &brightness, &contrast, &saturation);
    sws_setColorspaceDetails(sws_, inv_table, full_range, table, dst_full, brightness, contrast, saturation);
    range_set_ = full_range;
  }
  const uint8_t* in[4] = {src.data[0], src.data[1], src.data[2], nullptr};
  int in_stride[4] = {int(src.stride_bytes[0]), int(src.stride_bytes[1]), int(src.stride_bytes[2]), 0};
  uint8_t* out[4] = {static_cast<uint8_t*>(dst.data(0)), static_cast<uint8_t*>(dst.data(1)),
                     static_cast<uint8_t*>(dst.data(2)), nullptr};
  int out_stride[4] = {int(dst.stride_bytes(0)), int(dst.stride_bytes(1)), int(dst.stride_bytes(2)), 0};
  const int rows = sws_scale(sws_, in, in_stride, 0, from_.height, out, out_stride);
  if (rows != to_.height) throw Error("swscale failed to scale a frame to " + to_.describe());
}

}  // namespace vqtwin
