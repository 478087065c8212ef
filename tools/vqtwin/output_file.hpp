#pragma once
// Where the results go: a file (opened before the run, so a bad path fails before anything is
// computed) or standard output. Every write is checked: a full disk, a closed stdout or /dev/full
// is an error, never a silent loss.
#include <cstdio>
#include <functional>
#include <string>

namespace vqtwin_cli {

class OutputFile {
 public:
  // Opens `path` for writing ("-" = standard output) without truncating it yet: an existing file
  // keeps its contents if the run computes nothing. Throws vqtwin::Error.
  explicit OutputFile(const std::string& path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Truncates, writes through `body`, flushes and closes. Throws vqtwin::Error on any failure.
  void write(const std::function<void(std::FILE*)>& body);
  // Nothing to write: a file this run created is removed.
  void abandon();

 private:
  std::string path_;
  int fd_ = -1;  // -1: standard output
  bool created_ = false;
};

// Writes through `body` to standard output, flushes it and checks that every write succeeded.
// Throws vqtwin::Error naming the system's reason.
void write_stdout(const std::function<void(std::FILE*)>& body);

// Standard descriptors that are closed at start-up get a read-only /dev/null, so that no file
// opened later takes their number, and writes to a closed stdout still fail (EBADF) and are reported.
void guard_standard_descriptors();

}  // namespace vqtwin_cli
