#pragma once
// float ADM's one-level db2 wavelet transform (spec: float_adm.md §3).
#include <cstddef>
#include <vector>

#include "core/float_plane.hpp"

namespace vqtwin::float_adm {

using Band = FloatPlane;  // a subband

// The four subbands. Naming as libvmaf: v = vertical low-pass / horizontal high-pass,
// h = vertical high-pass / horizontal low-pass.
struct Subbands {
  Band a, h, v, d;
};

// One DWT level of the packed w x h plane `src` (w, h >= 2) into ceil(w/2) x ceil(h/2) bands;
// with `approx_only` just the a band (adm_skip_scale0 at scale 0).
void dwt2(const float* src, int w, int h, Subbands& out, bool approx_only, std::vector<float>& scratch);

}  // namespace vqtwin::float_adm
