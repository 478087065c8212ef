// libFuzzer target: raw yuv of a geometry taken from the first bytes (any size up to 80x80, every
// pixel format and bit depth, some invalid), from a regular file or a pipe.
#include <csignal>
#include <string>

#include "fuzz_support.hpp"
#include "io/picture_source.hpp"
#include "vqtwin/error.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::signal(SIGPIPE, SIG_IGN);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace vqtwin;
  fuzz::Bytes in(data, size);
  const std::uint8_t flags = in.u8();
  RawFormat raw;
  raw.width = in.u8() % 81;  // 0 is invalid on purpose
  raw.height = in.u8() % 81;
  static const char* const kFormats[] = {"420", "422", "444", "400", "411"};
  raw.pixel_format = kFormats[(flags >> 1) % 5];
  static const int kDepths[] = {8, 10, 12, 16, 9, 0};
  raw.bitdepth = kDepths[(flags >> 4) % 6];
  fuzz::InputFd fd(in.rest(), flags & 1);
  try {
    auto src = open_picture_fd(fd.release(), true, "fuzz", raw);
    fuzz::drain(*src, 4);
  } catch (const Error&) {
  }
  return 0;
}
