// FFmpeg's libraries, loaded when first used.
//
// Linking libavformat/libavcodec/libswscale/libavutil brings about 130 shared libraries (codecs,
// TLS, X11, ...) whose symbol binding took 50 ms of CPU and 150 ms of wall time at every start, also
// for the y4m and raw inputs that never touch them. Instead, the functions src/io calls are defined
// here: the first call of any of them dlopen()s its library (its soname from the headers built
// against) and each forwards to the real function. A y4m or raw run loads nothing; a compressed input
// or --scale loads the libraries once. Without them, the first call throws one vqtwin::Error saying
// what is missing (the CMake option VQTWIN_LAZY_FFMPEG=OFF links them as usual instead).
//
// Every signature is the headers' own: a definition that differed from its declaration would not
// compile. The definitions are hidden (not exported from libvqtwin.so), so a program that links
// FFmpeg itself keeps its own symbols.
#if VQTWIN_LAZY_FFMPEG
#include <dlfcn.h>

#include <mutex>
#include <string>

#include "vqtwin/error.hpp"

#pragma GCC visibility push(hidden)
extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavutil/frame.h>
#include <libavutil/hwcontext.h>
#include <libavutil/log.h>
#include <libavutil/mem.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
}

namespace vqtwin::lazy_ffmpeg {
namespace {

#define VQTWIN_SONAME(lib, major) "lib" lib ".so." AV_STRINGIFY(major)
enum Lib { kAvformat, kAvcodec, kAvutil, kSwscale, kLibs };
constexpr const char* kSonames[kLibs] = {
    VQTWIN_SONAME("avformat", LIBAVFORMAT_VERSION_MAJOR), VQTWIN_SONAME("avcodec", LIBAVCODEC_VERSION_MAJOR),
    VQTWIN_SONAME("avutil", LIBAVUTIL_VERSION_MAJOR), VQTWIN_SONAME("swscale", LIBSWSCALE_VERSION_MAJOR)};
#undef VQTWIN_SONAME

void* library(Lib lib) {
  static std::once_flag once[kLibs];
  static void* handles[kLibs] = {};
  static std::string errors[kLibs];
  std::call_once(once[lib], [lib] {
    handles[lib] = dlopen(kSonames[lib], RTLD_NOW | RTLD_LOCAL);
    if (!handles[lib]) {
      const char* e = dlerror();
      errors[lib] = e ? e : "not found";
    }
  });
  if (!handles[lib])
    throw Error(std::string("compressed input and --scale need FFmpeg's libraries (apt-get install libavformat59 "
                            "libavcodec59 libswscale6 libavutil57): ") +
                kSonames[lib] + " cannot be loaded (" + errors[lib] + ")");
  return handles[lib];
}

void* symbol(Lib lib, const char* name) {
  void* handle = library(lib);
  dlerror();
  void* p = dlsym(handle, name);
  if (!p) throw Error(std::string(kSonames[lib]) + " has no function " + name + " (a different FFmpeg version?)");
  return p;
}

}  // namespace
}  // namespace vqtwin::lazy_ffmpeg

