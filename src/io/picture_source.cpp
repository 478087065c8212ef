#include "io/picture_source.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <string_view>
#include <vector>

#include "core/quote.hpp"
#include "io/byte_stream.hpp"
#include "vqtwin/error.hpp"
#if VQTWIN_HAVE_FFMPEG
#include "io/decoded_source.hpp"
#endif

namespace vqtwin {
namespace {

constexpr int kMaxDimension = 1 << 16;  // any real video fits
constexpr std::size_t kMaxHeader = 4096;
constexpr std::string_view kMagic = "YUV4MPEG2";
constexpr std::uint64_t kFrameMarker = 6;  // "FRAME\n"

bool parse_int(std::string_view s, int& out) {
  if (s.empty() || s.size() > 9) return false;
  long long v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  out = int(v);
  return true;
}

}  // namespace

void PictureSource::read_claimed(const FrameClaim&, Picture&) const {
  throw Error(path() + ": this input cannot read claimed frames");
}

void check_picture_size(const std::string& name, int w, int h, const InputLimits& limits) {
  if (w < 1 || h < 1 || w > kMaxDimension || h > kMaxDimension)
    throw Error(name + ": unsupported picture size " + std::to_string(w) + "x" + std::to_string(h));
  const std::uint64_t pixels = std::uint64_t(w) * std::uint64_t(h);
  if (pixels > limits.max_pixels)
    throw Error(name + ": picture size " + std::to_string(w) + "x" + std::to_string(h) + " (" +
                std::to_string(pixels) + " pixels) is over the limit of " + std::to_string(limits.max_pixels) +
                " pixels; --max_pixels raises it (up to " + std::to_string(kMaxPixelsLimit) + ")");
}

namespace {

struct ColourTag {
  std::string_view tag;
  ChromaFormat chroma;
  int bitdepth;
};
constexpr ColourTag kColourTags[] = {
    {"420jpeg", ChromaFormat::k420, 8},  {"420paldv", ChromaFormat::k420, 8},
    {"420mpeg2", ChromaFormat::k420, 8}, {"420", ChromaFormat::k420, 8},
    {"420p10", ChromaFormat::k420, 10},  {"420p12", ChromaFormat::k420, 12},
    {"420p16", ChromaFormat::k420, 16},  {"422", ChromaFormat::k422, 8},
    {"422p10", ChromaFormat::k422, 10},  {"422p12", ChromaFormat::k422, 12},
    {"422p16", ChromaFormat::k422, 16},  {"444", ChromaFormat::k444, 8},
    {"444p10", ChromaFormat::k444, 10},  {"444p12", ChromaFormat::k444, 12},
    {"444p16", ChromaFormat::k444, 16},  {"mono", ChromaFormat::k400, 8},
    {"mono10", ChromaFormat::k400, 10},  {"mono12", ChromaFormat::k400, 12},
    {"mono16", ChromaFormat::k400, 16},
};

// Shared by both formats: the frame's planes, row by row, straight into the picture.
class SourceBase : public PictureSource {
 public:
  explicit SourceBase(std::unique_ptr<ByteStream> in) : in_(std::move(in)) {}
  const PictureFormat& format() const override { return format_; }
  const std::string& path() const override { return in_->name(); }

  // The planes of a claimed frame, in one positional read: a plane whose rows are not padded goes
  // into the picture whole, a padded one row by row (no copy through a buffer, no rows moved).
  void read_claimed(const FrameClaim& c, Picture& pic) const override {
    thread_local std::vector<ByteStream::Span> spans;
    spans.clear();
    const std::size_t bps = std::size_t(format_.bytes_per_sample());
    for (int p = 0; p < format_.num_planes(); ++p) {
      const std::size_t row_bytes = std::size_t(format_.plane_width(p)) * bps;
      const std::size_t stride = std::size_t(pic.stride_bytes(p));
      const std::size_t rows = std::size_t(format_.plane_height(p));
      auto* base = static_cast<unsigned char*>(pic.data(p));
      if (stride == row_bytes) {
        spans.push_back({base, row_bytes * rows});
      } else {
        for (std::size_t y = 0; y < rows; ++y) spans.push_back({base + y * stride, row_bytes});
      }
    }
    const std::uint64_t got = in_->read_at(spans.data(), spans.size(), c.offset);
    if (got != format_.frame_bytes())
      throw Error(path() + ": frame " + std::to_string(c.frame) + " is truncated (" + std::to_string(got) + " of " +
                  std::to_string(format_.frame_bytes()) + " bytes)");
  }

