#include "io/decoded_source.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/hwcontext.h>
}
// libavutil/hwcontext_cuda.h's flag (share the device's primary context), defined here: that header
// includes the CUDA toolkit's cuda.h, which a build without CUDA does not have.
#ifndef AV_CUDA_USE_PRIMARY_CONTEXT
#define AV_CUDA_USE_PRIMARY_CONTEXT (1 << 0)
#endif
// The same header's AVCUDADeviceContext (libavutil 57), for the same reason: the CUcontext the
// decoder uses, the CUstream libavcodec queues its copies on (null: the legacy default stream), and
// libavutil's own part.
struct CudaDeviceContextAbi {
  void* cuda_ctx;
  void* stream;
  void* internal;
};

#include "io/av_formats.hpp"
#include "io/convert.hpp"
#include "io/device_frame.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace {

constexpr int kIoBuffer = 1 << 16;
constexpr std::size_t kReadAhead = 3;  // decoded pictures kept ready per input (bounds memory)
// NVDEC: frames kept ready per input, each holding one of the decoder's surfaces (it has a fixed
// number), and the surfaces asked for beyond libavcodec's own (its references, reordering and work
// surfaces): the ready frames, the one being handed over, and the conversions still queued on the
// device (at most 3 per input: backends/cuda's HeldSurfaces). NVDEC takes 32 surfaces at most; with
// one libavcodec thread (frame threads add one each) the total stays what 8 frame threads took before
// these were added.
constexpr std::size_t kDeviceReadAhead = 4;
constexpr int kExtraSurfaces = int(kDeviceReadAhead) + 1 + 3;

using Clock = std::chrono::steady_clock;
double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

// VQTWIN_REPORT_DECODE=1: where each input's decoding time went, one line per input when it closes.
bool decode_report_wanted() {
  static const bool wanted = [] {
    const char* v = std::getenv("VQTWIN_REPORT_DECODE");
    return v && *v && *v != '0';
  }();
  return wanted;
}

std::string av_error(int code) {
  char buf[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, buf, sizeof buf);
  return buf;
}

// libavformat reads through our ByteStream: a path is never handed to FFmpeg, so a name is never taken
// for a protocol ("http:", "concat:") or a format hint, and pipes, FIFOs and standard input work like
// any file (the probe only peeked, so nothing is lost).
class StreamInput {
 public:
  explicit StreamInput(std::unique_ptr<ByteStream> in) : in_(std::move(in)) {}
  bool seekable() const { return in_->regular(); }
  const std::string& name() const { return in_->name(); }

  static int read(void* opaque, uint8_t* buf, int size) {
    auto* self = static_cast<StreamInput*>(opaque);
    try {
      const std::size_t n = self->in_->read(buf, std::size_t(size));
      return n > 0 ? int(n) : AVERROR_EOF;
    } catch (const std::exception&) {
      return AVERROR(EIO);  // a read error or a stop request: the decoder reports it
    }
  }

  static int64_t seek(void* opaque, int64_t offset, int whence) {
    auto* self = static_cast<StreamInput*>(opaque);
    ByteStream& in = *self->in_;
    if (!in.regular()) return -1;
    const auto size = int64_t(in.size_from_start());
    if (whence & AVSEEK_SIZE) return size;
    whence &= ~AVSEEK_FORCE;
    int64_t target = offset;
    if (whence == SEEK_CUR) target += int64_t(in.position());
    else if (whence == SEEK_END) target += size;
    else if (whence != SEEK_SET) return -1;
    if (target < 0 || !in.seek_from_start(std::uint64_t(target))) return -1;
    return target;
  }

 private:
  std::unique_ptr<ByteStream> in_;
};

class DecodedSource final : public PictureSource {
 public:
  DecodedSource(std::unique_ptr<ByteStream> in, const SourceOptions& options)
      : path_(in->name()), limits_(options.limits), input_(std::move(in)) {
    try {
      open(options.decode_threads, options.hwdec);
    } catch (...) {
      release();
      throw;
    }
  }

  ~DecodedSource() override {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
    if (decode_report_wanted()) report();
    for (Ready& r : ready_) av_frame_free(&r.frame);
    release();
    av_buffer_unref(&hw_device_);
  }

