#pragma once
// float_psnr's front: the bit-depth setup, the choice between the exact integer path and libvmaf's
// own sequential order, and the dB value. The CPU reference and the CUDA twin share it.
//
// libvmaf converts both pictures to float (v / scale), squares each fp32 difference in fp32 and
// adds the squares into a double in raster order. For 8, 10 and 12 bits every one of those steps is
// exact: the difference (a - b) / scale and its square (a - b)^2 / scale^2 fit in 24 bits, and every
// partial sum is an integer multiple of 1 / scale^2 below 2^53 / scale^2 (checked at init). So the
// double total equals the exact integer SSE / scale^2, which any summation order gives. At 16 bits
// the fp32 square rounds; there the sequential double sum must be computed as libvmaf does. Samples of
// 2^bpc or more (libvmaf accepts them at 10/12 bits) void the argument too: the CPU reference then takes
// the sequential sum for that frame, and so does the CUDA twin.
#include <cstdint>
#include <string>

#include "core/extractor.hpp"
#include "features/float_psnr/math.hpp"
#include "features/float_psnr/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::float_psnr {

class Front {
 public:
  void init(const PictureFormat& f) {
    if (!make_setup(f.bitdepth, setup_))
      throw Error("float_psnr: bit depth " + std::to_string(f.bitdepth) + " is not supported (8, 10, 12, 16)");
    const double max_square = double((1u << f.bitdepth) - 1) * double((1u << f.bitdepth) - 1);
    exact_integer_ = f.bitdepth <= 12 && max_square * f.width * double(f.height) < 9007199254740992.0;
    pixels_ = f.width * f.height;
  }
  // True: give emit_sse() the exact integer SSE; false: give emit_noise() libvmaf's sequential sum.
  bool exact_integer() const { return exact_integer_; }
  float scale() const { return setup_.scale; }

  void emit_sse(std::uint64_t sse, unsigned index, FeatureSink& out) const {
    // Division by scale^2 (1, 16 or 256) is exact.
    emit_noise(double(sse) / (double(setup_.scale) * double(setup_.scale)), index, out);
  }
  void emit_noise(double noise, unsigned index, FeatureSink& out) const {
    out.put(kName, index, psnr_of(noise, pixels_, setup_.peak, setup_.psnr_max));
  }

 private:
  Setup setup_;
  bool exact_integer_ = false;
  int pixels_ = 0;
};

}  // namespace vqtwin::float_psnr
