#pragma once
// float ADM's work on one scale's subbands (spec: float_adm.md §5-§8): decouple, CSF and masking
// planes, the contrast-masked sums (DLM numerator, AIM numerator) and the denominator.
#include <cstdint>
#include <vector>

#include "features/float_adm/csf.hpp"
#include "features/float_adm/dwt.hpp"
#include "features/float_adm/math.hpp"

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
  std::vector<float> rows;        // row buffers of the loops below
};

// The steps of scale_values, exposed for the unit tests (each against its per-cell definition).
// Decouple on the work rect into work.restored / work.additive.
void decouple_planes(const Subbands& ref, const Subbands& dis, const ScaleSettings& s, ScaleWork& work);
// work.csf = rf * src, work.mask = f32(1/30 * |rf * src|) on the work rect.
void csf_planes(const Band src[3], const float rf[3], ScaleWork& work);
// Contrast-masked sum (spec §7) of src against work.csf / work.mask on the pool rect.
float masked_sum(const Band src[3], const float rf[3], double noise_weight, const ScaleSettings& s, ScaleWork& work);

// p-norm pooling of a scale's three orientation sums (libvmaf's powf): sum over theta of
// powf(acc, 1/p) + powf(area * noise_weight, 1/p), area that of the pool rect.
float pooled_sum(const float acc[3], const Rect& pr, double noise_weight, double p_norm);

ScaleValues scale_values(const Subbands& ref, const Subbands& dis, CsfFactors factors, const ScaleSettings& s,
                         ScaleWork& work);

}  // namespace vqtwin::float_adm
