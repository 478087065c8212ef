// float_motion, CPU reference (spec: float_motion.md).
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
#include "common/big_buffer.hpp"
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
  PlaneMotion(int w, int h, int filter_size, bool add_scale1, ResampleView view)
      : blur_(w, h, filter_size), planes_{BigBuffer<float>(std::size_t(w) * h), BigBuffer<float>(std::size_t(w) * h)},
        view_(view) {
    if (add_scale1) {
      half_.emplace(w, h);
      if (!view_.identity()) view_input_ = BigBuffer<float>(std::size_t(w) * h);
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
    if (half_) {
      half_->run(resample_input(out), halves_[cur_].data());
      if (have_prev)
        half_total = sad_total(halves_[cur_].data(), halves_[cur_ ^ 1].data(), half_->width(), half_->height());
    }
    if (!have_prev) return 0.0f;
    return plane_score(total, blur_.width(), blur_.height(), bool(half_), half_total, half_ ? half_->width() : 0,
                       half_ ? half_->height() : 0);
  }

 private:
  // The plane as libvmaf's resampler reads it (math.hpp: resample_input_at): the blur itself, or for
  // chroma stored at luma's row stride, the floats at the resampler's shorter stride.
  const float* resample_input(const float* blur) {
    if (view_.identity()) return blur;
    const int w = blur_.width(), h = blur_.height();
    float* dst = view_input_.data();
    for (int r = 0; r < h; ++r)
      for (int c = 0; c < w; ++c) dst[std::size_t(r) * w + c] = resample_input_at(blur, w, view_, r, c);
    return dst;
  }

  PlaneBlur blur_;
  BigBuffer<float> planes_[2];  // written in full before they are read
  ResampleView view_;
  BigBuffer<float> view_input_;  // resample_input's plane, when the strides differ
  std::optional<HalfResampler> half_;
  BigBuffer<float> halves_[2];
  int cur_ = 1;
};

class FloatMotionCpu final : public Extractor {
 public:
  explicit FloatMotionCpu(const OptionValues& o) : front_(o) {}

  void init(const PictureFormat& f) override {
    front_.init(f);
    if (!front_.computes()) return;
    const Params& p = front_.params();
    for (int i = 0; i < front_.planes(); ++i)
      planes_.emplace_back(front_.plane_width(f, i), front_.plane_height(f, i), p.filter_size, p.add_scale1,
                           Front::resample_view(f, i));
  }

  void extract(const Picture& ref, const Picture&, unsigned index, FeatureSink& out) override {
    double score = 0;
    if (front_.computes()) {
      const bool have_prev = index > 0;
      // Planes scored in double: Y, then + U, then + V (libvmaf adds the float scores in double).
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
