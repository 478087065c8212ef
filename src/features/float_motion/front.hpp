#pragma once
// float_motion's front: everything but the blur and SAD. Parameters (parsed once), output names
// (with their option suffixes), the refusals, and the temporal schedule of libvmaf's extract/flush
// (spec float_motion.md §4): what is written for which frame, in which order, with the fps weight,
// the blend and the clip applied on the host in double. The CPU reference and the CUDA twin both
// hand it each frame's score S(i-1, i) in frame order; one implementation of the schedule.
#include <span>
#include <string>
#include <vector>

#include "core/extractor.hpp"
#include "core/format_checks.hpp"
#include "features/float_motion/math.hpp"
#include "features/float_motion/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::float_motion {

struct Params {
  bool debug, force_zero, add_scale1, add_uv;
  int filter_size;
  double fps_weight, blend_factor, blend_offset, max_val;
  static Params from(const OptionValues& o) {
    return {o.get_bool("debug"),
            o.get_bool("motion_force_zero"),
            o.get_bool("motion_add_scale1"),
            o.get_bool("motion_add_uv"),
            o.get_int("motion_filter_size"),
            o.get_double("motion_fps_weight"),
            o.get_double("motion_blend_factor"),
            o.get_double("motion_blend_offset"),
            o.get_double("motion_max_val")};
  }
};

// One plane's score from its SAD totals (math.hpp: the float mean), plus the half-size planes' with
// motion_add_scale1 (an fp32 sum, as libvmaf returns it from a float function).
inline float plane_score(float total, int w, int h, bool add_scale1, float half_total, int dw, int dh) {
  const float score = sad_mean(total, w, h);
  return add_scale1 ? score + sad_mean(half_total, dw, dh) : score;
}

// What a twin of any backend blurs and scores for one plane: the scored region, its half-size plane with
// motion_add_scale1 (0x0 without), and how libvmaf's resampler reads it. A twin's own plane record
// derives from this and adds its buffers.
struct TwinPlane {
  int w = 0, h = 0, dw = 0, dh = 0;
  ResampleView view;
};

class Front {
 public:
  explicit Front(const OptionValues& o) : Front(o, Params::from(o)) {}
  // `p` as parsed from `o` (a twin's planted bug may alter it; the names always come from `o`).
  Front(const OptionValues& o, const Params& p)
      : p_(p),
        name_motion_(o.output_name(kMotion)),
        name_motion2_(o.output_name(kMotion2)),
        name_motion3_(o.output_name(kMotion3)) {}

  // Throws, with the CPU reference's wording, for what it refuses.
  void init(const PictureFormat& f) {
    require_standard_bitdepth("float_motion", f.bitdepth);
    if (p_.add_uv && f.chroma == ChromaFormat::k400)
      throw Error("float_motion: motion_add_uv needs chroma planes; this input is 4:0:0");
    planes_ = p_.add_uv ? 3 : 1;
    if (p_.force_zero) return;  // no pixel is ever read
    const int min_size = taps_read(p_.filter_size) / 2 + 1;
    for (int p = 0; p < planes_; ++p) {
      const int w = plane_width(f, p), h = plane_height(f, p);
      if (w < min_size || h < min_size)
        throw Error("float_motion: a " + std::to_string(w) + "x" + std::to_string(h) + " plane is too small for its " +
                    std::to_string(taps_read(p_.filter_size)) + "-tap blur (at least " + std::to_string(min_size) +
                    " pixels each way)");
      // libvmaf's resampler keeps its column table on the stack, sized for 8K.
      if (p_.add_scale1 && half_size(w) > 7680)
        throw Error("float_motion: motion_add_scale1 supports planes up to 15360 pixels wide, not " + std::to_string(w));
    }
  }

  // The region of plane p that is scored: chroma is the floor-sized region libvmaf's pictures hold
  // (PictureFormat::scored_width), not the stored ceil-sized plane.
  static int plane_width(const PictureFormat& f, int p) { return f.scored_width(p); }
  static int plane_height(const PictureFormat& f, int p) { return f.scored_height(p); }

  // How libvmaf's half-size resampler reads plane p with motion_add_scale1 (math.hpp: ResampleView):
  // written at the luma plane's row stride, read at the plane's own.
  static ResampleView resample_view(const PictureFormat& f, int p) {
    return {libvmaf_float_stride(plane_width(f, 0)), libvmaf_float_stride(plane_width(f, p))};
  }

