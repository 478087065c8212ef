#pragma once
// float ADM's contrast-sensitivity factors per scale (spec: float_adm.md §4), computed once per
// context on the host. Mode 1 = Barten, 2 = ADM native, every other mode Watson (1/Q).
namespace vqtwin::float_adm {

struct CsfSettings {
  int mode = 0;
  double view_dist = 3.0;      // adm_norm_view_dist
  int display_height = 1080;   // adm_ref_display_height
  double csf_scale = 1.0;      // Barten only
  double csf_diag_scale = 1.0; // Barten only
  double f1_override[4] = {-1, -1, -1, -1};  // adm_f1sN (used when >= 0)
  double f2_override[4] = {-1, -1, -1, -1};  // adm_f2sN
};

struct CsfFactors {
  float hv;  // h and v bands
  float d;   // diagonal band
};

CsfFactors csf_factors(int scale, const CsfSettings& s);

// The pieces, exposed for the unit tests.
float watson_quant_step(int scale, int theta, double view_dist, int display_height);
float barten_factor(int scale, double view_dist, int display_height, double scale_option);
float adm_native_factor(int scale, double view_dist, int display_height, bool diagonal);

}  // namespace vqtwin::float_adm
