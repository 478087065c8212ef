#pragma once
// An input file as the readers hold it: standard input ("-") or a file opened for reading.
#include <cstdio>
#include <memory>
#include <string>

namespace vqtwin {

struct FileCloser {
  void operator()(std::FILE* f) const {
    if (f && f != stdin) std::fclose(f);
  }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

// Opens `path` for reading ("-" = standard input); throws vqtwin::Error naming the file.
File open_file(const std::string& path);

// The size of `f` if it is a regular file, else -1 (a pipe, a terminal, a device).
long long regular_file_size(std::FILE* f);

}  // namespace vqtwin