  // The planes a twin computes (after init), in score order; its staged results per frame are each
  // plane's full-size SAD total, then with motion_add_scale1 its half-size one (results_per_plane()).
  std::vector<TwinPlane> twin_planes(const PictureFormat& f) const {
    std::vector<TwinPlane> v;
    for (int p = 0; p < planes_; ++p) {
      TwinPlane t;
      t.w = plane_width(f, p);
      t.h = plane_height(f, p);
      t.view = resample_view(f, p);
      if (p_.add_scale1) t.dw = half_size(t.w), t.dh = half_size(t.h);
      v.push_back(t);
    }
    return v;
  }
  int results_per_plane() const { return p_.add_scale1 ? 2 : 1; }

  // A frame's score from a twin's staged totals (laid out as twin_planes says; empty for frame 0: 0):
  // each plane's float score, the planes added in double, Y then + U then + V, as libvmaf adds them.
  template <class Planes>
  double twin_score(const Planes& planes, std::span<const float> totals) const {
    double score = 0;
    if (totals.empty()) return score;
    const int per_plane = results_per_plane();
    for (int i = 0; i < planes_; ++i) {
      const TwinPlane& pl = planes[std::size_t(i)];
      const float* t = totals.data() + per_plane * i;
      const float plane = plane_score(t[0], pl.w, pl.h, p_.add_scale1, p_.add_scale1 ? t[1] : 0.0f, pl.dw, pl.dh);
      score = i == 0 ? double(plane) : score + plane;
    }
    return score;
  }

  const Params& params() const { return p_; }
  // The planes whose scores make a frame's score (Y, or Y, U, V with motion_add_uv).
  int planes() const { return planes_; }
  // Whether frames must be blurred at all (not with motion_force_zero).
  bool computes() const { return !p_.force_zero; }

  // Frame `index`'s outputs (frames in order, from 0). `score` is S(index-1, index): the planes'
  // float scores added in double, Y then U then V (0 for frame 0); not read with motion_force_zero.
  void emit(unsigned index, double score, FeatureSink& out) {
    if (p_.force_zero) {
      out.put(name_motion2_, index, 0.0);
      out.put(name_motion3_, index, 0.0);
      if (p_.debug) out.put(name_motion_, index, 0.0);
      return;
    }
    emit_scores(index, score, out);
  }

  // The schedule without motion_force_zero (emit's work; public for a twin's planted bug).
  void emit_scores(unsigned index, double score, FeatureSink& out) {
    last_index_ = index;
    if (index == 0) {
      out.put(name_motion2_, index, 0.0);
      if (p_.debug) out.put(name_motion_, index, 0.0);
      return;
    }
    if (p_.debug) out.put(name_motion_, index, weighted(score, p_.fps_weight, p_.max_val));
    if (index == 1) {
      out.put(name_motion3_, 0, blended(score, p_.fps_weight, p_.blend_factor, p_.blend_offset, p_.max_val));
    } else {
      // Frame i-1's motion2: the smaller of its two neighbouring scores, S(i-2, i-1) and S(i-1, i).
      const double s2 = min_of(last_score_, score);
      out.put(name_motion2_, index - 1, weighted(s2, p_.fps_weight, p_.max_val));
      out.put(name_motion3_, index - 1, blended(s2, p_.fps_weight, p_.blend_factor, p_.blend_offset, p_.max_val));
    }
    last_score_ = score;
  }

  void flush(FeatureSink& out) {
    if (p_.force_zero) return;  // libvmaf removes flush with motion_force_zero
    if (last_index_ > 0) {
      // The last frame has no successor: its own score against the frame before.
      out.put(name_motion2_, last_index_, weighted(last_score_, p_.fps_weight, p_.max_val));
      out.put(name_motion3_, last_index_,
              blended(last_score_, p_.fps_weight, p_.blend_factor, p_.blend_offset, p_.max_val));
    } else {
      out.put(name_motion3_, 0, 0.0);
    }
  }

 private:
  Params p_;
  std::string name_motion_, name_motion2_, name_motion3_;
  int planes_ = 1;
  unsigned last_index_ = 0;
  double last_score_ = 0;
};

}  // namespace vqtwin::float_motion
