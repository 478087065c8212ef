#include "io/byte_stream.hpp"

#include <poll.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

#include "vqtwin/error.hpp"

namespace vqtwin {
namespace {
constexpr std::size_t kBuffer = std::size_t(64) << 10;  // headers and small frames; planes bypass it
}  // namespace

ByteStream::ByteStream(int fd, bool owned, std::string name, const std::atomic<bool>* stop)
    : fd_(fd), owned_(owned), name_(std::move(name)), stop_(stop), buf_(kBuffer) {
  struct stat st{};
  if (::fstat(fd_, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      if (owned_) ::close(fd_);
      owned_ = false;
      throw Error(name_ + ": is a folder, not a video file");
    }
    if (S_ISREG(st.st_mode)) {
      const off_t at = ::lseek(fd_, 0, SEEK_CUR);  // standard input may start mid-file
      regular_ = at >= 0;
      size_ = std::uint64_t(st.st_size);
      offset_ = at >= 0 ? std::uint64_t(at) : 0;
      start_ = offset_;
    }
  }
}

ByteStream::~ByteStream() {
  if (owned_) ::close(fd_);
}

std::uint64_t ByteStream::remaining() const {
  if (!regular_) return 0;
  const std::uint64_t at = offset_ - (end_ - pos_);
  return size_ > at ? size_ - at : 0;
}

// A pipe is polled in short slices before each read, so a stop request is seen even when the
// writer stalls (the signal may have gone to another thread, whose read is then not interrupted).
void ByteStream::wait_readable() {
  for (;;) {
    if (stop_->load()) throw Error(name_ + ": reading stopped");
    pollfd p{fd_, POLLIN, 0};
    const int r = ::poll(&p, 1, 100);
    if (r > 0 || (r < 0 && errno != EINTR)) return;  // readable, at its end, or not pollable: read() decides
  }
}

std::size_t ByteStream::read_fd(void* dst, std::size_t n) {
  n = std::min<std::size_t>(n, std::size_t(1) << 30);
  for (;;) {
    if (!regular_ && stop_) wait_readable();
    const ssize_t r = ::read(fd_, dst, n);
    if (r >= 0) {
      offset_ += std::uint64_t(r);
      return std::size_t(r);
    }
    if (errno == EINTR) {
      if (stop_ && stop_->load()) throw Error(name_ + ": reading stopped");
      continue;
    }
    throw Error(name_ + ": read error (" + std::strerror(errno) + ")");
  }
}

std::size_t ByteStream::read(void* dst, std::size_t n) {
  auto* out = static_cast<unsigned char*>(dst);
  std::size_t got = std::min(n, end_ - pos_);
  std::memcpy(out, buf_.data() + pos_, got);
  pos_ += got;
  while (got < n) {
    const std::size_t want = n - got;
    if (want >= buf_.size()) {  // straight into the caller's memory: one copy
      const std::size_t r = read_fd(out + got, want);
      if (r == 0) break;
      got += r;
    } else {
      pos_ = 0;
      end_ = read_fd(buf_.data(), buf_.size());
      if (end_ == 0) break;
      const std::size_t k = std::min(want, end_);
      std::memcpy(out + got, buf_.data(), k);
      pos_ = k;
      got += k;
    }
  }
  return got;
}

int ByteStream::get() {
  if (pos_ == end_) {
    pos_ = 0;
    end_ = read_fd(buf_.data(), buf_.size());
    if (end_ == 0) return -1;
  }
  return buf_[pos_++];
}

std::string_view ByteStream::peek(std::size_t n) {
  n = std::min(n, buf_.size());
  if (end_ - pos_ < n) {
    std::memmove(buf_.data(), buf_.data() + pos_, end_ - pos_);
    end_ -= pos_;
    pos_ = 0;
    while (end_ < n) {
      const std::size_t r = read_fd(buf_.data() + end_, buf_.size() - end_);
      if (r == 0) break;
      end_ += r;
    }
  }
  return {reinterpret_cast<const char*>(buf_.data()) + pos_, std::min(n, end_ - pos_)};
}

std::uint64_t ByteStream::discard(std::uint64_t n) {
  std::uint64_t done = std::min<std::uint64_t>(n, end_ - pos_);
  pos_ += std::size_t(done);
  if (done < n && regular_) {
    const std::uint64_t k = std::min(n - done, remaining());
    if (::lseek(fd_, off_t(k), SEEK_CUR) < 0) throw Error(name_ + ": seek error (" + std::strerror(errno) + ")");
    offset_ += k;
    return done + k;
  }
  while (done < n) {
    pos_ = 0;
    end_ = read_fd(buf_.data(), buf_.size());
    if (end_ == 0) break;
    const std::size_t k = std::size_t(std::min<std::uint64_t>(n - done, end_));
    pos_ = k;
    done += k;
  }
  return done;
}

bool ByteStream::seek_from_start(std::uint64_t offset) {
  if (!regular_ || offset > size_ - start_) return false;
  if (::lseek(fd_, off_t(start_ + offset), SEEK_SET) < 0) return false;
  offset_ = start_ + offset;
  pos_ = end_ = 0;
  return true;
}

// preadv in batches of at most IOV_MAX buffers; a short count (a signal, a huge request) continues
// where it stopped, so only the end of the file ends it early.
std::uint64_t ByteStream::read_at(const Span* spans, std::size_t count, std::uint64_t offset) const {
  constexpr std::size_t kBatch = IOV_MAX < 1024 ? IOV_MAX : 1024;
  iovec iov[kBatch];
  std::uint64_t done = 0;
  std::size_t next = 0, skip = 0;  // the first span not yet read whole, and the bytes of it already read
  while (next < count) {
    std::size_t n = 0;
    for (std::size_t i = next; i < count && n < kBatch; ++i, ++n) {
      const std::size_t from = i == next ? skip : 0;
      iov[n] = {static_cast<unsigned char*>(spans[i].data) + from, spans[i].bytes - from};
    }
    const ssize_t r = ::preadv(fd_, iov, int(n), off_t(start_ + offset + done));
    if (r < 0) {
      if (errno == EINTR) continue;
      throw Error(name_ + ": read error (" + std::strerror(errno) + ")");
    }
    if (r == 0) break;
    done += std::uint64_t(r);
    for (std::size_t left = std::size_t(r); left > 0 && next < count;) {
      const std::size_t rest = spans[next].bytes - skip;
      if (left < rest) {
        skip += left;
        left = 0;
      } else {
        left -= rest;
        skip = 0;
        ++next;
      }
    }
    while (next < count && spans[next].bytes == 0) ++next;
  }
  return done;
}

}  // namespace vqtwin
