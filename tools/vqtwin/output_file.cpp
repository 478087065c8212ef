#include "output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/quote.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin_cli {
namespace {

[[noreturn]] void write_failed(const std::string& what, int err) {
  throw vqtwin::Error(what + ": write failed (" + std::strerror(err ? err : EIO) + ")");
}

// Runs `body` on `f` and flushes it; the reason of the first failure, or 0. errno is cleared first
// so that the failing write's errno survives (later successful writes leave it alone).
int write_through(std::FILE* f, const std::function<void(std::FILE*)>& body) {
  errno = 0;
  body(f);
  const int body_errno = errno;
  errno = 0;
  if (std::fflush(f) != 0) return errno ? errno : EIO;
  if (std::ferror(f)) return body_errno ? body_errno : EIO;
  return 0;
}

}  // namespace

OutputFile::OutputFile(const std::string& path) : path_(path) {
  if (path == "-") return;
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  created_ = fd_ >= 0;
  if (fd_ < 0 && errno == EEXIST) fd_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd_ < 0) throw vqtwin::Error(vqtwin::printable_path(path) + ": cannot write (" + std::strerror(errno) + ")");
}

OutputFile::~OutputFile() {
  if (fd_ >= 0) ::close(fd_);
}

void OutputFile::write(const std::function<void(std::FILE*)>& body) {
  if (fd_ < 0) {
    write_stdout(body);
    return;
  }
  const std::string name = vqtwin::printable_path(path_);
  struct stat st{};
  if (::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode) && ::ftruncate(fd_, 0) != 0) write_failed(name, errno);
  std::FILE* f = ::fdopen(fd_, "w");
  if (!f) write_failed(name, errno);
  fd_ = -2;  // owned by `f` now
  const int err = write_through(f, body);
  errno = 0;
  const bool close_failed = std::fclose(f) != 0;
  if (err || close_failed) write_failed(name, err ? err : errno);
}

void OutputFile::abandon() {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -2;
    if (created_) ::unlink(path_.c_str());
  }
}

void write_stdout(const std::function<void(std::FILE*)>& body) {
  if (const int err = write_through(stdout, body)) write_failed("standard output", err);
}

void guard_standard_descriptors() {
  for (int fd = 0; fd <= 2; ++fd)
    if (::fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
      const int got = ::open("/dev/null", O_RDONLY);
      if (got >= 0 && got != fd) ::close(got);  // lower descriptors are open: nothing to guard
    }
}

}  // namespace vqtwin_cli
