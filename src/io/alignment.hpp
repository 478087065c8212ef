#pragma once
// The alignment safety net: is the distorted clip shifted in time against the reference? Small luma
// images of the first frames are compared at offsets -3..+3 (cheap: a grid of block means, about 150
// rows). Used by the engine to warn by default, and by --sync auto to apply the offset found.
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "io/picture_source.hpp"
#include "vqtwin/picture.hpp"

namespace vqtwin {

inline constexpr int kSyncFrames = 8;     // frames of each input looked at
inline constexpr int kMaxSyncOffset = 3;  // offsets tried: -3..+3

// Luma block means on the 8-bit scale, blocks of about min(w, h) / 144 samples a side.
struct Thumbnail {
  int width = 0, height = 0;
  std::vector<float> values;
};
Thumbnail make_thumbnail(const Picture& pic);

struct ShiftEstimate {
  // Offset of matching pictures: distorted frame i + offset shows reference frame i. Positive: the
  // distorted has `offset` extra frames at its start (--frame_skip_dist offset); negative: the
  // reference has (--frame_skip_ref -offset). 0: aligned, or no clear answer.
  int offset = 0;
  double psnr_aligned = 0;  // mean-MSE luma PSNR of the thumbnails as given
  double psnr_offset = 0;   // ... at `offset`
};

// Offsets are scored by the mean MSE of their thumbnail pairs (at least 3 pairs each); an offset
// other than 0 is reported only when it beats 0 by more than 1 dB (static content, where every
// offset looks alike, stays silent).
ShiftEstimate estimate_shift(const std::vector<Thumbnail>& ref, const std::vector<Thumbnail>& dist);

// "--frame_skip_dist 2" / "--frame_skip_ref 1" for a non-zero offset.
std::string skip_option(int offset);
// "1 frame", "3 frames".
std::string frames_text(int n);
// The warning line for a shifted distorted clip; the fix it names accounts for the skips already given.
std::string describe_shift(const ShiftEstimate& e, const std::string& ref_path, const std::string& dist_path,
                           unsigned skip_ref, unsigned skip_dist);

// A source whose first frames were read ahead (for --sync auto): they are handed out (copied) first.
class ReplaySource final : public PictureSource {
 public:
  explicit ReplaySource(std::unique_ptr<PictureSource> inner) : inner_(std::move(inner)) {}
  // Reads up to `n` frames ahead; returns the frames now buffered.
  const std::deque<Picture>& read_ahead(int n);
  // Drops the first buffered frame (or skips one of the inner source); false at the end.
  bool skip() override;
  bool read(Picture& pic) override;
  // Frames read ahead come from the host; the later ones as the inner source reads them.
  bool read_to(Picture& pic, DeviceFrameTarget* on_device) override {
    return buffered_.empty() ? inner_->read_to(pic, on_device) : read(pic);
  }
  std::string decoder() const override { return inner_->decoder(); }
  std::string decode_refusal() const override { return inner_->decode_refusal(); }
  std::string decode_switch() const override { return inner_->decode_switch(); }
  // Once the frames read ahead are handed out, the inner source's frames are claimed as it allows.
  std::optional<FrameClaim> claim() override {
    if (!buffered_.empty()) return std::nullopt;
    return inner_->claim();
  }
  void read_claimed(const FrameClaim& c, Picture& pic) const override { inner_->read_claimed(c, pic); }
  const PictureFormat& format() const override { return inner_->format(); }
  const std::string& path() const override { return inner_->path(); }
  unsigned known_frames() const override { return inner_->known_frames(); }
  unsigned estimated_frames() const override { return inner_->estimated_frames(); }
  std::string kind() const override { return inner_->kind(); }
  double frame_rate() const override { return inner_->frame_rate(); }

 private:
  std::unique_ptr<PictureSource> inner_;
  std::deque<Picture> buffered_;
};

}  // namespace vqtwin
