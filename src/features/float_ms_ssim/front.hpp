#pragma once
// float_ms_ssim's front: everything but the per-level means. Options (parsed once), the refused
// formats, the pyramid's level sizes, and the score (libvmaf's double pow combination, its dB form)
// and the per-level outputs from the float means. The CPU reference (cpu.cpp) and the CUDA twin
// (cuda.cu) both hand it a frame's l, c, s means.
#include <cstddef>
#include <string>

#include "core/extractor.hpp"
#include "core/format_checks.hpp"
#include "features/float_ms_ssim/math.hpp"
#include "features/float_ms_ssim/schema.hpp"
#include "features/ssim_common/db.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::float_ms_ssim {

class Front {
 public:
  explicit Front(const OptionValues& o)
      : enable_lcs_(o.get_bool("enable_lcs")), enable_db_(o.get_bool("enable_db")), clip_db_(o.get_bool("clip_db")) {}

  // Throws vqtwin::Error for pictures float_ms_ssim refuses (bit depth, under 176 pixels).
  void init(const PictureFormat& f) {
    require_standard_bitdepth("float_ms_ssim", f.bitdepth);
    // libvmaf fails every frame of such a video (spec: DECISIONS.md §13); say so once, up front.
    if (!size_supported(f.width, f.height))
      throw Error("float_ms_ssim: " + std::to_string(f.width) + "x" + std::to_string(f.height) +
                  " is too small; its 5-level pyramid needs at least 176 pixels in each dimension");
    int w = f.width, h = f.height;
    std::size_t offset = 0;
    for (int k = 0; k < kLevels; ++k) {
      w_[k] = w;
      h_[k] = h;
      offset_[k] = offset;
      offset += std::size_t(w) * std::size_t(h);
      w = half_size(w);
      h = half_size(h);
    }
    pyramid_size_ = offset;
    max_db_ = ssim_db::max_db(unsigned(f.bitdepth), unsigned(f.width), unsigned(f.height), clip_db_);
  }

  // Level k of the pyramid: w(k) x h(k) samples at offset(k) of a packed pyramid of pyramid_size().
  int w(int k) const { return w_[k]; }
  int h(int k) const { return h_[k]; }
  std::size_t offset(int k) const { return offset_[k]; }
  std::size_t pyramid_size() const { return pyramid_size_; }

  // One frame's values from the l, c, s means of its five levels.
  void emit(const float l[kLevels], const float c[kLevels], const float s[kLevels], unsigned index,
            FeatureSink& out) const {
    const double score = combine(l, c, s);
    out.put(kScoreName, index, enable_db_ ? ssim_db::to_db(score, max_db_) : score);
    if (enable_lcs_) {
      for (int k = 0; k < kLevels; ++k) out.put(kLNames[k], index, double(l[k]));
      for (int k = 0; k < kLevels; ++k) out.put(kCNames[k], index, double(c[k]));
      for (int k = 0; k < kLevels; ++k) out.put(kSNames[k], index, double(s[k]));
    }
  }

 private:
  bool enable_lcs_, enable_db_, clip_db_;
  int w_[kLevels] = {}, h_[kLevels] = {};
  std::size_t offset_[kLevels] = {};
  std::size_t pyramid_size_ = 0;
  double max_db_ = 0;
};

}  // namespace vqtwin::float_ms_ssim
