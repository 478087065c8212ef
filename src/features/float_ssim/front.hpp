#pragma once
// float_ssim's front: everything but the SSIM map. Parameters (parsed once), the scale and the plane
// the SSIM runs on, the refusals, the means -> dB step and the emission of float_ssim and its l, c, s
// in libvmaf's order. The CPU reference and the CUDA twin both hand it the four means; one
// implementation of the host arithmetic.
#include <cerrno>
#include <string>

#include "core/extractor.hpp"
#include "core/format_checks.hpp"
#include "features/float_ssim/math.hpp"
#include "features/float_ssim/schema.hpp"
#include "features/ssim_common/db.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::float_ssim {

struct Params {
  bool enable_lcs, enable_db, clip_db;
  int scale_option;  // 0 = auto
  static Params from(const OptionValues& o) {
    return {o.get_bool("enable_lcs"), o.get_bool("enable_db"), o.get_bool("clip_db"), o.get_int("scale")};
  }
};

// The plane the SSIM map is computed on: the picture's luma, decimated by `scale` when it is above 1.
struct Geometry {
  int scale = 1;
  int plane_w = 0, plane_h = 0;  // SSIM input size (decimated size when scale > 1)
  int map_w() const { return plane_w - (kWindow - 1); }
  int map_h() const { return plane_h - (kWindow - 1); }
  // What the CPU reference computes correctly (DECISIONS.md 8): a window-sized plane, a scale whose
  // double decimation sum is exact.
  bool computable() const { return scale <= kMaxScale && plane_w >= kWindow && plane_h >= kWindow; }
};

inline Geometry geometry_of(int scale_option, int width, int height) {
  Geometry g;
  g.scale = scale_option > 0 ? scale_option : auto_scale(width, height);
  if (g.scale > kMaxScale) return g;  // not computable; no plane size
  g.plane_w = g.scale > 1 ? decimated_size(width, g.scale) : width;
  g.plane_h = g.scale > 1 ? decimated_size(height, g.scale) : height;
  return g;
}

class Front {
 public:
  explicit Front(const OptionValues& o) : params_(Params::from(o)) {}

  // Throws, with the CPU reference's wording, for what it refuses.
  void init(const PictureFormat& f) {
    require_standard_bitdepth("float_ssim", f.bitdepth);
    geometry_ = geometry_of(params_.scale_option, f.width, f.height);
    if (geometry_.scale > kMaxScale)
      throw Error("float_ssim: scale " + std::to_string(geometry_.scale) + " is above the supported " +
                  std::to_string(kMaxScale));
    // libvmaf does not guard this: the map would be empty and the means NaN (DECISIONS.md 8).
    if (!geometry_.computable())
      throw Error("float_ssim: " + std::to_string(f.width) + "x" + std::to_string(f.height) + " at scale " +
                  std::to_string(geometry_.scale) + " gives a " + std::to_string(geometry_.plane_w) + "x" +
                  std::to_string(geometry_.plane_h) + " plane, smaller than the 11x11 SSIM window");
    max_db_ = ssim_db::max_db(unsigned(f.bitdepth), unsigned(f.width), unsigned(f.height), params_.clip_db);
  }

  const Geometry& geometry() const { return geometry_; }
  bool enable_lcs() const { return params_.enable_lcs; }

  // One frame's outputs from its four means (float, as libvmaf rounds them). Thread-safe.
  void emit(const Means& m, unsigned index, FeatureSink& out) const {
    emit_values(double(m.lcs), double(m.l), double(m.c), double(m.s), index, out);
  }
  // The same from values already widened to double (the twin harness plants a double mean here).
  void emit_values(double lcs, double l, double c, double s, unsigned index, FeatureSink& out) const {
    out.put(kScoreName, index, params_.enable_db ? ssim_db::to_db(lcs, max_db_) : lcs);
    if (params_.enable_lcs) {
      out.put(kLName, index, l);
      out.put(kCName, index, c);
      out.put(kSName, index, s);
    }
  }

 private:
  Params params_;
  Geometry geometry_;
  double max_db_ = 0;
};

// The CUDA twin's first-picture check: it decimates on the device at every scale the CPU serves, so
// it declines (-ENOTSUP: a model context then runs the CPU extractor, which refuses with its error)
// exactly what the CPU reference refuses for its geometry, and serves everything else.
inline int device_check(const OptionValues& o, const PictureFormat& f) {
  return geometry_of(Params::from(o).scale_option, f.width, f.height).computable() ? 0 : -ENOTSUP;
}

}  // namespace vqtwin::float_ssim
