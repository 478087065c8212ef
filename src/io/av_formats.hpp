#pragma once
// Our picture formats as FFmpeg's pixel formats, and back (planar Y'CbCr and grey, little endian,
// 8/10/12/16 bits: exactly the layouts of the y4m reader, so the engine sees the same samples).
#include <optional>
#include <string>

extern "C" {
#include <libavutil/pixfmt.h>
}

#include "vqtwin/picture.hpp"

namespace vqtwin {

// The picture format of `fmt` at `width` x `height`, or nullopt where vqtwin has no such layout
// (RGB, packed or semi-planar formats, 9/14-bit depths, alpha).
std::optional<PictureFormat> picture_format_of(AVPixelFormat fmt, int width, int height);

AVPixelFormat av_pixel_format_of(const PictureFormat& format);

// The name FFmpeg gives `fmt` ("yuv420p10le"), for messages.
std::string av_pixel_format_name(AVPixelFormat fmt);

}  // namespace vqtwin
