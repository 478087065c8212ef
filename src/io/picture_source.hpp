#pragma once
// Readers of frame sequences: y4m and raw yuv (later: decoded video). Samples go straight from
// large reads into the picture rows; nothing is converted.
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

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

class PictureSource {
 public:
  virtual ~PictureSource() = default;
  virtual const PictureFormat& format() const = 0;
  // Whether another frame follows (looks ahead; waits for a pipe). Throws like read().
  virtual bool more() = 0;
  // Fills `pic` (allocated with format()) with the next frame; false at a clean end of stream.
  // Throws vqtwin::Error (naming the file) on a truncated or malformed frame.
  virtual bool read(Picture& pic) = 0;
  // Skips one frame; false at the end.
  virtual bool skip() = 0;
  // Frames not yet read, when known without reading them: a regular file whose remaining bytes
  // are a whole number of frames (y4m: with plain "FRAME\n" headers). Otherwise nothing.
  virtual std::optional<std::uint64_t> frames_left() const = 0;
  // The input's name as messages show it (printable, bounded).
  virtual const std::string& path() const = 0;
};

// Opens `path` ("-" = standard input): y4m when it starts with the YUV4MPEG2 magic, raw yuv when
// `raw` is given. Any kind of file works (regular, pipe, FIFO, /dev/stdin): nothing is reopened.
// Throws vqtwin::Error with a one-line reason naming the file.
std::unique_ptr<PictureSource> open_picture_source(const std::string& path, const RawFormat& raw,
                                                   const InputLimits& limits = {});
// The same on an open descriptor (closed at the end when `owned`); `name` names it in messages.
std::unique_ptr<PictureSource> open_picture_fd(int fd, bool owned, const std::string& name, const RawFormat& raw,
                                               const InputLimits& limits = {});

}  // namespace vqtwin
