#pragma once
// float_motion's front: everything but the per-plane SAD totals. Options (parsed once), the refused
// formats, the output names with their option suffixes, each plane's score from its SAD totals, and
// libvmaf's emission schedule of motion / motion2 / motion3 from the frame scores (in frame order),
// with the last frame's values at flush. The CPU reference (cpu.cpp) and the CUDA twin (cuda.cu) both
// hand it each frame's score.
#include <string>

#include "core/extractor.hpp"
#include "core/format_checks.hpp"
#include "features/float_motion/math.hpp"
#include "features/float_motion/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::float_motion {

class Front {
 public:
  explicit Front(const OptionValues& o)
      : debug_(o.get_bool("debug")),
        force_zero_(o.get_bool("motion_force_zero")),
        add_scale1_(o.get_bool("motion_add_scale1")),
        add_uv_(o.get_bool("motion_add_uv")),
        filter_size_(o.get_int("motion_filter_size")),
        fps_weight_(o.get_double("motion_fps_weight")),
        blend_factor_(o.get_double("motion_blend_factor")),
        blend_offset_(o.get_double("motion_blend_offset")),
        max_val_(o.get_double("motion_max_val")),
        name_motion_(o.output_name(kMotion)),
        name_motion2_(o.output_name(kMotion2)),
        name_motion3_(o.output_name(kMotion3)) {}

  // Throws vqtwin::Error for pictures float_motion refuses (bit depth, 4:0:0 with motion_add_uv,
  // planes too small for the blur, motion_add_scale1 beyond libvmaf's width).
  void init(const PictureFormat& f) {
    require_standard_bitdepth("float_motion", f.bitdepth);
    if (add_uv_ && f.chroma == ChromaFormat::k400)
      throw Error("float_motion: motion_add_uv needs chroma planes; this input is 4:0:0");
    format_ = f;
    if (force_zero_) return;  // no pixel is ever read
    const int min_size = taps_read(filter_size_) / 2 + 1;
    // Chroma: the floor-sized region libvmaf's pictures hold (PictureFormat::scored_width).
    for (int p = 0; p < planes(); ++p) {
      const int w = f.scored_width(p), h = f.scored_height(p);
      if (w < min_size || h < min_size)
        throw Error("float_motion: a " + std::to_string(w) + "x" + std::to_string(h) + " plane is too small for its " +
                    std::to_string(taps_read(filter_size_)) + "-tap blur (at least " + std::to_string(min_size) +
                    " pixels each way)");
      // libvmaf's resampler keeps its column table on the stack, sized for 8K.
      if (add_scale1_ && half_size(w) > 7680)
        throw Error("float_motion: motion_add_scale1 supports planes up to 15360 pixels wide, not " + std::to_string(w));
    }
  }

  // With motion_force_zero no pixel is ever read (every score is 0).
  bool reads_pixels() const { return !force_zero_; }
  // Planes scored: Y, and U, V with motion_add_uv; each on its scored region (w x h below).
  int planes() const { return add_uv_ ? 3 : 1; }
  int plane_width(int p) const { return format_.scored_width(p); }
  int plane_height(int p) const { return format_.scored_height(p); }
  int filter_size() const { return filter_size_; }
  bool add_scale1() const { return add_scale1_; }

  // Frame `index`'s values (frames in order). `score`: the planes' scores against the previous frame
  // added in double (Y, then U, then V); read only for index > 0 without motion_force_zero.
  void emit(unsigned index, double score, FeatureSink& out) {
    if (force_zero_) {
      out.put(name_motion2_, index, 0.0);
      out.put(name_motion3_, index, 0.0);
      if (debug_) out.put(name_motion_, index, 0.0);
      return;
    }
    last_index_ = index;
    if (index == 0) {
      out.put(name_motion2_, index, 0.0);
      if (debug_) out.put(name_motion_, index, 0.0);
      return;
    }
    if (debug_) out.put(name_motion_, index, weighted(score, fps_weight_, max_val_));
    if (index == 1) {
      out.put(name_motion3_, 0, blended(score, fps_weight_, blend_factor_, blend_offset_, max_val_));
    } else {
      // Frame i-1's motion2: the smaller of its two neighbouring scores, S(i-2, i-1) and S(i-1, i).
      const double s2 = min_of(last_score_, score);
      out.put(name_motion2_, index - 1, weighted(s2, fps_weight_, max_val_));
      out.put(name_motion3_, index - 1, blended(s2, fps_weight_, blend_factor_, blend_offset_, max_val_));
    }
    last_score_ = score;
  }

  void flush(FeatureSink& out) {
    if (force_zero_) return;  // libvmaf removes flush with motion_force_zero
    if (last_index_ > 0) {
      // The last frame has no successor: its own score against the frame before.
      out.put(name_motion2_, last_index_, weighted(last_score_, fps_weight_, max_val_));
      out.put(name_motion3_, last_index_, blended(last_score_, fps_weight_, blend_factor_, blend_offset_, max_val_));
    } else {
      out.put(name_motion3_, 0, 0.0);
    }
  }

 private:
  bool debug_, force_zero_, add_scale1_, add_uv_;
  int filter_size_;
  double fps_weight_, blend_factor_, blend_offset_, max_val_;
  std::string name_motion_, name_motion2_, name_motion3_;
  PictureFormat format_{};
  unsigned last_index_ = 0;
  double last_score_ = 0;
};

}  // namespace vqtwin::float_motion
