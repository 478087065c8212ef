#include "io/decoded_source.hpp"

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
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
}

#include "io/av_formats.hpp"
#include "io/convert.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace {

constexpr int kIoBuffer = 1 << 16;
constexpr std::size_t kReadAhead = 3;  // decoded pictures kept ready per input (bounds memory)

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
      open(options.decode_threads);
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
    for (Ready& r : ready_) av_frame_free(&r.frame);
    release();
  }

  const PictureFormat& format() const override { return out_format_; }
  const std::string& path() const override { return path_; }
  unsigned known_frames() const override { return 0; }  // a container's count is a claim, not a fact
  unsigned estimated_frames() const override { return estimate_; }
  std::string kind() const override { return kind_; }
  double frame_rate() const override { return rate_; }

  bool convert_to(const PictureFormat& target) override {
    if (thread_.joinable()) return false;
    out_format_ = target;
    converter_ = std::make_unique<FrameConverter>(format_, target, av_format_);
    return true;
  }

  bool read(Picture& pic) override {
    Ready got = next();
    if (!got.frame && !got.converted) return false;
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
  void open(unsigned threads) {
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
    ctx_ = avcodec_alloc_context3(codec);
    if (!ctx_) throw std::bad_alloc();
    if ((r = avcodec_parameters_to_context(ctx_, st->codecpar)) < 0)
      throw Error(path_ + ": cannot set up the " + std::string(codec->name) + " decoder (" + av_error(r) + ")");
    ctx_->pkt_timebase = st->time_base;
    ctx_->thread_count = int(std::max(1u, threads));
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

    // The first frame tells the format (some codecs only know it once a frame is decoded).
    if (!decode_next())
      throw Error(path_ + ": no video frame could be decoded (" + std::string(codec->name) + ")");
    have_pending_ = true;
    const auto fmt = picture_format_of(AVPixelFormat(frame_->format), frame_->width, frame_->height);
    if (!fmt)
      throw Error(path_ + ": pixel format " + av_pixel_format_name(AVPixelFormat(frame_->format)) +
                  " is not planar Y'CbCr 4:2:0/4:2:2/4:4:4 or grey at 8/10/12/16 bits; convert it first (ffmpeg -i " +
                  path_ + " -pix_fmt yuv420p ...)");
    check_picture_size(path_, frame_->width, frame_->height, limits_);
    format_ = out_format_ = *fmt;
    av_format_ = AVPixelFormat(frame_->format);
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
      int r = avcodec_receive_frame(ctx_, frame_);
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
      r = av_read_frame(fmt_, packet_);
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
      r = avcodec_send_packet(ctx_, packet_);
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

  Ready prepare() {
    if (frame_->width != format_.width || frame_->height != format_.height || frame_->format != av_format_)
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
    converter_->convert(view_of(frame_), *r.converted, range);
    av_frame_unref(frame_);
    return r;
  }

  // The decoding thread: keeps up to kReadAhead frames ready.
  void decode_loop() {
    try {
      for (;;) {
        {
          std::unique_lock lock(mutex_);
          cv_.wait(lock, [&] { return stop_ || ready_.size() < kReadAhead; });
          if (stop_) return;
        }
        if (!have_pending_ && !decode_next()) break;
        have_pending_ = false;
        Ready r = prepare();
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
    if (!thread_.joinable()) thread_ = std::thread([this] { decode_loop(); });
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return !ready_.empty() || done_; });
    if (ready_.empty()) {
      if (error_) std::rethrow_exception(error_);
      return {};
    }
    Ready r = std::move(ready_.front());
    ready_.pop_front();
    lock.unlock();
    cv_.notify_all();
    return r;
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

  std::thread thread_;
  std::mutex mutex_;
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
  av_log_set_level(AV_LOG_QUIET);
  return std::make_unique<DecodedSource>(std::move(in), options);
}

}  // namespace vqtwin
