#pragma once
// integer motion's scalar math (spec: integer_motion.md §4-§5), shared by the CPU reference and the
// twins: the per-frame score from the exact integer SAD, and the motion2/motion3 schedule of flush.
#include <cstdint>
#include <vector>

#include "core/hd.hpp"
#include "features/float_motion/math.hpp"

namespace vqtwin::integer_motion {

using float_motion::blend;
using float_motion::min_of;

// The 5-tap filter, round(65536 * the float sigma-1 Gaussian); sums to 65536.
inline constexpr std::int32_t kTaps[5] = {3571, 16004, 26386, 16004, 3571};

// SAD / 256 / (w*h) * fps_weight, clipped; double throughout (the /256 is exact).
VQTWIN_HD inline double frame_score(std::uint64_t sad, unsigned w, unsigned h, double fps_weight, double max_val) {
  return min_of(double(sad) / 256. / double(w * h) * fps_weight, max_val);
}

struct Schedule {
  double blend_factor = 1.0;
  double blend_offset = 40.0;
  double max_val = 10000.0;
  bool five_frame_window = false;
  bool moving_average = false;
};

// motion2 and motion3 of every frame from the per-frame scores sad[0..n-1] (libvmaf's flush).
// `lag` = 2 with the five-frame window, else 1: the first frame with a score.
inline void motion23(const std::vector<double>& sad, const Schedule& s, std::vector<double>& motion2,
                     std::vector<double>& motion3) {
  const std::size_t n = sad.size();
  const std::size_t lag = s.five_frame_window ? 2 : 1;
  motion2.assign(n, 0.0);
  motion3.assign(n, 0.0);
  auto clipblend = [&](double m) { return min_of(blend(m, s.blend_factor, s.blend_offset), s.max_val); };
  // Frames before the lag all get motion3 = the first real score, blended.
  const double stamp = n > lag ? clipblend(sad[lag]) : 0.0;
  double prev = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    if (i < lag) {
      motion2[i] = 0.0;
      motion3[i] = stamp;
      prev = stamp;
      continue;
    }
    // The smaller of the scores around frame i; the last frame keeps its own.
    if (i + 1 >= n) motion2[i] = sad[i];
    else if (i - (lag - 1) >= lag) motion2[i] = min_of(sad[i - (lag - 1)], sad[i + 1]);
    else motion2[i] = sad[i + 1];
    const double p = clipblend(motion2[i]);
    motion3[i] = s.moving_average ? (p + prev) / 2.0 : p;
    prev = p;
  }
}

}  // namespace vqtwin::integer_motion
