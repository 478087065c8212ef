#pragma once
// float ADM's work on one scale's subbands (spec float_adm.md §5-§8): decouple, CSF and masking
// planes, the contrast-masked sums (DLM numerator, AIM numerator) and the denominator.
#include <cstdint>
#include <vector>

#include "features/float_adm/csf.hpp"
#include "features/float_adm/dwt.hpp"

namespace vqtwin::float_adm {

struct ScaleSettings {
  double gain_limit = 100.0;   // adm_enhn_gain_limit
  double noise_weight = 0.03125;
  double p_norm = 3.0;
  bool bypass_cm = false;
  const std::uint32_t* rcp_table = nullptr;
};

struct ScaleValues {
  float num = 0.0f;  // DLM numerator
  float den = 0.0f;  // denominator (ref bands)
  float aim = 0.0f;  // AIM numerator
};

// Planes of one call, reused from frame to frame by one thread.
struct ScaleWork {
  Band restored[3], additive[3];  // decouple output r, a (h, v, d)
  Band csf[3], mask[3];           // rf * P and |rf * P| / 30 of the plane being masked against
};

ScaleValues scale_values(const Subbands& ref, const Subbands& dis, CsfFactors factors, const ScaleSettings& s,
                         ScaleWork& work);

}  // namespace vqtwin::float_adm