  const PictureFormat& format() const override { return out_format_; }
  const std::string& path() const override { return path_; }
  unsigned known_frames() const override { return 0; }  // a container's count is a claim, not a fact
  unsigned estimated_frames() const override { return estimate_; }
  std::string kind() const override { return kind_; }
  double frame_rate() const override { return rate_; }
  std::string decoder() const override { return decoder_; }
  std::string decode_refusal() const override { return refusal_; }
  std::string decode_switch() const override {
    std::lock_guard lock(mutex_);
    return switch_;
  }

  bool convert_to(const PictureFormat& target) override {
    if (thread_.joinable()) return false;
    out_format_ = target;
    converter_ = std::make_unique<FrameConverter>(format_, target, av_format_);
    return true;
  }

  bool read(Picture& pic) override { return read_to(pic, nullptr); }

  bool read_to(Picture& pic, DeviceFrameTarget* on_device) override {
    Ready got = next();
    if (!got.frame && !got.converted) return false;
    if (got.frame && got.frame->format == AV_PIX_FMT_CUDA) {
      if (on_device && on_device->device() == hw_device_index_) {
        on_device->take(device_frame(got.frame));  // the frame stays on the device
      } else {
        to_host(got.frame, pic);
        av_frame_free(&got.frame);
      }
      return true;
    }
    if (got.frame) {
      // The one copy: from the decoder's frame straight into the caller's picture.
      copy_planes(view_of(got.frame), out_format_, pic);
      av_frame_free(&got.frame);
    } else {
      copy_planes(PlaneView::of(*got.converted), out_format_, pic);
      recycle(std::move(*got.converted));
    }
    return true;
  }

  bool skip() override {
    Ready got = next();
    if (!got.frame && !got.converted) return false;
    av_frame_free(&got.frame);
    if (got.converted) recycle(std::move(*got.converted));
    return true;
  }

