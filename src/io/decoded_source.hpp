#pragma once
// Compressed input: any container and codec FFmpeg's libavformat/libavcodec read, the video stream
// only, every frame the decoder outputs once, in presentation order.
#include <memory>
#include <string>

#include "io/byte_stream.hpp"
#include "io/picture_source.hpp"

namespace vqtwin {

// `in` is at the input's start (the probe only peeked). The format is found from the content, never
// from the name. Decoding runs on options.decode_threads libavcodec threads, on a thread of its own a
// few frames ahead of the reader; pictures over options.limits are refused. Throws vqtwin::Error naming
// the input when FFmpeg finds no decodable video in it.
std::unique_ptr<PictureSource> open_decoded_source(std::unique_ptr<ByteStream> in, const SourceOptions& options);

}  // namespace vqtwin
