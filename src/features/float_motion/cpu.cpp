// float_motion, CPU reference (behaviour: ../shared/spec/float_motion.md).
//
// Temporal: the engine calls extract() once per frame, in frame order. Frame i's blur is computed
// once; the SAD of frames (i-1, i) is fused with it. libvmaf computes the SAD of (i-2, i-1) a second
// time at frame i; SAD is symmetric bit for bit (|a - b| == |b - a| in IEEE arithmetic, and the
// half-size resampler works on each frame alone), so the previous frame's score is reused.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "core/format_checks.hpp"
#include "features/float_motion/big_buffer.hpp"
#include "features/float_motion/blur.hpp"
#include "features/float_motion/math.hpp"
#include "features/float_motion/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace float_motion {
namespace {

// One plane's blur history: the current and previous frame's blur (and their half-size versions
// with motion_add_scale1).
class PlaneMotion {
 public:
  PlaneMotion(int w, int h, int filter_size, bool add_scale1)
      : blur_(w, h, filter_size), planes_{BigBuffer<float>(std::size_t(w) * h), BigBuffer<float>(std::size_t(w) * h)} {
    if (add_scale1) {
      half_.emplace(w, h);
      const std::size_t n = std::size_t(half_->width()) * half_->height();
      halves_[0] = BigBuffer<float>(n);
      halves_[1] = BigBuffer<float>(n);
    }
  }

  // Blurs this frame's plane; returns the plane's score against the previous frame (a float,
  // carried as double), or 0 for the first frame.
  float step(const Picture& pic, int p, bool have_prev) {
    cur_ ^= 1;
    float* out = planes_[cur_].data();
    const float* prev = have_prev ? planes_[cur_ ^ 1].data() : nullptr;
    const float total = blur_.run(pic, p, out, prev);
    float score = sad_mean(total, blur_.width(), blur_.height());
    if (half_) {
      half_->run(out, halves_[cur_].data());
      if (have_prev) {
        const int dw = half_->width(), dh = half_->height();
        const float half_score = sad_mean(sad_total(halves_[cur_].data(), halves_[cur_ ^ 1].data(), dw, dh), dw, dh);
        score = score + half_score;  // fp32 sum, as libvmaf returns it from a float function
      }
    }
    return have_prev ? score : 0.0f;
  }

 private:
  PlaneBlur blur_;
  BigBuffer<float> planes_[2];  // written in full before they are read
  std::optional<HalfResampler> half_;
  BigBuffer<float> halves_[2];
  int cur_ = 1;
};

class FloatMotionCpu final : public Extractor {
 public:
  explicit FloatMotionCpu(const OptionValues& o)
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

  void init(const PictureFormat& f) override {
    require_standard_bitdepth("float_motion", f.bitdepth);
    if (add_uv_ && f.chroma == ChromaFormat::k400)
      throw Error("float_motion: motion_add_uv needs chroma planes; this input is 4:0:0");
    if (force_zero_) return;  // no pixel is ever read
    const int min_size = taps_read(filter_size_) / 2 + 1;
    const int planes = add_uv_ ? 3 : 1;
    // Chroma: the floor-sized region libvmaf's pictures hold (PictureFormat::scored_width).
    for (int p = 0; p < planes; ++p) {
      const int w = f.scored_width(p), h = f.scored_height(p);
      if (w < min_size || h < min_size)
        throw Error("float_motion: a " + std::to_string(w) + "x" + std::to_string(h) + " plane is too small for its " +
                    std::to_string(taps_read(filter_size_)) + "-tap blur (at least " + std::to_string(min_size) +
                    " pixels each way)");
      // libvmaf's resampler keeps its column table on the stack, sized for 8K.
      if (add_scale1_ && half_size(w) > 7680)
        throw Error("float_motion: motion_add_scale1 supports planes up to 15360 pixels wide, not " + std::to_string(w));
    }
    for (int p = 0; p < planes; ++p) planes_.emplace_back(f.scored_width(p), f.scored_height(p), filter_size_, add_scale1_);
  }

  void extract(const Picture& ref, const Picture&, unsigned index, FeatureSink& out) override {
    if (force_zero_) {
      out.put(name_motion2_, index, 0.0);
      out.put(name_motion3_, index, 0.0);
      if (debug_) out.put(name_motion_, index, 0.0);
      return;
    }
    const bool have_prev = index > 0;
    // Planes scored in double: Y, then + U, then + V (libvmaf adds the float scores in double).
    double score = planes_[0].step(ref, 0, have_prev);
    for (std::size_t p = 1; p < planes_.size(); ++p) score += planes_[p].step(ref, int(p), have_prev);

    last_index_ = index;
    if (!have_prev) {
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

  void flush(FeatureSink& out) override {
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
  std::vector<PlaneMotion> planes_;
  unsigned last_index_ = 0;
  double last_score_ = 0;
};

}  // namespace
}  // namespace float_motion

extern const ExtractorInfo kFloatMotionInfo;
const ExtractorInfo kFloatMotionInfo = cpu_extractor<float_motion::FloatMotionCpu>(float_motion::kSpec);

}  // namespace vqtwin