// One forwarding definition per function src/io calls: the real function, looked up once.
#define VQTWIN_FORWARD(LIB, RET, NAME, PARAMS, ARGS)                                                   \
  RET NAME PARAMS {                                                                                  \
    static const auto real = reinterpret_cast<decltype(&NAME)>(                                      \
        vqtwin::lazy_ffmpeg::symbol(vqtwin::lazy_ffmpeg::LIB, #NAME));                               \
    return real ARGS;                                                                                \
  }

extern "C" {
// libavformat
VQTWIN_FORWARD(kAvformat, AVFormatContext*, avformat_alloc_context, (void), ())
VQTWIN_FORWARD(kAvformat, int, avformat_open_input,
               (AVFormatContext * *ps, const char* url, const AVInputFormat* fmt, AVDictionary** options),
               (ps, url, fmt, options))
VQTWIN_FORWARD(kAvformat, int, avformat_find_stream_info, (AVFormatContext * ic, AVDictionary** options),
               (ic, options))
VQTWIN_FORWARD(kAvformat, void, avformat_close_input, (AVFormatContext * *s), (s))
VQTWIN_FORWARD(kAvformat, int, av_find_best_stream,
               (AVFormatContext * ic, enum AVMediaType type, int wanted, int related, const AVCodec** decoder,
                int flags),
               (ic, type, wanted, related, decoder, flags))
VQTWIN_FORWARD(kAvformat, int, av_read_frame, (AVFormatContext * s, AVPacket* pkt), (s, pkt))
VQTWIN_FORWARD(kAvformat, AVIOContext*, avio_alloc_context,
               (unsigned char* buffer, int buffer_size, int write_flag, void* opaque,
                int (*read_packet)(void* opaque, uint8_t* buf, int buf_size),
                int (*write_packet)(void* opaque, uint8_t* buf, int buf_size),
                int64_t (*seek)(void* opaque, int64_t offset, int whence)),
               (buffer, buffer_size, write_flag, opaque, read_packet, write_packet, seek))
VQTWIN_FORWARD(kAvformat, void, avio_context_free, (AVIOContext * *s), (s))
VQTWIN_FORWARD(kAvformat, int, avio_feof, (AVIOContext * s), (s))
// libavcodec
VQTWIN_FORWARD(kAvcodec, const AVCodec*, avcodec_find_decoder, (enum AVCodecID id), (id))
VQTWIN_FORWARD(kAvcodec, AVCodecContext*, avcodec_alloc_context3, (const AVCodec* codec), (codec))
VQTWIN_FORWARD(kAvcodec, void, avcodec_free_context, (AVCodecContext * *avctx), (avctx))
VQTWIN_FORWARD(kAvcodec, const char*, avcodec_get_name, (enum AVCodecID id), (id))
VQTWIN_FORWARD(kAvcodec, int, avcodec_open2, (AVCodecContext * avctx, const AVCodec* codec, AVDictionary** options),
               (avctx, codec, options))
VQTWIN_FORWARD(kAvcodec, int, avcodec_parameters_to_context, (AVCodecContext * codec, const AVCodecParameters* par),
               (codec, par))
VQTWIN_FORWARD(kAvcodec, int, avcodec_send_packet, (AVCodecContext * avctx, const AVPacket* avpkt), (avctx, avpkt))
VQTWIN_FORWARD(kAvcodec, int, avcodec_receive_frame, (AVCodecContext * avctx, AVFrame* frame), (avctx, frame))
VQTWIN_FORWARD(kAvcodec, AVPacket*, av_packet_alloc, (void), ())
VQTWIN_FORWARD(kAvcodec, void, av_packet_free, (AVPacket * *pkt), (pkt))
VQTWIN_FORWARD(kAvcodec, void, av_packet_unref, (AVPacket * pkt), (pkt))
// libavcodec: decoding on NVDEC (--hwdec; libnvcuvid is loaded by libavcodec when a decoder opens)
VQTWIN_FORWARD(kAvcodec, const AVCodec*, avcodec_find_decoder_by_name, (const char* name), (name))
VQTWIN_FORWARD(kAvcodec, const AVCodecHWConfig*, avcodec_get_hw_config, (const AVCodec* codec, int index),
               (codec, index))
VQTWIN_FORWARD(kAvcodec, enum AVPixelFormat, avcodec_default_get_format,
               (struct AVCodecContext * s, const enum AVPixelFormat* fmt), (s, fmt))
// libavutil
VQTWIN_FORWARD(kAvutil, AVFrame*, av_frame_alloc, (void), ())
VQTWIN_FORWARD(kAvutil, void, av_frame_free, (AVFrame * *frame), (frame))
VQTWIN_FORWARD(kAvutil, void, av_frame_move_ref, (AVFrame * dst, AVFrame* src), (dst, src))
VQTWIN_FORWARD(kAvutil, void, av_frame_unref, (AVFrame * frame), (frame))
VQTWIN_FORWARD(kAvutil, void, av_freep, (void* ptr), (ptr))
VQTWIN_FORWARD(kAvutil, void*, av_malloc, (size_t size), (size))
VQTWIN_FORWARD(kAvutil, const char*, av_get_pix_fmt_name, (enum AVPixelFormat pix_fmt), (pix_fmt))
VQTWIN_FORWARD(kAvutil, void, av_log_set_level, (int level), (level))
VQTWIN_FORWARD(kAvutil, int, av_opt_set_int, (void* obj, const char* name, int64_t val, int search_flags),
               (obj, name, val, search_flags))
// libavutil: the CUDA device context and copies of device frames to the host (--hwdec)
VQTWIN_FORWARD(kAvutil, int, av_hwdevice_ctx_create,
               (AVBufferRef * *device_ctx, enum AVHWDeviceType type, const char* device, AVDictionary* opts, int flags),
               (device_ctx, type, device, opts, flags))
VQTWIN_FORWARD(kAvutil, AVBufferRef*, av_hwdevice_ctx_alloc, (enum AVHWDeviceType type), (type))
VQTWIN_FORWARD(kAvutil, int, av_hwdevice_ctx_init, (AVBufferRef * ref), (ref))
VQTWIN_FORWARD(kAvutil, int, av_hwframe_transfer_data, (AVFrame * dst, const AVFrame* src, int flags),
               (dst, src, flags))
VQTWIN_FORWARD(kAvutil, AVBufferRef*, av_buffer_ref, (const AVBufferRef* buf), (buf))
VQTWIN_FORWARD(kAvutil, void, av_buffer_unref, (AVBufferRef * *buf), (buf))
VQTWIN_FORWARD(kAvutil, int, av_strerror, (int errnum, char* errbuf, size_t errbuf_size), (errnum, errbuf, errbuf_size))
// libswscale
VQTWIN_FORWARD(kSwscale, struct SwsContext*, sws_alloc_context, (void), ())
VQTWIN_FORWARD(kSwscale, int, sws_init_context, (struct SwsContext * sws_context, SwsFilter* srcFilter, SwsFilter* dstFilter),
               (sws_context, srcFilter, dstFilter))
VQTWIN_FORWARD(kSwscale, void, sws_freeContext, (struct SwsContext * swsContext), (swsContext))
VQTWIN_FORWARD(kSwscale, int, sws_scale,
               (struct SwsContext * c, const uint8_t* const srcSlice[], const int srcStride[], int srcSliceY,
                int srcSliceH, uint8_t* const dst[], const int dstStride[]),
               (c, srcSlice, srcStride, srcSliceY, srcSliceH, dst, dstStride))
VQTWIN_FORWARD(kSwscale, int, sws_getColorspaceDetails,
               (struct SwsContext * c, int** inv_table, int* srcRange, int** table, int* dstRange, int* brightness,
                int* contrast, int* saturation),
               (c, inv_table, srcRange, table, dstRange, brightness, contrast, saturation))
VQTWIN_FORWARD(kSwscale, int, sws_setColorspaceDetails,
               (struct SwsContext * c, const int inv_table[4], int srcRange, const int table[4], int dstRange,
                int brightness, int contrast, int saturation),
               (c, inv_table, srcRange, table, dstRange, brightness, contrast, saturation))
}
#undef VQTWIN_FORWARD
#pragma GCC visibility pop

#endif  // VQTWIN_LAZY_FFMPEG