 protected:
  // The next frame, claimed when it lies whole in a regular file after a header of `marker` bytes
  // (y4m: a bare "FRAME\n", checked here; raw: none). The stream's position is left behind while
  // frames are claimed and caught up by leave_claims() before any read() or skip().
  std::optional<FrameClaim> claim_frame(std::uint64_t marker) {
    if (!in_->regular() || !claims_allowed_) return std::nullopt;
    if (!claiming_) {
      next_claim_ = in_->position();
      claiming_ = true;
    }
    const std::uint64_t per = marker + format_.frame_bytes(), size = in_->size_from_start();
    if (next_claim_ > size || size - next_claim_ < per) {  // the end, or a frame cut short: read() says which
      leave_claims();
      return std::nullopt;
    }
    if (marker) {
      char head[kFrameMarker];
      const ByteStream::Span span{head, sizeof head};
      if (in_->read_at(&span, 1, next_claim_) != sizeof head || std::memcmp(head, "FRAME\n", sizeof head) != 0) {
        // A header with parameters (or a corrupt file): the frames lie at unknown places from here.
        claims_allowed_ = false;
        leave_claims();
        return std::nullopt;
      }
    }
    const FrameClaim c{next_claim_ + marker, frames_++};
    next_claim_ += per;
    return c;
  }

  // Bytes not yet read, skipped or claimed (a regular file).
  std::uint64_t remaining() const {
    if (!claiming_) return in_->remaining();
    const std::uint64_t size = in_->size_from_start();
    return size > next_claim_ ? size - next_claim_ : 0;
  }

  // Moves the stream to the first frame not claimed, so read() and skip() go on from there.
  void leave_claims() {
    if (!claiming_) return;
    claiming_ = false;
    if (!in_->seek_from_start(next_claim_)) throw Error(path() + ": cannot seek to frame " + std::to_string(frames_));
  }

  std::string frame_error(const std::string& what) const {
    return path() + ": frame " + std::to_string(frames_) + " " + what;
  }

  // Reads the frame body; `started` says whether a byte of this frame was already consumed.
  // Each plane is read with one request straight into the picture (one kernel copy, no bounce
  // buffer), packed at the start of the plane, then its rows are spread out to the padded stride
  // from the last row to the first (a row never overwrites one not yet moved).
  bool read_body(Picture& pic, bool started) {
    const std::size_t bps = std::size_t(format_.bytes_per_sample());
    std::size_t got_total = 0;
    for (int p = 0; p < format_.num_planes(); ++p) {
      const std::size_t row_bytes = std::size_t(format_.plane_width(p)) * bps;
      const std::size_t stride = std::size_t(pic.stride_bytes(p));
      const std::size_t rows = std::size_t(format_.plane_height(p));
      unsigned char* base = static_cast<unsigned char*>(pic.data(p));
      const std::size_t got = in_->read(base, row_bytes * rows);
      got_total += got;
      if (got != row_bytes * rows) {
        if (!started && got_total == 0) return false;
        throw Error(frame_error("is truncated (" + std::to_string(got_total) + " of " +
                                std::to_string(format_.frame_bytes()) + " bytes)"));
      }
      if (stride != row_bytes)
        for (std::size_t y = rows; y-- > 1;) std::memmove(base + y * stride, base + y * row_bytes, row_bytes);
    }
    ++frames_;
    return true;
  }

