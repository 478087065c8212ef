#pragma once
// integer motion's front: everything but the SAD of two luma planes. Parameters (parsed once), the
// refused formats, the output names, the temporal schedule (frame i is compared with frame i - lag),
// the per-frame score from the SAD and motion2/motion3 at flush. The CPU reference and the CUDA twin
// both hand it the exact integer SAD of each frame that has one; one implementation of the host math.
#include <cstdint>
#include <string>
#include <vector>

#include "core/extractor.hpp"
#include "features/integer_motion/math.hpp"
#include "features/integer_motion/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::integer_motion {

struct Params {
  bool force_zero = false;
  bool debug = false;
  double fps_weight = 1.0;
  Schedule schedule;

  static Params from(const OptionValues& o) {
    Params p;
    p.force_zero = o.get_bool("motion_force_zero");
    p.debug = o.get_bool("debug");
    p.fps_weight = o.get_double("motion_fps_weight");
    p.schedule.blend_factor = o.get_double("motion_blend_factor");
    p.schedule.blend_offset = o.get_double("motion_blend_offset");
    p.schedule.max_val = o.get_double("motion_max_val");
    p.schedule.five_frame_window = o.get_bool("motion_five_frame_window");
    p.schedule.moving_average = o.get_bool("motion_moving_average");
    return p;
  }
};

class Front {
 public:
  explicit Front(const OptionValues& o)
      : params_(Params::from(o)),
        name_sad_(o.output_name(kSad)),
        name_motion_(o.output_name(kMotion)),
        name_motion2_(o.output_name(kMotion2)),
        name_motion3_(o.output_name(kMotion3)) {}

  void init(const PictureFormat& f) {
    if (f.bitdepth < 8 || f.bitdepth > 16)
      throw Error("motion: bit depth " + std::to_string(f.bitdepth) + " is not supported (8 to 16)");
    // The 5-tap mirror needs three samples each way (DECISIONS.md §11).
    if (f.width < 3 || f.height < 3)
      throw Error("motion: a " + std::to_string(f.width) + "x" + std::to_string(f.height) +
                  " luma plane is too small (at least 3x3)");
    format_ = f;
  }

  int width() const { return format_.width; }
  int height() const { return format_.height; }
  int bitdepth() const { return format_.bitdepth; }
  int bytes_per_sample() const { return format_.bytes_per_sample(); }

  // With motion_force_zero no pixel is ever read (every score is 0).
  bool reads_pixels() const { return !params_.force_zero; }
  // Frame i is compared with frame i - lag (2 with the five-frame window); frames before have no SAD.
  unsigned lag() const { return params_.schedule.five_frame_window ? 2 : 1; }
  bool needs_sad(unsigned index) const { return reads_pixels() && index >= lag(); }

  // Frame `index`'s values (frames in order); `sad` is read only when needs_sad(index).
  void emit(unsigned index, std::uint64_t sad, FeatureSink& out) {
    const double score =
        needs_sad(index) ? frame_score(sad, unsigned(width()), unsigned(height()), params_.fps_weight,
                                       params_.schedule.max_val)
                         : 0.0;
    if (scores_.size() <= index) scores_.resize(index + 1, 0.0);
    scores_[index] = score;
    out.put(name_sad_, index, score);
    if (params_.debug) out.put(name_motion_, index, score);
  }

  // motion2 and motion3 of every frame, from the stored scores.
  void flush(FeatureSink& out) const {
    std::vector<double> motion2, motion3;
    motion23(scores_, params_.schedule, motion2, motion3);
    for (std::size_t i = 0; i < scores_.size(); ++i) {
      out.put(name_motion2_, unsigned(i), motion2[i]);
      out.put(name_motion3_, unsigned(i), motion3[i]);
    }
  }

 private:
  Params params_;
  std::string name_sad_, name_motion_, name_motion2_, name_motion3_;
  PictureFormat format_{};
  std::vector<double> scores_;  // the per-frame scores, for flush
};

}  // namespace vqtwin::integer_motion
