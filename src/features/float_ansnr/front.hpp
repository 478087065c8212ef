#pragma once
// float_ansnr's front: the init checks and setup, and the two dB values from the fp32 totals (glibc's
// log10, on the host). The CPU reference and the CUDA twin share it.
#include <string>

#include "core/extractor.hpp"
#include "core/format_checks.hpp"
#include "features/float_ansnr/math.hpp"
#include "features/float_ansnr/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::float_ansnr {

class Front {
 public:
  void init(const PictureFormat& f) {
    require_standard_bitdepth("float_ansnr", f.bitdepth);
    peak_of(f.bitdepth, peak_);
    // libvmaf mirrors rows -2..h+1 into the plane only when it has 3 rows (and columns) or more; below
    // that it reads outside the picture.
    if (f.width < 3 || f.height < 3)
      throw Error("float_ansnr: the picture must be at least 3x3 (its 5x5 filter mirrors at the edges), not " +
                  std::to_string(f.width) + "x" + std::to_string(f.height));
    scale_ = f.bitdepth == 8 ? 1.0f : f.bitdepth == 10 ? 4.0f : f.bitdepth == 12 ? 16.0f : 256.0f;
    w_ = f.width;
    h_ = f.height;
  }
  // v / scale - 128 is each sample's float (8 bits: v - 128, no division).
  float scale() const { return scale_; }

  // From the fp32 signal and noise totals (rows added in row order, each row's sum from 0).
  void emit(float signal, float noise, unsigned index, FeatureSink& out) const {
    out.put(kOutputs[0], index, ansnr_of(signal, noise, peak_.psnr_max));
    out.put(kOutputs[1], index, anpsnr_of(noise, w_, h_, peak_));
  }

 private:
  Peak peak_{};
  float scale_ = 1.0f;
  int w_ = 0, h_ = 0;
};

}  // namespace vqtwin::float_ansnr
