#pragma once
// float_moment's front: the init checks, the choice between the exact integer sums and libvmaf's own
// raster-order double sums, and the four values. The CPU reference and the CUDA twin share it.
#include <cstdint>

#include "core/extractor.hpp"
#include "core/format_checks.hpp"
#include "features/float_moment/math.hpp"
#include "features/float_moment/schema.hpp"
#include "features/float_moment/sums.hpp"

namespace vqtwin::float_moment {

// One picture's double sums, as libvmaf has them.
struct Sums {
  double first = 0;   // sum of v / scale
  double second = 0;  // sum of fp32 (v / scale)^2
};

class Front {
 public:
  void init(const PictureFormat& f) {
    require_standard_bitdepth("float_moment", f.bitdepth);
    bitdepth_ = f.bitdepth;
    scale_ = scale_of(f.bitdepth);
    exact_ = exact_integer_path(f.bitdepth, f.width, f.height);
    w_ = f.width;
    h_ = f.height;
  }
  // True: integer sums may stand for libvmaf's double sums (see from_integers).
  bool exact() const { return exact_; }
  int bitdepth() const { return bitdepth_; }
  float scale() const { return scale_; }

  // libvmaf's double sums from exact integer sums, or false when the picture holds a sample above
  // its bit depth (its fp32 square can round: then libvmaf's own order is needed). Divisions by scale
  // and scale^2 (powers of two) are exact.
  bool from_integers(const IntegerSums& s, Sums& out) const {
    if (!exact_ || (s.any >> bitdepth_) != 0) return false;
    out = {double(s.first) / double(scale_), double(s.second) / (double(scale_) * double(scale_))};
    return true;
  }

  void emit(const Sums& r, const Sums& d, unsigned index, FeatureSink& out) const {
    out.put(kOutputs[0], index, moment_of(r.first, w_, h_));
    out.put(kOutputs[1], index, moment_of(d.first, w_, h_));
    out.put(kOutputs[2], index, moment_of(r.second, w_, h_));
    out.put(kOutputs[3], index, moment_of(d.second, w_, h_));
  }

 private:
  int bitdepth_ = 8, w_ = 0, h_ = 0;
  float scale_ = 1.0f;
  bool exact_ = true;
};

}  // namespace vqtwin::float_moment
