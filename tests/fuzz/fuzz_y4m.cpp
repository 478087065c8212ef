// libFuzzer target: any bytes as a y4m stream (from a regular file or a pipe): the header parser,
// frame headers, truncations, skips and the frames-left count. Errors are vqtwin::Error; anything
// else (a crash, a sanitizer report, an allocation over the limit) is a finding.
#include <csignal>

#include "fuzz_support.hpp"
#include "io/picture_source.hpp"
#include "vqtwin/error.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::signal(SIGPIPE, SIG_IGN);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace vqtwin;
  if (size == 0) return 0;
  const bool as_pipe = data[0] & 1;
  fuzz::InputFd fd({reinterpret_cast<const char*>(data) + 1, size - 1}, as_pipe);
  try {
    // Small pictures only: the limit itself is under test, and large ones would only be slow.
    auto src = open_picture_fd(fd.release(), true, "fuzz", {}, InputLimits{std::uint64_t(1) << 16, nullptr});
    fuzz::drain(*src, 3);
  } catch (const Error&) {
  }
  return 0;
}