  // Whether a frame follows: false at the end; throws when a pipe ends within the next frame's
  // first 64 KiB (so a pipe that sends a header and stops cannot make anyone allocate a picture).
  bool has_frame(std::uint64_t marker) {
    const std::uint64_t need = std::min<std::uint64_t>(marker + format_.frame_bytes(), std::uint64_t(64) << 10);
    const std::size_t got = in_->peek(std::size_t(need)).size();
    if (got == 0) return false;
    // A regular file's size is known: a frame cut short there is read()'s to report, in its words.
    if (got < need && !in_->regular())
      throw Error(frame_error("is truncated (" + std::to_string(got) + " bytes, a frame needs " +
                              std::to_string(marker + format_.frame_bytes()) + ")"));
    return true;
  }

  std::unique_ptr<ByteStream> in_;
  PictureFormat format_{};
  unsigned frames_ = 0;  // frames read, skipped or claimed

 private:
  bool claims_allowed_ = true;
  bool claiming_ = false;         // frames are being claimed; the stream's position lags behind
  std::uint64_t next_claim_ = 0;  // offset (from the start) of the next frame's header, while claiming
};

class Y4mSource final : public SourceBase {
 public:
  Y4mSource(std::unique_ptr<ByteStream> in, const std::string& header, const InputLimits& limits)
      : SourceBase(std::move(in)) {
    parse_header(header, limits);
    // A regular file must hold one whole frame before any picture is allocated for it.
    if (in_->regular()) {
      const std::uint64_t left = in_->remaining(), need = kFrameMarker + format_.frame_bytes();
      if (left == 0) throw Error(path() + ": y4m file has a header but no frames");
      if (left < need)
        throw Error(frame_error("is truncated (the file holds " + std::to_string(left) + " bytes after its header, one " +
                                format_.describe() + " frame needs " + std::to_string(need) + ")"));
      // Every frame with a bare "FRAME\n" header: the count follows from the size.
      if (left % need == 0) known_ = unsigned(std::min<std::uint64_t>(left / need, ~0u));
    }
  }

  bool more() override {
    leave_claims();
    if (has_frame(kFrameMarker)) return true;
    if (frames_ == 0) throw Error(path() + ": y4m file has a header but no frames");
    return false;
  }

  bool read(Picture& pic) override {
    leave_claims();
    if (!read_frame_header()) return false;
    return read_body(pic, true);
  }

  std::optional<FrameClaim> claim() override { return claim_frame(kFrameMarker); }

  bool skip() override {
    leave_claims();
    if (!read_frame_header()) return false;
    if (in_->discard(format_.frame_bytes()) != format_.frame_bytes()) throw Error(frame_error("is truncated"));
    ++frames_;
    return true;
  }

  std::optional<std::uint64_t> frames_left() const override {
    if (!in_->regular()) return std::nullopt;
    const std::uint64_t per = kFrameMarker + format_.frame_bytes(), left = remaining();
    if (left % per) return std::nullopt;
    return left / per;
  }

  unsigned known_frames() const override { return known_; }
  int color_range() const override { return range_; }
  std::string kind() const override { return "y4m"; }
  double frame_rate() const override { return rate_; }

