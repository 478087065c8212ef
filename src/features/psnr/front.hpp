#pragma once
// psnr's front: everything but the SSE sums. Parameters (parsed once), which planes are computed,
// the per-frame dB / MSE values and the clip's APSNR, emitted in libvmaf's order and names. The CPU
// reference and the CUDA twin both hand it per-plane SSEs; one implementation of the host math.
#include <cstdint>
#include <mutex>

#include "core/extractor.hpp"
#include "core/format_checks.hpp"
#include "features/psnr/math.hpp"
#include "features/psnr/schema.hpp"

namespace vqtwin::psnr {

struct Params {
  bool enable_chroma, enable_mse, enable_apsnr, reduced_hbd_peak;
  double min_sse;
  static Params from(const OptionValues& o) {
    return {o.get_bool("enable_chroma"), o.get_bool("enable_mse"), o.get_bool("enable_apsnr"),
            o.get_bool("reduced_hbd_peak"), o.get_double("min_sse")};
  }
};

class Front {
 public:
  explicit Front(const OptionValues& options) : params_(Params::from(options)) {}

  void init(const PictureFormat& f) {
    require_standard_bitdepth("psnr", f.bitdepth);
    format_ = f;
    planes_ = (params_.enable_chroma && f.chroma != ChromaFormat::k400) ? 3 : 1;
    setup_ = make_setup(f, params_.reduced_hbd_peak, params_.min_sse);
  }
  // The planes whose SSE the compute must provide (1 or 3), each over its scored region: libvmaf's
  // floor-sized chroma (PictureFormat::scored_width / scored_height), not the stored ceil-sized plane.
  int planes() const { return planes_; }
  std::uint64_t samples(int p) const {
    return std::uint64_t(format_.scored_width(p)) * std::uint64_t(format_.scored_height(p));
  }

  // One frame's values from the SSE of each computed plane. Thread-safe.
  void emit(const std::uint64_t* sse, unsigned index, FeatureSink& out) {
    for (int p = 0; p < planes_; ++p) {
      const double mse = mse_of(sse[p], samples(p));
      out.put(kPsnrNames[p], index, psnr_of(mse, setup_.peak, setup_.psnr_max[p]));
      if (params_.enable_mse) out.put(kMseNames[p], index, mse);
      if (params_.enable_apsnr) {
        // Integer sums: the same totals whatever order the frames arrive in.
        std::lock_guard lock(mutex_);
        total_sse_[p] += sse[p];
        total_n_[p] += samples(p);
      }
    }
  }

  void flush(FeatureSink& out) {
    if (!params_.enable_apsnr) return;
    for (int p = 0; p < 3; ++p) out.aggregate(kApsnrNames[p], apsnr_of(total_sse_[p], total_n_[p], setup_.peak));
  }

 private:
  Params params_;
  PictureFormat format_{};
  int planes_ = 1;
  Setup setup_;
  std::mutex mutex_;
  std::uint64_t total_sse_[3] = {0, 0, 0};
  std::uint64_t total_n_[3] = {0, 0, 0};
};

}  // namespace vqtwin::psnr
