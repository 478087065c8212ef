#pragma once
// Compressed input: any container and codec FFmpeg's libavformat/libavcodec read, the video stream
// only, every frame the decoder outputs once, in presentation order.
#include <memory>
#include <string>

#include "io/file.hpp"
#include "io/picture_source.hpp"

namespace vqtwin {

// `file` is open at its start, less the `prefix` bytes already read from it (put back first). The
// format is found from the content, never from the name. Decoding runs on `threads` libavcodec
// threads, on a thread of its own a few frames ahead of the reader. Throws vqtwin::Error naming the
// file when FFmpeg finds no decodable video in it.
std::unique_ptr<PictureSource> open_decoded_source(const std::string& path, File file, std::string prefix,
                                                   unsigned threads);

}  // namespace vqtwin
