#pragma once
// integer ADM's per-context constants: the CSF factors (float and fixed point) of the chosen CSF
// mode and display, and the per-scale geometry and shifts. Host code, computed once; a twin
// copies these values to its device.
#include <cstdint>

namespace vqtwin::integer_adm {

struct Settings {
  double enhn_gain_limit = 100.0;
  double norm_view_dist = 3.0;
  int ref_display_height = 1080;
  int csf_mode = 0;
  double noise_weight = 0.03125;
  double dlm_weight = 0.5;
  double min_val = 0.0;
  bool skip_aim = false;
  bool skip_scale0 = false;
};

// Throws vqtwin::Error for the combinations integer ADM refuses (spec: DECISIONS.md §10): CSF mode 1,
// modes 2/3 with a display outside their tables, and nvd * rdh below 3 * 1080.
void validate(const Settings& s);

struct CsfFactors {
  float f[4][2];      // float factor per scale and orientation (0 = h and v, 1 = d); the denominator uses these
  uint16_t r0[3];     // scale 0 in fixed point: h, v (Q21), d (Q23)
  uint32_t rs[4][3];  // scales 1-3 in Q32 (index 0 unused): h, v, d
};
CsfFactors make_csf_factors(const Settings& s);

// The Watson 1997 factor 1 / Q(lambda, theta) (theta 1 = h/v, 2 = d) in libvmaf's float/double order.
float watson_factor(int lambda, int theta, double norm_view_dist, int ref_display_height);

struct Rect {
  int left = 0, top = 0, right = 0, bottom = 0;
  int width() const { return right - left; }
  int height() const { return bottom - top; }
};

// Cells whose terms are summed: 10 % (rounded down, less half a cell) off each side.
Rect pool_rect(int w, int h);

// One scale's band geometry and shift constants (spec §8, §9).
struct ScaleGeometry {
  int w = 0, h = 0;  // band size
  Rect pool;
  // Rows/columns whose decouple and CSF values the masking window reads: the pool rect plus one
  // ring of neighbours, clipped to the band.
  Rect needed;
  // Numerator: cube shift per orientation (h, v, d) and its rounding term; per-row shift.
  uint32_t cube_shift[3] = {0, 0, 0};
  int64_t cube_round[3] = {0, 0, 0};
  uint32_t row_shift = 0;
  int64_t row_round = 0;
  // Numerator to float: scale 0 divides the int64 total by 2^num_exp[theta] in double; scales 1-3
  // convert it to float and divide by the float 2^num_exp (theta-independent).
  uint32_t num_exp[3] = {0, 0, 0};
  // Denominator: scale 0 shifts per-row sums by den_row_shift (0 or more); scales 1-3 use the
  // square shift, a cube shift by the pool width and a per-row shift by the pool height.
  uint32_t den_sq_shift = 0;
  uint32_t den_cube_shift = 0;
  uint64_t den_cube_round = 0;
  uint32_t den_row_shift = 0;
  uint64_t den_row_round = 0;
  uint32_t den_exp = 0;  // 2^den_exp divides the total before the factor^3
};
// `scale` 0..3, band size w x h.
ScaleGeometry make_geometry(int scale, int w, int h);

}  // namespace vqtwin::integer_adm
