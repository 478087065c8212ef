#pragma once
// Readers of frame sequences: y4m and raw yuv (later: decoded video). Samples go straight from
// large buffered reads into the picture rows; nothing is converted.
#include <cstdio>
#include <memory>
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

class PictureSource {
 public:
  virtual ~PictureSource() = default;
  virtual const PictureFormat& format() const = 0;
  // Fills `pic` (allocated with format()) with the next frame; false at a clean end of stream.
  // Throws vqtwin::Error (naming the file) on a truncated or malformed frame.
  virtual bool read(Picture& pic) = 0;
  // Skips one frame; false at the end.
  virtual bool skip() = 0;
  virtual const std::string& path() const = 0;
};

// Opens `path` ("-" = standard input): y4m when it starts with the YUV4MPEG2 magic, raw yuv when
// `raw` is given. Throws vqtwin::Error with a one-line reason naming the file.
std::unique_ptr<PictureSource> open_picture_source(const std::string& path, const RawFormat& raw);

}  // namespace vqtwin
