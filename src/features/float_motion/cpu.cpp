// float_motion, CPU reference (behaviour: ../shared/spec/float_motion.md). The front (front.hpp)
// owns options, refusals, names and the emission schedule; this file is the CPU's blur and SAD.
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
#include "features/float_motion/front.hpp"
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
    float half_total = 0.0f;
    int dw = 0, dh = 0;
    if (half_) {
      half_->run(out, halves_[cur_].data());
      dw = half_->width();
      dh = half_->height();
      if (have_prev) half_total = sad_total(halves_[cur_].data(), halves_[cur_ ^ 1].data(), dw, dh);
    }
    return have_prev ? plane_score(total, blur_.width(), blur_.height(), half_.has_value(), half_total, dw, dh) : 0.0f;
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
  explicit FloatMotionCpu(const OptionValues& o) : front_(o) {}

  void init(const PictureFormat& f) override {
    front_.init(f);
    if (!front_.reads_pixels()) return;
    for (int p = 0; p < front_.planes(); ++p)
      planes_.emplace_back(front_.plane_width(p), front_.plane_height(p), front_.filter_size(), front_.add_scale1());
  }

  void extract(const Picture& ref, const Picture&, unsigned index, FeatureSink& out) override {
    double score = 0.0;
    if (front_.reads_pixels()) {
      // Planes scored in double: Y, then + U, then + V (libvmaf adds the float scores in double).
      const bool have_prev = index > 0;
      score = planes_[0].step(ref, 0, have_prev);
      for (std::size_t p = 1; p < planes_.size(); ++p) score += planes_[p].step(ref, int(p), have_prev);
    }
    front_.emit(index, score, out);
  }

  void flush(FeatureSink& out) override { front_.flush(out); }

 private:
  Front front_;
  std::vector<PlaneMotion> planes_;
};

}  // namespace
}  // namespace float_motion

extern const ExtractorInfo kFloatMotionInfo;
const ExtractorInfo kFloatMotionInfo = cpu_extractor<float_motion::FloatMotionCpu>(float_motion::kSpec);

}  // namespace vqtwin
