#pragma once
// Shared by the fuzz targets: input bytes as a descriptor (a regular in-memory file or a pipe, the
// two kinds the readers treat differently), and a sink that keeps nothing.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <thread>

#include "core/extractor.hpp"
#include "io/picture_source.hpp"

namespace vqtwin::fuzz {

// A descriptor reading `bytes`, made cheaply (the targets run it thousands of times a second): a
// regular file is one in-memory file made once per process and rewritten for each input (the
// reader gets a duplicate to close); a pipe is filled whole before the reader starts (its buffer is
// grown to the input's size), so no writer thread is needed. The reader sees the same bytes and
// the same kinds of descriptor either way; a pipe read returns what is in the buffer, so short
// reads and the end of the stream still come as they do from a writer that has finished. Only an
// input larger than the largest pipe buffer falls back to a writer thread (joined by the
// destructor, after the reader closed its end).
class InputFd {
 public:
  InputFd(std::string_view bytes, bool as_pipe) {
    if (!as_pipe) {
      static const int file = ::memfd_create("fuzz", MFD_CLOEXEC);
      if (file < 0) return;
      write_all(file, bytes, true);
      if (::ftruncate(file, off_t(bytes.size())) != 0 || ::lseek(file, 0, SEEK_SET) != 0) return;
      fd_ = ::dup(file);
      return;
    }
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return;
    fd_ = fds[0];
    const int capacity = ::fcntl(fds[1], F_GETPIPE_SZ);
    if (capacity >= 0 && bytes.size() > std::size_t(capacity)) (void)::fcntl(fds[1], F_SETPIPE_SZ, int(bytes.size()));
    if (::fcntl(fds[1], F_GETPIPE_SZ) >= 0 && bytes.size() <= std::size_t(::fcntl(fds[1], F_GETPIPE_SZ))) {
      write_all(fds[1], bytes, false);
      ::close(fds[1]);
      return;
    }
    writer_ = std::thread([bytes, w = fds[1]] {
      write_all(w, bytes, false);  // stops early when the reader closed its end (EPIPE: SIGPIPE is ignored)
      ::close(w);
    });
  }
  ~InputFd() {
    if (writer_.joinable()) writer_.join();
  }
  // Handed to a reader, which closes it.
  int release() { return fd_; }

 private:
  static void write_all(int fd, std::string_view bytes, bool positional) {
    for (std::size_t at = 0; at < bytes.size();) {
      const ssize_t n = positional ? ::pwrite(fd, bytes.data() + at, bytes.size() - at, off_t(at))
                                   : ::write(fd, bytes.data() + at, bytes.size() - at);
      if (n <= 0) break;
      at += std::size_t(n);
    }
  }

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
