#pragma once
// Readers of frame sequences: y4m, raw yuv, and (built with FFmpeg) any video FFmpeg decodes. y4m and
// raw samples go straight from large buffered reads into the picture rows; nothing is converted.
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
  // Fills `pic` (a picture of format(), in memory the caller may own, e.g. pinned for a device) with
  // the next frame, in place; false at a clean end of stream. Throws vqtwin::Error (naming the file
  // and the frame) on a truncated, malformed or corrupt frame.
  virtual bool read(Picture& pic) = 0;
  // Skips one frame; false at the end.
  virtual bool skip() = 0;
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
  // Asks for pictures of `target` (another size or a higher bit depth, same chroma format) converted
  // where the frames are made (a decoder scales its own output, no intermediate copy). Called before
  // the first read; false if this source cannot (the caller then wraps it in a ConvertedSource).
  virtual bool convert_to(const PictureFormat& target) { return false; }
};

struct SourceOptions {
  RawFormat raw;
  unsigned decode_threads = 1;  // libavcodec's frame/slice threads for compressed input
};

// Refuses picture sizes no real video has (and that would make a reader allocate absurd amounts).
void check_picture_size(const std::string& path, int width, int height);

// Opens `path` ("-" = standard input), detected by its content: y4m when it starts with the YUV4MPEG2
// magic; raw yuv when `raw` is given; otherwise any video FFmpeg decodes (when built with it).
// Throws vqtwin::Error with a one-line reason naming the file.
std::unique_ptr<PictureSource> open_picture_source(const std::string& path, const SourceOptions& options);

}  // namespace vqtwin