 private:
  void open(unsigned threads, const HwDecodeRequest& hw) {
    io_buffer_ = static_cast<unsigned char*>(av_malloc(kIoBuffer));
    if (!io_buffer_) throw std::bad_alloc();
    io_ = avio_alloc_context(io_buffer_, kIoBuffer, 0, &input_, &StreamInput::read, nullptr,
                             input_.seekable() ? &StreamInput::seek : nullptr);
    if (!io_) throw std::bad_alloc();
    io_buffer_ = nullptr;  // owned by io_ now (it may replace it)
    io_->seekable = input_.seekable() ? AVIO_SEEKABLE_NORMAL : 0;
    fmt_ = avformat_alloc_context();
    if (!fmt_) throw std::bad_alloc();
    fmt_->pb = io_;
    fmt_->flags |= AVFMT_FLAG_CUSTOM_IO;
    // An empty URL: the format is probed from the bytes alone.
    int r = avformat_open_input(&fmt_, "", nullptr, nullptr);
    if (r < 0)  // fmt_ is freed by FFmpeg on failure
      throw Error(path_ + ": not a y4m file, and FFmpeg cannot read it (" + av_error(r) +
                  "); for raw .yuv give --width --height --pixel_format --bitdepth");
    r = avformat_find_stream_info(fmt_, nullptr);
    if (r < 0) throw Error(path_ + ": FFmpeg cannot read the streams (" + av_error(r) + ")");

    // The video stream FFmpeg would pick, never a cover picture.
    const AVCodec* codec = nullptr;
    stream_ = av_find_best_stream(fmt_, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    if (stream_ >= 0 && (fmt_->streams[stream_]->disposition & AV_DISPOSITION_ATTACHED_PIC)) stream_ = -1;
    for (unsigned i = 0; stream_ < 0 && i < fmt_->nb_streams; ++i)
      if (fmt_->streams[i]->codecpar->codec_type == AVMEDIA_TYPE_VIDEO &&
          !(fmt_->streams[i]->disposition & AV_DISPOSITION_ATTACHED_PIC))
        stream_ = int(i);
    if (stream_ < 0)
      throw Error(path_ + ": not a y4m file, and FFmpeg (" + std::string(fmt_->iformat->name) +
                  ") finds no video stream in it; for raw .yuv give --width --height --pixel_format --bitdepth");
    for (unsigned i = 0; i < fmt_->nb_streams; ++i)
      if (int(i) != stream_) fmt_->streams[i]->discard = AVDISCARD_ALL;
    AVStream* st = fmt_->streams[stream_];
    codec = avcodec_find_decoder(st->codecpar->codec_id);
    if (!codec)
      throw Error(path_ + ": this FFmpeg has no decoder for its " +
                  std::string(avcodec_get_name(st->codecpar->codec_id)) + " video");
    const std::string codec_name = avcodec_get_name(st->codecpar->codec_id);
    const HwDecodeChoice choice =
        choose_hwdec(HwDecodeInput{codec_name, st->codecpar->width, st->codecpar->height}, hw);
    hw_mode_ = hw.mode;
    decoder_ = choice.why;
    const AVCodec* hw_codec = choice.device ? nvdec_decoder(codec, st->codecpar->codec_id) : nullptr;
    if (choice.device && !hw_codec) refuse("this libavcodec has no NVDEC path for " + codec_name);
    if (hw_codec && create_device(hw)) codec = hw_codec;
    ctx_ = avcodec_alloc_context3(codec);
    if (!ctx_) throw std::bad_alloc();
    if ((r = avcodec_parameters_to_context(ctx_, st->codecpar)) < 0)
      throw Error(path_ + ": cannot set up the " + std::string(codec->name) + " decoder (" + av_error(r) + ")");
    if (hw_device_) attach_device();
    ctx_->pkt_timebase = st->time_base;
    ctx_->thread_count = int(std::max(1u, threads));
    if (hw_device_) {
      // NVDEC decodes; libavcodec's threads only parse (1, 4 or 16 gave the same times), and each
      // frame thread takes one more of NVDEC's surfaces: one by default. VQTWIN_HWDEC_THREADS (1..64)
      // sets their number, to measure.
      const char* v = std::getenv("VQTWIN_HWDEC_THREADS");
      const long n = v && *v ? std::strtol(v, nullptr, 10) : 0;
      ctx_->thread_count = n >= 1 && n <= 64 ? int(n) : 1;
      // Surfaces for the frames decoded ahead and handed over (see kExtraSurfaces); libavcodec adds
      // one per frame thread itself.
      ctx_->extra_hw_frames = kExtraSurfaces;
      read_ahead_ = kDeviceReadAhead;
    }
    ctx_->thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE;
    // A damaged packet is an error, not a concealed picture scored as if it were the video.
    ctx_->err_recognition |= AV_EF_EXPLODE;
    if ((r = avcodec_open2(ctx_, codec, nullptr)) < 0)
      throw Error(path_ + ": cannot open the " + std::string(codec->name) + " decoder (" + av_error(r) + ")");
    packet_ = av_packet_alloc();
    frame_ = av_frame_alloc();
    if (!packet_ || !frame_) throw std::bad_alloc();

    kind_ = std::string(avcodec_get_name(st->codecpar->codec_id)) + " in " + fmt_->iformat->name;
    if (st->avg_frame_rate.num > 0 && st->avg_frame_rate.den > 0) rate_ = av_q2d(st->avg_frame_rate);
    if (st->nb_frames > 0) {
      estimate_ = unsigned(std::min<int64_t>(st->nb_frames, INT32_MAX));
    } else if (fmt_->duration > 0 && st->avg_frame_rate.num > 0 && st->avg_frame_rate.den > 0) {
      const double n = double(fmt_->duration) / AV_TIME_BASE * av_q2d(st->avg_frame_rate);
      if (n > 0 && n < 1e9) estimate_ = unsigned(n + 0.5);
    }

    // The first frame tells the format (some codecs only know it once a frame is decoded). A decoder
    // that decodes only on a device (AV1's native one) fails here when NVDEC does not take the stream.
    if (hw_device_ && ctx_->codec != avcodec_find_decoder(ctx_->codec_id)) {
      try {
        if (!decode_next()) throw Error("no frame");
      } catch (const Error& e) {
        throw Error(path_ + ": --hwdec cuda: NVDEC cannot decode it (libavcodec's " + ctx_->codec->name +
                    " decoder, which decodes on the device only, says: " + e.what() +
                    "); --hwdec none decodes it in software");
      }
    } else if (!decode_next())
      throw Error(path_ + ": no video frame could be decoded (" + std::string(codec->name) + ")");
    have_pending_ = true;
    if (hw_device_) settle_device();
    // A frame on the device has the planar format software decoding gives (the decoder's sw_pix_fmt).
    const AVPixelFormat decoded =
        frame_->format == AV_PIX_FMT_CUDA ? ctx_->sw_pix_fmt : AVPixelFormat(frame_->format);
    const auto fmt = picture_format_of(decoded, frame_->width, frame_->height);
    if (!fmt)
      throw Error(path_ + ": pixel format " + av_pixel_format_name(decoded) +
                  " is not planar Y'CbCr 4:2:0/4:2:2/4:4:4 or grey at 8/10/12/16 bits; convert it first (ffmpeg -i " +
                  path_ + " -pix_fmt yuv420p ...)");
    check_picture_size(path_, frame_->width, frame_->height, limits_);
    format_ = out_format_ = *fmt;
    av_format_ = decoded;
    if (frame_->format == AV_PIX_FMT_CUDA) surface_ = surface_layout_of(frame_);
  }

  // ---- NVDEC (libavcodec's cuda hwaccel) ----

  // A stream NVDEC will not decode: an error under --hwdec cuda; under auto, software decoding and
  // one warning line (the engine says decode_refusal()).
  void refuse(const std::string& why) {
    if (hw_mode_ == HwDecode::kCuda)
      throw Error(path_ + ": --hwdec cuda: NVDEC cannot decode it (" + why + "); --hwdec none decodes it in software");
    refusal_ = why;
    decoder_ = "software (NVDEC refused: " + why + ")";
  }

  // The decoder of `id` that has a cuda hwaccel: the default one, or libavcodec's native decoder
  // where the default has none (AV1: libdav1d is the default); nullptr if neither has.
  static const AVCodec* nvdec_decoder(const AVCodec* preferred, AVCodecID id) {
    for (const AVCodec* c : {preferred, avcodec_find_decoder_by_name(avcodec_get_name(id))}) {
      if (!c) continue;
      for (int i = 0;; ++i) {
        const AVCodecHWConfig* config = avcodec_get_hw_config(c, i);
        if (!config) break;
        if (config->device_type == AV_HWDEVICE_TYPE_CUDA && (config->methods & AV_CODEC_HW_CONFIG_METHOD_HW_DEVICE_CTX))
          return c;
      }
    }
    return nullptr;
  }

  // The CUDA device context on `device` (the CUDA runtime's primary context, so the twins' kernels
  // read the decoder's surfaces) and the format choice that asks for device surfaces.
  bool create_device(const HwDecodeRequest& hw) {
    const int device = hw.device;
    const char* how = std::getenv("VQTWIN_HWDEC_STREAM");
    if (hw.decoder_stream && !(how && std::strcmp(how, "legacy") == 0)) decoder_stream_ = hw.decoder_stream(device);
    int r = 0;
    if (decoder_stream_.context) {
      // Our context and stream, set before libavutil initialises the device context (it then only
      // loads libcuda's functions, and never asks for the context's flags nor releases it).
      hw_device_ = av_hwdevice_ctx_alloc(AV_HWDEVICE_TYPE_CUDA);
      if (!hw_device_) throw std::bad_alloc();
      auto* cuda = static_cast<CudaDeviceContextAbi*>(reinterpret_cast<AVHWDeviceContext*>(hw_device_->data)->hwctx);
      cuda->cuda_ctx = decoder_stream_.context;
      cuda->stream = decoder_stream_.stream;
      r = av_hwdevice_ctx_init(hw_device_);
      if (r < 0) {
        av_buffer_unref(&hw_device_);
        decoder_stream_ = {};  // libavutil's own way below says why if that fails too
      }
    }
    if (!hw_device_) {
      // libavutil takes the primary context itself (with blocking synchronisation, which
      // prepare_device sets first) and leaves the stream null: the legacy default stream.
      decoder_stream_ = {};
      if (hw.prepare_device) hw.prepare_device(device);
      r = av_hwdevice_ctx_create(&hw_device_, AV_HWDEVICE_TYPE_CUDA, std::to_string(device).c_str(), nullptr,
                                 AV_CUDA_USE_PRIMARY_CONTEXT);
    }
    if (r < 0) {
      hw_device_ = nullptr;
      decoder_stream_ = {};
      const std::string why = "CUDA device " + std::to_string(device) + " cannot be used; FFmpeg says: " + av_error(r);
      if (hw_mode_ == HwDecode::kCuda) refuse(why);
      // auto without a usable device: software, without a word (as --backend auto without one).
      decoder_.clear();
      return false;
    }
    hw_device_index_ = device;
    const auto* cuda = static_cast<const CudaDeviceContextAbi*>(reinterpret_cast<AVHWDeviceContext*>(hw_device_->data)->hwctx);
    char where[128];
    std::snprintf(where, sizeof where, "CUDA context %p, %s %p", cuda->cuda_ctx,
                  decoder_stream_.stream ? "its own stream" : "libavcodec's stream", cuda->stream);
    device_where_ = where;
    if (!cuda->stream) device_where_ += " (the legacy default stream)";
    return true;
  }

  void attach_device() {
    ctx_->hw_device_ctx = av_buffer_ref(hw_device_);
    if (!ctx_->hw_device_ctx) throw std::bad_alloc();
    ctx_->opaque = this;
    ctx_->get_format = &pick_format;
  }

  // libavcodec offers the formats it can decode this stream to; AV_PIX_FMT_CUDA only where NVDEC
  // takes the codec, profile, chroma format and size (it asks again without it when NVDEC's set-up
  // fails, e.g. libnvcuvid missing): that is the refusal the first frame shows.
  static AVPixelFormat pick_format(AVCodecContext* ctx, const AVPixelFormat* offered) {
    for (const AVPixelFormat* f = offered; *f != AV_PIX_FMT_NONE; ++f)
      if (*f == AV_PIX_FMT_CUDA) return *f;
    return avcodec_default_get_format(ctx, offered);
  }

  // After the first frame: decoded on the device, or refused (the frame came in software).
  void settle_device() {
    if (frame_->format == AV_PIX_FMT_CUDA) {
      // choice.why is "NVDEC (reason)": "NVDEC on CUDA device 0 (reason)".
      decoder_ = "NVDEC on CUDA device " + std::to_string(hw_device_index_) + decoder_.substr(decoder_.find(' '));
      if (frame_->crop_left || frame_->crop_top) refuse_mid("a picture cropped at its top or left");
      return;
    }
    hw_device_index_ = -1;
    refuse(std::string("not for this ") + avcodec_get_name(ctx_->codec_id) + " stream's profile, " +
           av_pixel_format_name(AVPixelFormat(frame_->format)) + " or size, or libnvcuvid is missing");
    if (ctx_->codec != avcodec_find_decoder(ctx_->codec_id))
      throw Error(path_ + ": NVDEC cannot decode it and the " + ctx_->codec->name +
                  " decoder has no software path; --hwdec none decodes it with the default decoder");
  }

  [[noreturn]] void refuse_mid(const std::string& what) {
    throw Error(at_frame() + ": NVDEC gave " + what + "; --hwdec none decodes it in software");
  }

  // How the decoder's surface stores the picture (its frames context's software format).
  SurfaceLayout surface_layout_of(const AVFrame* f) {
    const auto* frames = reinterpret_cast<const AVHWFramesContext*>(f->hw_frames_ctx->data);
    const AVPixelFormat sw = frames->sw_format;
    const int words = format_.bitdepth > 8 ? 16 - format_.bitdepth : 0;
    const bool is420 = format_.chroma == ChromaFormat::k420, is444 = format_.chroma == ChromaFormat::k444;
    if (sw == AV_PIX_FMT_NV12 && is420 && format_.bitdepth == 8) return {true, 1, 0};
    if ((sw == AV_PIX_FMT_P010 || sw == AV_PIX_FMT_P016) && is420 && format_.bitdepth > 8) return {true, 2, words};
    if (sw == AV_PIX_FMT_YUV444P && is444 && format_.bitdepth == 8) return {false, 1, 0};
    if (sw == AV_PIX_FMT_YUV444P16 && is444 && format_.bitdepth > 8) return {false, 2, words};
    refuse_mid("surfaces of " + av_pixel_format_name(sw) + " for " + format_.describe() + " pictures");
  }

  DeviceFrame device_frame(AVFrame* f) const {
    DeviceFrame d;
    d.device = hw_device_index_;
    d.layout = surface_;
    for (int p = 0; p < 3; ++p) {
      d.plane[p] = f->data[p];
      d.pitch[p] = f->linesize[p];
    }
    d.stream = decoder_stream_.stream;
    // The frame (its mapped surface) and the stream its copy was queued on live while it is read.
    d.hold = std::shared_ptr<void>(f, [keep = decoder_stream_.keep](void* p) {
      auto* frame = static_cast<AVFrame*>(p);
      av_frame_free(&frame);
    });
    return d;
  }

  // A frame on the device copied back (libavcodec's transfer, in the surface's layout) and unpacked
  // into `pic` (of format_) by the host reference of the device's conversion.
  void to_host(const AVFrame* f, Picture& pic) {
    AVFrame* host = av_frame_alloc();
    if (!host) throw std::bad_alloc();
    const int r = av_hwframe_transfer_data(host, f, 0);
    if (r < 0) {
      av_frame_free(&host);
      throw Error(path_ + ": a frame NVDEC decoded cannot be copied to the host (" + av_error(r) + ")");
    }
    const unsigned char* planes[3] = {host->data[0], host->data[1], host->data[2]};
    const std::ptrdiff_t pitches[3] = {host->linesize[0], host->linesize[1], host->linesize[2]};
    unpack_surface(planes, pitches, surface_, pic);
    av_frame_free(&host);
  }

  void release() {
    av_frame_free(&frame_);
    av_packet_free(&packet_);
    avcodec_free_context(&ctx_);
    if (fmt_) avformat_close_input(&fmt_);
    if (io_) {
      av_freep(&io_->buffer);
      avio_context_free(&io_);
    }
    av_freep(&io_buffer_);
  }

  std::string at_frame() const { return path_ + ": frame " + std::to_string(frames_out_); }

  // Demuxes and decodes until the decoder gives the next frame (into frame_); false at the end.
  bool decode_next() {
    for (;;) {
      auto t0 = Clock::now();
      int r = avcodec_receive_frame(ctx_, frame_);
      times_.receive_ms += ms_between(t0, Clock::now());
      if (r == 0) {
        if ((frame_->flags & AV_FRAME_FLAG_CORRUPT) || frame_->decode_error_flags) {
          av_frame_unref(frame_);
          throw Error(at_frame() + " is corrupt (the decoder reports damaged data)");
        }
        return true;
      }
      if (r == AVERROR_EOF) return false;
      if (r != AVERROR(EAGAIN)) throw Error(at_frame() + " cannot be decoded (" + av_error(r) + ")");
      if (draining_) return false;
      t0 = Clock::now();
      r = av_read_frame(fmt_, packet_);
      times_.read_ms += ms_between(t0, Clock::now());
      if (r == AVERROR_EOF || (r < 0 && avio_feof(fmt_->pb))) {
        draining_ = true;
        avcodec_send_packet(ctx_, nullptr);
        continue;
      }
      if (r < 0)
        throw Error(at_frame() + ": the container cannot be read (" + av_error(r) + ")" +
                    (input_.seekable() ? "" : "; a pipe cannot be rewound, so formats that need seeking (an mp4 with its "
                                              "index at the end) need a file"));
      if (packet_->stream_index != stream_) {
        av_packet_unref(packet_);
        continue;
      }
      t0 = Clock::now();
      r = avcodec_send_packet(ctx_, packet_);
      times_.send_ms += ms_between(t0, Clock::now());
      ++times_.packets;
      av_packet_unref(packet_);
      if (r < 0 && r != AVERROR(EAGAIN)) throw Error(at_frame() + " cannot be decoded (" + av_error(r) + ")");
    }
  }

  // A decoded frame (in frame_), checked, ready for the reader: the frame itself (the decoder's
  // reference-counted buffers, copied once when read), or its conversion (--scale,
  // --common_bitdepth), made here on the decoding thread, straight from the decoder's planes.
  struct Ready {
    AVFrame* frame = nullptr;
    std::optional<Picture> converted;
  };

  static PlaneView view_of(const AVFrame* f) {
    PlaneView view;
    for (int p = 0; p < 3 && f->data[p]; ++p) {
      view.data[p] = f->data[p];
      view.stride_bytes[p] = f->linesize[p];
    }
    return view;
  }

  // Whether frame_ has the first frame's format: on the device with the same surfaces, or in software
  // (NVDEC's set-up failing at a new sequence header makes libavcodec go on in software: a clean
  // switch, the frames exactly software decoding's, said once).
  bool same_format() {
    if (frame_->width != format_.width || frame_->height != format_.height) return false;
    if (frame_->format == AV_PIX_FMT_CUDA) {
      if (hw_device_index_ < 0) return false;
      const SurfaceLayout l = surface_layout_of(frame_);
      return l.semi_planar == surface_.semi_planar && l.bytes_per_sample == surface_.bytes_per_sample &&
             l.shift == surface_.shift;
    }
    if (frame_->format != av_format_) return false;
    if (hw_device_index_ >= 0 && !switched_) {
      switched_ = true;
      std::lock_guard lock(mutex_);
      switch_ = at_frame() + ": NVDEC stopped decoding it; the frames from here on are decoded in software";
    }
    return true;
  }

  Ready prepare() {
    if (!same_format())
      throw Error(at_frame() + " changes the picture format (" + format_.describe() + ", " +
                  av_pixel_format_name(av_format_) + " before; now " + std::to_string(frame_->width) + "x" +
                  std::to_string(frame_->height) + " " + av_pixel_format_name(AVPixelFormat(frame_->format)) + ")");

    ++frames_out_;
    Ready r;
    if (!converter_) {
      r.frame = av_frame_alloc();
      if (!r.frame) throw std::bad_alloc();
      av_frame_move_ref(r.frame, frame_);
      return r;
    }
    {
      std::lock_guard lock(mutex_);
      if (!spare_.empty()) {
        r.converted.emplace(std::move(spare_.back()));
        spare_.pop_back();
      }
    }
    if (!r.converted) r.converted.emplace(out_format_);
    const int range = frame_->color_range == AVCOL_RANGE_JPEG   ? 1
                      : frame_->color_range == AVCOL_RANGE_MPEG ? 0
                                                                 : -1;
    if (frame_->format == AV_PIX_FMT_CUDA) {
      // Conversions run on the host: the frame is copied back and unpacked first.
      if (!unpacked_) unpacked_ = std::make_unique<Picture>(format_);
      to_host(frame_, *unpacked_);
      converter_->convert(PlaneView::of(*unpacked_), *r.converted, range);
    } else {
      converter_->convert(view_of(frame_), *r.converted, range);
    }
    av_frame_unref(frame_);
    return r;
  }

  // The decoding thread: keeps up to read_ahead_ frames ready.
  void decode_loop() {
    try {
      for (;;) {
        {
          const auto t0 = Clock::now();
          std::unique_lock lock(mutex_);
          cv_.wait(lock, [&] { return stop_ || ready_.size() < read_ahead_; });
          times_.decoder_waited_ms += ms_between(t0, Clock::now());
          if (stop_) return;
        }
        if (!have_pending_ && !decode_next()) break;
        have_pending_ = false;
        const auto t0 = Clock::now();
        Ready r = prepare();
        times_.prepare_ms += ms_between(t0, Clock::now());
        {
          std::lock_guard lock(mutex_);
          ready_.push_back(std::move(r));
        }
        cv_.notify_all();
      }
    } catch (const std::bad_alloc&) {
      std::lock_guard lock(mutex_);
      error_ = std::make_exception_ptr(Error(at_frame() + ": out of memory while decoding"));
    } catch (...) {
      std::lock_guard lock(mutex_);
      error_ = std::current_exception();
    }
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
  }

  // The next frame, in order; empty at the end; the decoder's error once the frames before it are
  // taken.
  Ready next() {
    const auto t0 = Clock::now();
    if (!thread_.joinable()) {
      times_.first_read = t0;
      thread_ = std::thread([this] { decode_loop(); });
    }
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return !ready_.empty() || done_; });
    times_.last_read = Clock::now();
    times_.reader_waited_ms += ms_between(t0, times_.last_read);
    if (ready_.empty()) {
      if (error_) std::rethrow_exception(error_);
      return {};
    }
    Ready r = std::move(ready_.front());
    ready_.pop_front();
    ++times_.frames_read;
    lock.unlock();
    cv_.notify_all();
    return r;
  }

  // VQTWIN_REPORT_DECODE's line (after the decoding thread ended).
  void report() const {
    const DecodeTimes& t = times_;
    const double wall = t.frames_read ? ms_between(t.first_read, t.last_read) : 0;
    int surfaces = 0;
    if (ctx_ && ctx_->hw_frames_ctx)
      surfaces = reinterpret_cast<const AVHWFramesContext*>(ctx_->hw_frames_ctx->data)->initial_pool_size;
    const std::string surfaces_said =
        surfaces ? ", NVDEC surfaces " + std::to_string(surfaces) + " (extra_hw_frames " +
                       std::to_string(ctx_->extra_hw_frames) + ")"
                 : "";
    std::fprintf(stderr,
                 "vqtwin: decode report: %s: %s%s%s; %u frames read in %.1f ms (%.0f fps) from %u packets: "
                 "av_read_frame %.1f ms, avcodec_send_packet %.1f ms, avcodec_receive_frame %.1f ms, preparing %.1f "
                 "ms; the decoding thread waited %.1f ms for room (%zu frames ahead), the reader %.1f ms for frames; "
                 "libavcodec threads %d%s\n",
                 path_.c_str(), decoder_.empty() ? "software" : decoder_.c_str(), device_where_.empty() ? "" : ", ",
                 device_where_.c_str(), t.frames_read, wall, wall > 0 ? 1000.0 * t.frames_read / wall : 0.0, t.packets,
                 t.read_ms, t.send_ms, t.receive_ms, t.prepare_ms, t.decoder_waited_ms, read_ahead_, t.reader_waited_ms,
                 ctx_ ? ctx_->thread_count : 0, surfaces_said.c_str());
  }

  void recycle(Picture&& pic) {
    if (pic.format() != out_format_) return;
    std::lock_guard lock(mutex_);
    if (spare_.size() < kReadAhead) spare_.push_back(std::move(pic));
  }

  std::string path_;
  InputLimits limits_;
  StreamInput input_;
  unsigned char* io_buffer_ = nullptr;
  AVIOContext* io_ = nullptr;
  AVFormatContext* fmt_ = nullptr;
  AVCodecContext* ctx_ = nullptr;
  AVPacket* packet_ = nullptr;
  AVFrame* frame_ = nullptr;
  int stream_ = -1;
  bool draining_ = false;
  bool have_pending_ = false;  // frame_ holds the first frame, decoded while opening
  unsigned frames_out_ = 0;
  unsigned estimate_ = 0;
  std::string kind_;
  double rate_ = 0;
  PictureFormat format_{};      // as decoded
  PictureFormat out_format_{};  // as delivered (convert_to)
  AVPixelFormat av_format_ = AV_PIX_FMT_NONE;
  std::unique_ptr<FrameConverter> converter_;
  // NVDEC: the device context (null in software), its device (-1 when frames come in software), the
  // surfaces' layout, what decodes and why (decoder()), the refusal or switch warning.
  HwDecode hw_mode_ = HwDecode::kNone;
  AVBufferRef* hw_device_ = nullptr;
  int hw_device_index_ = -1;
  SurfaceLayout surface_;
  std::string decoder_;
  std::string refusal_;
  std::string switch_;  // guarded by mutex_ (the decoding thread writes it)
  bool switched_ = false;
  std::unique_ptr<Picture> unpacked_;  // a device frame unpacked on the host before its conversion
  DecoderStream decoder_stream_;       // our context and stream for libavcodec (empty: its own)
  std::string device_where_;           // the context and stream, for the report
  std::size_t read_ahead_ = kReadAhead;

  // Milliseconds spent in each call (the decoding thread's; the reader's wait and frame count are the
  // reader's): written by one thread each, read once both are done.
  struct DecodeTimes {
    double read_ms = 0, send_ms = 0, receive_ms = 0, prepare_ms = 0, decoder_waited_ms = 0, reader_waited_ms = 0;
    unsigned packets = 0, frames_read = 0;
    Clock::time_point first_read{}, last_read{};
  };
  DecodeTimes times_;

  std::thread thread_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<Ready> ready_;
  std::vector<Picture> spare_;
  bool stop_ = false;
  bool done_ = false;
  std::exception_ptr error_;
};

}  // namespace

std::unique_ptr<PictureSource> open_decoded_source(std::unique_ptr<ByteStream> in, const SourceOptions& options) {
  // FFmpeg's own log lines would interleave with ours; its errors reach the user through our messages.
  // Once (inputs open at once, on threads of their own).
  static std::once_flag quiet;
  std::call_once(quiet, [] { av_log_set_level(AV_LOG_QUIET); });
  return std::make_unique<DecodedSource>(std::move(in), options);
}

}  // namespace vqtwin
