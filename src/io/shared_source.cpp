#include "io/shared_source.hpp"

#include <algorithm>
#include <limits>

#include "io/convert.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace {
constexpr std::uint64_t kDetached = std::numeric_limits<std::uint64_t>::max();
}  // namespace

class SharedSource::Reader final : public PictureSource {
 public:
  Reader(std::shared_ptr<SharedSource> shared, std::size_t id) : shared_(std::move(shared)), id_(id) {}
  ~Reader() override { shared_->detach(id_); }

  const PictureFormat& format() const override { return shared_->format_; }
  bool read(Picture& pic) override {
    const Picture* frame = shared_->frame(next_);
    if (!frame) return false;
    // The frame stays kept until this reader advances: copied outside the lock.
    copy_planes(PlaneView::of(*frame), shared_->format_, pic);
    ++next_;
    shared_->advance(id_);
    return true;
  }
  // Frames are always read from the inner source (another reader may want the frame this one skips).
  bool skip() override {
    if (!shared_->frame(next_)) return false;
    ++next_;
    shared_->advance(id_);
    return true;
  }
  const std::string& path() const override { return shared_->path_; }
  unsigned known_frames() const override { return shared_->known_frames_; }
  unsigned estimated_frames() const override { return shared_->estimated_frames_; }
  int color_range() const override { return shared_->color_range_; }
  std::string kind() const override { return shared_->kind_; }
  double frame_rate() const override { return shared_->frame_rate_; }

 private:
  std::shared_ptr<SharedSource> shared_;
  std::size_t id_;
  std::uint64_t next_ = 0;
};

std::shared_ptr<SharedSource> SharedSource::make(std::unique_ptr<PictureSource> inner, unsigned window) {
  return std::make_shared<SharedSource>(std::move(inner), window);
}

SharedSource::SharedSource(std::unique_ptr<PictureSource> inner, unsigned window)
    : inner_(std::move(inner)),
      window_(std::max(1u, window)),
      format_(inner_->format()),
      path_(inner_->path()),
      known_frames_(inner_->known_frames()),
      estimated_frames_(inner_->estimated_frames()),
      color_range_(inner_->color_range()),
      kind_(inner_->kind()),
      frame_rate_(inner_->frame_rate()) {}

unsigned SharedSource::window_for(const PictureFormat& format, unsigned wanted, std::size_t budget_bytes) {
  const std::size_t per = std::max<std::size_t>(1, Picture::storage_bytes(format));
  const std::size_t fits = budget_bytes / per;
  return unsigned(std::clamp<std::size_t>(std::min<std::size_t>(wanted, fits), 2, 64));
}

std::unique_ptr<PictureSource> SharedSource::add_reader() {
  std::lock_guard lock(mutex_);
  cursors_.push_back(first_);
  auto reader = std::make_unique<Reader>(shared_from_this(), cursors_.size() - 1);
  return reader;
}

std::uint64_t SharedSource::frames_read() const {
  std::lock_guard lock(mutex_);
  return frames_read_;
}

std::size_t SharedSource::peak_kept() const {
  std::lock_guard lock(mutex_);
  return peak_kept_;
}

const Picture* SharedSource::frame(std::uint64_t k) {
  std::unique_lock lock(mutex_);
  for (;;) {
    if (k < first_) throw Error(path_ + ": internal error: a shared frame was dropped before every reader had it");
    if (k < first_ + kept_.size()) return kept_[std::size_t(k - first_)].get();
    // k is the next frame of the input (a reader asks for its frames in order).
    if (!error_.empty()) throw Error(error_);
    if (other_error_) std::rethrow_exception(other_error_);
    if (ended_) return nullptr;
    // Another reader is reading it, or this reader is `window_` frames ahead of the slowest.
    if (reading_ || kept_.size() >= window_) {
      cv_.wait(lock);
      continue;
    }
    reading_ = true;
    std::unique_ptr<Picture> pic;
    if (!spare_.empty()) {
      pic = std::move(spare_.back());
      spare_.pop_back();
    }
    lock.unlock();
    bool got = false;
    std::string error;
    std::exception_ptr other;
    try {
      if (!pic) pic = std::make_unique<Picture>(format_);
      got = inner_->read(*pic);
    } catch (const Error& e) {
      error = e.what();
    } catch (...) {
      other = std::current_exception();
    }
    lock.lock();
    reading_ = false;
    if (!error.empty()) error_ = error;
    else if (other) other_error_ = other;
    else if (!got) ended_ = true;
    else {
      ++frames_read_;
      kept_.push_back(std::move(pic));
      peak_kept_ = std::max(peak_kept_, kept_.size());
    }
    if (pic) spare_.push_back(std::move(pic));
    cv_.notify_all();
  }
}

void SharedSource::advance(std::size_t reader) {
  std::lock_guard lock(mutex_);
  ++cursors_[reader];
  drop_passed();
}

void SharedSource::detach(std::size_t reader) {
  std::lock_guard lock(mutex_);
  cursors_[reader] = kDetached;
  drop_passed();
}

void SharedSource::drop_passed() {
  std::uint64_t slowest = kDetached;
  for (const std::uint64_t c : cursors_) slowest = std::min(slowest, c);
  bool dropped = false;
  while (!kept_.empty() && first_ < slowest) {
    spare_.push_back(std::move(kept_.front()));
    kept_.pop_front();
    ++first_;
    dropped = true;
  }
  // Pictures beyond what the window can hold again are freed.
  while (spare_.size() > 2) spare_.pop_back();
  if (dropped) cv_.notify_all();
}

}  // namespace vqtwin
