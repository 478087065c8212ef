#pragma once
// integer_ssim's front: parameters (parsed once), the refusals, the score from the raster-order sum
// of the window terms (divided by the total window weight) and its dB form. The CPU reference and
// the CUDA twin both hand it the term sum; one implementation of the host arithmetic.
#include "core/extractor.hpp"
#include "core/format_checks.hpp"
#include "features/integer_ssim/math.hpp"
#include "features/integer_ssim/schema.hpp"
#include "features/ssim_common/db.hpp"

namespace vqtwin::integer_ssim {

class Front {
 public:
  explicit Front(const OptionValues& o) : enable_db_(o.get_bool("enable_db")), clip_db_(o.get_bool("clip_db")) {}

  void init(const PictureFormat& f) {
    // Same refusal as the float SSIMs, although the integer algorithm itself would cope with any
    // depth 8..16: one rule for every SSIM (DECISIONS.md 8).
    require_standard_bitdepth("integer_ssim", f.bitdepth);
    max_db_ = ssim_db::max_db(unsigned(f.bitdepth), unsigned(f.width), unsigned(f.height), clip_db_);
    const double peak = double((1u << f.bitdepth) - 1u);
    peak_sq_ = peak * peak;  // exact; the fork's fix of upstream's int overflow at 16 bits
    weight_total_ = weight_total(f.width, f.height);
  }

  // (2^bpc - 1)^2, the L^2 of window_term.
  double peak_sq() const { return peak_sq_; }

  // One frame's output from the raster-order double sum of its window terms. Thread-safe.
  void emit(double term_sum, unsigned index, FeatureSink& out) const {
    const double score = term_sum / weight_total_;
    out.put(kScoreName, index, enable_db_ ? ssim_db::to_db(score, max_db_) : score);
  }

 private:
  bool enable_db_, clip_db_;
  double max_db_ = 0, peak_sq_ = 0, weight_total_ = 0;
};

}  // namespace vqtwin::integer_ssim