 private:
  void parse_header(const std::string& line, const InputLimits& limits) {
    int w = -1, h = -1;
    std::string colour = "420jpeg";
    std::size_t pos = 0;
    bool first = true;
    while (pos < line.size()) {
      std::size_t end = line.find(' ', pos);
      if (end == std::string::npos) end = line.size();
      std::string_view tok(line.data() + pos, end - pos);
      pos = end + 1;
      if (tok.empty()) continue;
      if (first) {  // the magic, checked by the opener
        first = false;
        continue;
      }
      const std::string_view val = tok.substr(1);
      switch (tok[0]) {
        case 'W':
          if (!parse_int(val, w)) throw Error(path() + ": bad y4m width " + quote(val));
          break;
        case 'H':
          if (!parse_int(val, h)) throw Error(path() + ": bad y4m height " + quote(val));
          break;
        case 'C': colour = std::string(val); break;
        case 'X':  // extensions: only the colour range is read (for --scale)
          if (val == "COLORRANGE=FULL") range_ = 1;
          else if (val == "COLORRANGE=LIMITED") range_ = 0;
          break;
        case 'F': {  // frame rate N:D (only reported)
          int num = 0, den = 0;
          const std::size_t colon = val.find(':');
          if (colon != std::string_view::npos && parse_int(val.substr(0, colon), num) &&
              parse_int(val.substr(colon + 1), den) && num > 0 && den > 0)
            rate_ = double(num) / den;
          break;
        }
        case 'I': case 'A': break;  // interlacing, aspect
        default: throw Error(path() + ": unknown y4m header tag " + quote(tok));
      }
    }
    if (w < 0 || h < 0) throw Error(path() + ": y4m header has no " + std::string(w < 0 ? "width (W)" : "height (H)"));
    check_picture_size(path(), w, h, limits);
    const ColourTag* tag = nullptr;
    for (const auto& t : kColourTags)
      if (t.tag == colour) tag = &t;
    if (!tag)
      throw Error(path() + ": unsupported y4m colour space C" + printable(colour, 40) +
                  " (supported: 4:2:0, 4:2:2, 4:4:4 and mono at 8, 10, 12 and 16 bits)");
    format_ = PictureFormat{w, h, tag->bitdepth, tag->chroma};
  }

  // "FRAME[ params]\n"; false at a clean end of file.
  bool read_frame_header() {
    char magic[5];
    const std::size_t got = in_->read(magic, 5);
    if (got == 0) {
      if (frames_ == 0) throw Error(path() + ": y4m file has a header but no frames");
      return false;
    }
    if (got != 5 || std::memcmp(magic, "FRAME", 5) != 0)
      throw Error(frame_error(got != 5 ? "is truncated" : "does not start with FRAME (corrupt y4m or wrong frame size)"));
    for (std::size_t n = 0;; ++n) {
      const int c = in_->get();
      if (c == '\n') break;
      if (c < 0) throw Error(frame_error("is truncated (header)"));
      if (n > kMaxHeader) throw Error(frame_error("header is too long"));
    }
    return true;
  }

  unsigned known_ = 0;
  int range_ = -1;
  double rate_ = 0;
};

class YuvSource final : public SourceBase {
 public:
  YuvSource(std::unique_ptr<ByteStream> in, const RawFormat& raw, const InputLimits& limits)
      : SourceBase(std::move(in)) {
    ChromaFormat chroma;
    if (raw.pixel_format == "420") chroma = ChromaFormat::k420;
    else if (raw.pixel_format == "422") chroma = ChromaFormat::k422;
    else if (raw.pixel_format == "444") chroma = ChromaFormat::k444;
    else if (raw.pixel_format == "400") chroma = ChromaFormat::k400;
    else throw Error("--pixel_format must be 420, 422, 444 or 400, not " + quote(raw.pixel_format));
    if (raw.bitdepth != 8 && raw.bitdepth != 10 && raw.bitdepth != 12 && raw.bitdepth != 16)
      throw Error("--bitdepth must be 8, 10, 12 or 16, not " + std::to_string(raw.bitdepth));
    check_picture_size(path(), raw.width, raw.height, limits);
    format_ = PictureFormat{raw.width, raw.height, raw.bitdepth, chroma};
    if (in_->regular()) {  // checked at once, without reading: a wrong geometry is the usual cause
      const std::uint64_t size = in_->remaining();
      if (size == 0) throw Error(path() + ": file is empty");
      if (size % format_.frame_bytes())
        throw Error(path() + ": size " + std::to_string(size) + " bytes is not a multiple of the " +
                    format_.describe() + " frame size (" + std::to_string(format_.frame_bytes()) + " bytes)");
      known_ = unsigned(std::min<std::uint64_t>(size / format_.frame_bytes(), ~0u));
    }
  }

