#pragma once
// Buffered reading of one input on its file descriptor. Bytes can be looked at before they are
// consumed (so probing a pipe for the y4m magic loses nothing), large reads go straight into the
// caller's memory, and a read that waits on a pipe gives up when a stop is requested (a signal).
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace vqtwin {

class ByteStream {
 public:
  // `name` (already printable) names the input in messages; the descriptor is closed at the end
  // when `owned`. Throws vqtwin::Error when `fd` is a folder.
  ByteStream(int fd, bool owned, std::string name, const std::atomic<bool>* stop);
  ~ByteStream();
  ByteStream(const ByteStream&) = delete;
  ByteStream& operator=(const ByteStream&) = delete;

  const std::string& name() const { return name_; }
  // Up to n bytes into dst; fewer only at the end of the input. Throws vqtwin::Error on a read error
  // or when a stop was requested while waiting for a pipe.
  std::size_t read(void* dst, std::size_t n);
  // The next byte, or -1 at the end.
  int get();
  // Up to n (<= 64 KiB) bytes ahead, not consumed; fewer only at the end.
  std::string_view peek(std::size_t n);
  // Drops up to n bytes (a seek in a regular file); returns how many were there.
  std::uint64_t discard(std::uint64_t n);
  // A regular file (its size is known), as opposed to a pipe, terminal or device.
  bool regular() const { return regular_; }
  // Bytes not yet consumed, for a regular file (0 for others).
  std::uint64_t remaining() const;
  // Regular files, for demuxers that seek (an mp4 index at the end): offsets count from where the
  // stream started (standard input may start mid-file). size_from_start() is 0 for other kinds, and
  // seek_from_start() false (nothing moved).
  std::uint64_t size_from_start() const { return regular_ ? size_ - start_ : 0; }
  std::uint64_t position() const { return offset_ - (end_ - pos_) - start_; }
  bool seek_from_start(std::uint64_t offset);
  // Positional reads of a regular file (offsets from the start, as above), for frames read in
  // parallel: they neither use nor move the stream's position, so any number of threads may call
  // them at once. Fills the `count` buffers in turn; fewer bytes than asked only at the end of the
  // file. Throws vqtwin::Error on a read error.
  struct Span {
    void* data;
    std::size_t bytes;
  };
  std::uint64_t read_at(const Span* spans, std::size_t count, std::uint64_t offset) const;

 private:
  std::size_t read_fd(void* dst, std::size_t n);
  void wait_readable();

  int fd_;
  bool owned_;
  std::string name_;
  const std::atomic<bool>* stop_;
  std::vector<unsigned char> buf_;
  std::size_t pos_ = 0, end_ = 0;  // unconsumed bytes: buf_[pos_, end_)
  bool regular_ = false;
  std::uint64_t size_ = 0;    // regular files
  std::uint64_t offset_ = 0;  // file offset of buf_[end_]
  std::uint64_t start_ = 0;   // file offset where the stream started
};

}  // namespace vqtwin
