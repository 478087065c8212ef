#pragma once
// One input read once for several readers: a bitrate ladder's reference, decoded (and converted)
// once and handed to every rendition's run. Each reader sees every frame of the input in order, as
// if it had opened the input alone; readers may be at different frames (their own --frame_skip_ref,
// --sync auto). The frames between the slowest and the fastest reader are kept, at most `window` of
// them: a reader that runs further ahead waits for the slowest. A reader that is destroyed (its run
// ended, failed or never started) no longer holds the others back.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "io/picture_source.hpp"

namespace vqtwin {

class SharedSource : public std::enable_shared_from_this<SharedSource> {
 public:
  // `inner` already delivers the pictures every reader wants (converted as asked).
  static std::shared_ptr<SharedSource> make(std::unique_ptr<PictureSource> inner, unsigned window);

  // A new reader, at the input's first frame. Add every reader before any of them reads: a reader
  // added later starts at the first frame still kept.
  std::unique_ptr<PictureSource> add_reader();

  // The frames kept at most (for tests and memory estimates).
  unsigned window() const { return window_; }
  // Frames read from the inner source so far (each exactly once).
  std::uint64_t frames_read() const;
  // The most frames kept at once so far.
  std::size_t peak_kept() const;

  // A window that keeps the buffered pictures under `budget_bytes` (at least 2 frames, at most 64).
  static unsigned window_for(const PictureFormat& format, unsigned wanted, std::size_t budget_bytes);

  SharedSource(std::unique_ptr<PictureSource> inner, unsigned window);

 private:
  class Reader;
  friend class Reader;

  // The picture of frame `k` (the reader's next), reading it from the inner source when no reader
  // has; nullptr at the end. Throws the inner source's error at the frame it failed on, to every
  // reader that reaches that frame.
  const Picture* frame(std::uint64_t k);
  // The reader at `cursor` moves on to `cursor + 1` (its frame may then be dropped).
  void advance(std::size_t reader);
  void detach(std::size_t reader);
  void drop_passed();  // mutex_ held

  std::unique_ptr<PictureSource> inner_;
  const unsigned window_;
  // Snapshots of the inner source's description (read while the inner source may be reading).
  PictureFormat format_;
  std::string path_;
  unsigned known_frames_ = 0, estimated_frames_ = 0;
  int color_range_ = -1;
  std::string kind_;        // for reports (PictureSource::kind)
  double frame_rate_ = 0;

  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::unique_ptr<Picture>> kept_;  // frames first_ .. first_ + kept_.size() - 1
  std::vector<std::unique_ptr<Picture>> spare_;
  std::uint64_t first_ = 0;
  std::vector<std::uint64_t> cursors_;  // each reader's next frame; kDetached once it is gone
  bool reading_ = false;                // a reader is reading the next frame (outside the mutex)
  bool ended_ = false;                  // the inner source ended after the kept frames
  std::string error_;                   // the inner source's error after the kept frames (vqtwin::Error)
  std::exception_ptr other_error_;      // ... any other exception
  std::uint64_t frames_read_ = 0;
  std::size_t peak_kept_ = 0;
};

}  // namespace vqtwin
