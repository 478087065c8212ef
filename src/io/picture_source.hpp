#pragma once
// Readers of frame sequences: y4m, raw yuv, and (built with FFmpeg) any video FFmpeg decodes. Inputs are
// read on their descriptors (nothing is reopened, so pipes and FIFOs lose nothing); y4m and raw samples go
// straight from large reads into the picture rows; nothing is converted.
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "io/device_frame.hpp"
#include "io/hwdec.hpp"
#include "vqtwin/picture.hpp"

namespace vqtwin {

struct RawFormat {  // what --width --height --pixel_format --bitdepth give for a .yuv file
  int width = 0;
  int height = 0;
  std::string pixel_format;  // 420, 422, 444, 400
  int bitdepth = 0;
  bool given() const { return width || height || !pixel_format.empty() || bitdepth; }
};

// The largest picture (luma samples) an input may declare: one picture pair per worker is allocated
// at that size, so a 140-byte header must not be able to ask for gigabytes (--max_pixels).
inline constexpr std::uint64_t kDefaultMaxPixels = std::uint64_t(1) << 26;  // 8192 x 8192
inline constexpr std::uint64_t kMaxPixelsLimit = std::uint64_t(1) << 28;     // 16384 x 16384

struct InputLimits {
  std::uint64_t max_pixels = kDefaultMaxPixels;
  // When it becomes true, a read waiting on a pipe gives up (throws vqtwin::Error).
  const std::atomic<bool>* stop = nullptr;
};

// A frame of a regular y4m or raw file, claimed for a positional read (PictureSource::claim).
struct FrameClaim {
  std::uint64_t offset = 0;  // where its samples start, counted from the start of the input
  unsigned frame = 0;        // its number in the input (0 = the first), for messages
};

class PictureSource {
 public:
  virtual ~PictureSource() = default;
  virtual const PictureFormat& format() const = 0;
  // Whether another frame follows, when that can be known by looking ahead (y4m and raw yuv; waits
  // for a pipe). Sources that cannot look ahead say true and let read() tell. Throws like read().
  virtual bool more() { return true; }
  // Fills `pic` (a picture of format(), in memory the caller may own, e.g. pinned for a device) with
  // the next frame, in place; false at a clean end of stream. Throws vqtwin::Error (naming the file
  // and the frame) on a truncated, malformed or corrupt frame.
  virtual bool read(Picture& pic) = 0;
  // read(), where the frame may instead be handed to `on_device` (a device slot's picture; may be
  // null): a source that decodes on that device hands the frame over and leaves `pic` as it is.
  // Every other source reads into `pic`.
  virtual bool read_to(Picture& pic, DeviceFrameTarget* on_device) { return read(pic); }
  // Skips one frame; false at the end.
  virtual bool skip() = 0;
  // Frames read in parallel. claim() takes the next frame as read() would, without reading it, when
  // its samples lie at a known place of a regular file: a raw file's frame that lies whole in the
  // file, a y4m frame whose header is a bare "FRAME\n" (looked at now) and whose samples lie whole
  // in the file. read_claimed() then reads it on any thread, with no lock, concurrently with other
  // claimed reads. Nothing is claimed when the next frame must go through read() (a pipe, a decoded
  // or converted input, a y4m frame header with parameters, the end of the file or a frame cut
  // short): the caller then calls read(), which goes on from that frame with today's checks and
  // messages. claim() is called like read() (one thread at a time, in turn with read() and skip()).
  virtual std::optional<FrameClaim> claim() { return std::nullopt; }
  // Reads claimed frame `c` into `pic` (a picture of format()), straight into its planes. Throws
  // vqtwin::Error naming the frame when the file came up short (it shrank) or could not be read.
  virtual void read_claimed(const FrameClaim& c, Picture& pic) const;
  // Frames not yet read, when known without reading them: a regular file whose remaining bytes
  // are a whole number of frames (y4m: with plain "FRAME\n" headers). Otherwise nothing.
  virtual std::optional<std::uint64_t> frames_left() const { return std::nullopt; }
  // The input's name as messages show it (printable, bounded).
  virtual const std::string& path() const = 0;
  // Frames in the whole input when it is known exactly (a regular y4m/yuv file, a container that
  // stores the count); 0 = unknown.
  virtual unsigned known_frames() const { return 0; }
  // Frames expected, for progress only: known_frames(), or an estimate (a container's duration
  // times its frame rate); 0 = unknown.
  virtual unsigned estimated_frames() const { return known_frames(); }
  // The colour range the input states (y4m's XCOLORRANGE): -1 unspecified, 0 limited, 1 full. The
  // samples are never changed for it; only scaling reads it, as FFmpeg's scale filter does.
  virtual int color_range() const { return -1; }
  // What the input is, for reports: "y4m", "raw yuv", "h264 in matroska,webm".
  virtual std::string kind() const = 0;
  // Frames per second the input states (y4m's F tag, a container's average rate); 0 = unknown.
  virtual double frame_rate() const { return 0; }
  // Asks for pictures of `target` (another size or a higher bit depth, same chroma format) converted
  // where the frames are made (a decoder scales its own output, no intermediate copy). Called before
  // the first read; false if this source cannot (the caller then wraps it in a ConvertedSource).
  virtual bool convert_to(const PictureFormat& target) { return false; }
  // How a compressed input is decoded and why (--hwdec), for the run's line and the receipt: "" for
  // inputs that are not decoded. decode_refusal(): why NVDEC refused it under --hwdec auto (it is then
  // decoded in software), else "". decode_switch(): the sentence saying that NVDEC stopped part-way
  // and software decoding took over, else "".
  virtual std::string decoder() const { return ""; }
  virtual std::string decode_refusal() const { return ""; }
  virtual std::string decode_switch() const { return ""; }
};

struct SourceOptions {
  RawFormat raw;
  InputLimits limits;
  unsigned decode_threads = 1;  // libavcodec's frame/slice threads for compressed input
  HwDecodeRequest hwdec;        // where compressed input is decoded (--hwdec)
};

// Refuses picture sizes no real video has, and pictures over limits.max_pixels (which would make every
// worker allocate absurd amounts); the message names `name` and --max_pixels.
void check_picture_size(const std::string& name, int width, int height, const InputLimits& limits = {});

// Opens `path` ("-" = standard input), detected by its content: y4m when it starts with the YUV4MPEG2
// magic; raw yuv when `raw` is given; otherwise any video FFmpeg decodes (when built with it). Any kind
// of file works (regular, pipe, FIFO, /dev/stdin): nothing is reopened. Throws vqtwin::Error with a
// one-line reason naming the file.
std::unique_ptr<PictureSource> open_picture_source(const std::string& path, const SourceOptions& options);
// The same on an open descriptor (closed at the end when `owned`); `name` names it in messages.
std::unique_ptr<PictureSource> open_picture_fd(int fd, bool owned, const std::string& name, const RawFormat& raw,
                                               const InputLimits& limits = {}, unsigned decode_threads = 1);

}  // namespace vqtwin
