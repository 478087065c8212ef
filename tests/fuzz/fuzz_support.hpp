#pragma once
// Shared by the fuzz targets: input bytes as a descriptor (a regular in-memory file or a pipe, the
// two kinds the readers treat differently), and a sink that keeps nothing.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <thread>

#include "core/extractor.hpp"
#include "io/picture_source.hpp"

namespace vqtwin::fuzz {

// A descriptor reading `bytes`. A pipe needs a writer: it runs on a thread joined by the caller
// (PipeWriter's destructor), after the reader closed its end.
class InputFd {
 public:
  InputFd(std::string_view bytes, bool as_pipe) {
    if (!as_pipe) {
      fd_ = ::memfd_create("fuzz", 0);
      for (std::size_t at = 0; at < bytes.size();) {
        const ssize_t n = ::write(fd_, bytes.data() + at, bytes.size() - at);
        if (n <= 0) break;
        at += std::size_t(n);
      }
      ::lseek(fd_, 0, SEEK_SET);
      return;
    }
    int fds[2];
    if (::pipe(fds) != 0) return;
    fd_ = fds[0];
    writer_ = std::thread([bytes, w = fds[1]] {
      for (std::size_t at = 0; at < bytes.size();) {
        const ssize_t n = ::write(w, bytes.data() + at, bytes.size() - at);
        if (n <= 0) break;  // the reader closed early (EPIPE: SIGPIPE is ignored by the targets)
        at += std::size_t(n);
      }
      ::close(w);
    });
  }
  ~InputFd() {
    if (writer_.joinable()) writer_.join();
  }
  // Handed to a reader, which closes it.
  int release() { return fd_; }

 private:
  int fd_ = -1;
  std::thread writer_;
};

class NullSink final : public FeatureSink {
 public:
  void put(std::string_view, unsigned, double value) override { sum_ += value; }
  void aggregate(std::string_view, double value) override { sum_ += value; }
  double sum_ = 0;  // read, so values are computed
};

// Reads up to 64 frames of `src` the way a run does (more(), frames_left(), read()), skipping every
// `skip_every`-th one instead (skip() has its own paths). vqtwin::Error is the caller's to catch.
inline void drain(PictureSource& src, int skip_every) {
  Picture pic;
  for (int i = 0; i < 64 && src.more(); ++i) {
    (void)src.frames_left();
    if (i % skip_every == skip_every - 1) {
      if (!src.skip()) break;
      continue;
    }
    if (pic.format() != src.format()) pic = Picture(src.format());
    if (!src.read(pic)) break;
  }
}

// Reads little-endian fields off the front of the input.
class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::uint8_t u8() { return pos_ < size_ ? data_[pos_++] : 0; }
  std::string_view rest() const { return {reinterpret_cast<const char*>(data_) + pos_, size_ - pos_}; }
  // Up to the first NUL (consumed), or everything left.
  std::string_view until_nul() {
    const std::string_view r = rest();
    const std::size_t n = r.find('\0');
    pos_ += n == std::string_view::npos ? r.size() : n + 1;
    return r.substr(0, n == std::string_view::npos ? r.size() : n);
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

}  // namespace vqtwin::fuzz
