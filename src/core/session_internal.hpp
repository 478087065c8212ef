#pragma once
// What the file runner (core/engine.cpp) needs of the session beyond the public API: the checks it makes
// before it opens any input (so a bad --feature is reported first, as the CLI always did), and a way to
// have the session's own workers read the frames (regular y4m/raw files are read in parallel, each
// worker reading the frame it then computes, straight into its slot's pictures).
#include <exception>
#include <optional>
#include <string>

#include "backends/device.hpp"
#include "dispatch/dispatch.hpp"
#include "vqtwin/picture.hpp"
#include "vqtwin/session.hpp"

namespace vqtwin {

// The context a "--feature" text asks for; throws vqtwin::Error for an unknown feature or option.
ContextRequest request_from_text(const std::string& text);
void check_feature_text(const std::string& text);

// Frame `index` could not be read (thrown by FrameFeeder::next): the frames before it are kept, it and
// any later frame computed meanwhile are dropped, and `error` is the session's failure (the earliest
// frame's, when several fail).
struct FeedError {
  unsigned index = 0;
  std::exception_ptr error;
};

// A source of frames the session's workers call, each for the slot it then computes. Called from several
// workers at once: the feeder serialises what must be (frames are numbered 0, 1, 2, ... in the order it
// takes them, as read() order of the inputs).
class FrameFeeder {
 public:
  virtual ~FrameFeeder() = default;
  // Fills `ref` and `dist` (pictures of the session's format) with the next frame; returns its index, or
  // nothing when there are no more (an input ended, --frame_cnt, a stop). Throws FeedError. `slot`:
  // the device slot the pictures belong to (null for host pictures), whose device_target()s may take
  // frames decoded on its device instead.
  virtual std::optional<unsigned> next(Picture& ref, Picture& dist, FrameSlot* slot) = 0;
  // The frames it expects to give (0: unknown, e.g. a pipe); --backend auto's scheduling uses it.
  virtual unsigned frames_expected() const { return 0; }
};

// Computes every frame `feeder` gives on the session's workers, until it has no more or a frame failed;
// returns when every frame taken is done. Then finish() as after push(). Not mixed with push().
void feed_session(Session& session, FrameFeeder& feeder);

}  // namespace vqtwin
