#include "io/av_formats.hpp"

extern "C" {
#include <libavutil/pixdesc.h>
}

namespace vqtwin {
namespace {

struct Mapping {
  AVPixelFormat av;
  ChromaFormat chroma;
  int bitdepth;
};

// The first entry of a (chroma, depth) is the one we hand to swscale.
constexpr Mapping kMappings[] = {
    {AV_PIX_FMT_YUV420P, ChromaFormat::k420, 8},       {AV_PIX_FMT_YUV422P, ChromaFormat::k422, 8},
    {AV_PIX_FMT_YUV444P, ChromaFormat::k444, 8},       {AV_PIX_FMT_GRAY8, ChromaFormat::k400, 8},
    {AV_PIX_FMT_YUV420P10LE, ChromaFormat::k420, 10},  {AV_PIX_FMT_YUV422P10LE, ChromaFormat::k422, 10},
    {AV_PIX_FMT_YUV444P10LE, ChromaFormat::k444, 10},  {AV_PIX_FMT_GRAY10LE, ChromaFormat::k400, 10},
    {AV_PIX_FMT_YUV420P12LE, ChromaFormat::k420, 12},  {AV_PIX_FMT_YUV422P12LE, ChromaFormat::k422, 12},
    {AV_PIX_FMT_YUV444P12LE, ChromaFormat::k444, 12},  {AV_PIX_FMT_GRAY12LE, ChromaFormat::k400, 12},
    {AV_PIX_FMT_YUV420P16LE, ChromaFormat::k420, 16},  {AV_PIX_FMT_YUV422P16LE, ChromaFormat::k422, 16},
    {AV_PIX_FMT_YUV444P16LE, ChromaFormat::k444, 16},  {AV_PIX_FMT_GRAY16LE, ChromaFormat::k400, 16},
    // The deprecated full-range ("JPEG") 8-bit formats have the same layout; their samples are taken
    // as they are, as ffmpeg's yuv4mpegpipe output does.
    {AV_PIX_FMT_YUVJ420P, ChromaFormat::k420, 8},      {AV_PIX_FMT_YUVJ422P, ChromaFormat::k422, 8},
    {AV_PIX_FMT_YUVJ444P, ChromaFormat::k444, 8},
};

}  // namespace

std::optional<PictureFormat> picture_format_of(AVPixelFormat fmt, int width, int height) {
  for (const Mapping& m : kMappings)
    if (m.av == fmt) return PictureFormat{width, height, m.bitdepth, m.chroma};
  return std::nullopt;
}

AVPixelFormat av_pixel_format_of(const PictureFormat& format) {
  for (const Mapping& m : kMappings)
    if (m.chroma == format.chroma && m.bitdepth == format.bitdepth) return m.av;
  return AV_PIX_FMT_NONE;
}

std::string av_pixel_format_name(AVPixelFormat fmt) {
  const char* name = av_get_pix_fmt_name(fmt);
  return name ? name : "unknown";
}

}  // namespace vqtwin