  bool more() override {
    leave_claims();
    if (has_frame(0)) return true;
    if (frames_ == 0) throw Error(path() + ": file is empty");
    return false;
  }

  bool read(Picture& pic) override {
    leave_claims();
    const bool got = read_body(pic, false);
    if (!got && frames_ == 0) throw Error(path() + ": file is empty");
    return got;
  }

  std::optional<FrameClaim> claim() override { return claim_frame(0); }

  bool skip() override {
    leave_claims();
    const std::uint64_t got = in_->discard(format_.frame_bytes());
    if (got == 0) return false;
    if (got != format_.frame_bytes()) throw Error(frame_error("is truncated"));
    ++frames_;
    return true;
  }

  std::optional<std::uint64_t> frames_left() const override {
    if (!in_->regular()) return std::nullopt;
    return remaining() / format_.frame_bytes();
  }

  unsigned known_frames() const override { return known_; }
  std::string kind() const override { return "raw yuv"; }

 private:
  unsigned known_ = 0;
};

}  // namespace

namespace {

// open_picture_fd() with every option (--hwdec's too).
std::unique_ptr<PictureSource> open_fd(int fd, bool owned, const std::string& name, const SourceOptions& options) {
  const RawFormat& raw = options.raw;
  const InputLimits& limits = options.limits;
  auto in = std::make_unique<ByteStream>(fd, owned, name, limits.stop);
  // Look at the first bytes without consuming them: a raw file or a decoder keeps them.
  const std::string_view head = in->peek(kMagic.size());
  if (head.empty()) throw Error(name + ": file is empty");
  if (head == kMagic) {
    if (raw.given())
      throw Error(name + ": is a y4m file; --width/--height/--pixel_format/--bitdepth are for raw .yuv input");
    std::string header;
    for (;;) {
      const int c = in->get();
      if (c == '\n') break;
      if (c < 0) throw Error(name + ": y4m header is truncated (no end of line)");
      if (header.size() > kMaxHeader) throw Error(name + ": y4m header is too long");
      header.push_back(char(c));
    }
    return std::make_unique<Y4mSource>(std::move(in), header, limits);
  }
  if (raw.given()) {
    if (!raw.width || !raw.height || raw.pixel_format.empty() || !raw.bitdepth)
      throw Error("raw .yuv input needs all of --width, --height, --pixel_format and --bitdepth");
    return std::make_unique<YuvSource>(std::move(in), raw, limits);
  }
#if VQTWIN_HAVE_FFMPEG
  return open_decoded_source(std::move(in), options);
#else
  throw Error(name + ": not a y4m file (no YUV4MPEG2 magic); this vqtwin is built without FFmpeg "
                     "(-DVQTWIN_FFMPEG=OFF), so compressed video must be decoded first (ffmpeg -i FILE "
                     "-f yuv4mpegpipe -); for raw .yuv give --width --height --pixel_format --bitdepth");
#endif
}

}  // namespace

std::unique_ptr<PictureSource> open_picture_fd(int fd, bool owned, const std::string& name, const RawFormat& raw,
                                               const InputLimits& limits, unsigned decode_threads) {
  SourceOptions options;
  options.raw = raw;
  options.limits = limits;
  options.decode_threads = decode_threads;
  return open_fd(fd, owned, name, options);
}

std::unique_ptr<PictureSource> open_picture_source(const std::string& path, const SourceOptions& options) {
  const InputLimits& limits = options.limits;
  if (path == "-")
    return open_fd(STDIN_FILENO, false, "standard input", options);
  const std::string name = printable_path(path);
  int fd;
  do fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  while (fd < 0 && errno == EINTR && !(limits.stop && limits.stop->load()));
  if (fd < 0) throw Error(name + ": cannot open (" + std::strerror(errno) + ")");
  return open_fd(fd, true, name, options);
}

}  // namespace vqtwin
