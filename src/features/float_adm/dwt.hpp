#pragma once
// float ADM's one-level db2 wavelet transform (spec: float_adm.md §3).
#include <cstddef>
#include <vector>

#include "core/float_plane.hpp"
#include "core/hd.hpp"

namespace vqtwin::float_adm {

using Band = FloatPlane;  // a subband

// The db2 low- and high-pass taps (float literals, as libvmaf writes them).
inline constexpr float kLo[4] = {0.482962913144690f, 0.836516303737469f, 0.224143868041857f, -0.129409522550921f};
inline constexpr float kHi[4] = {-0.129409522550921f, -0.224143868041857f, 0.836516303737469f, -0.482962913144690f};

// libvmaf's edge index tables: q = -1 -> 1, q = n -> n-1, q = n+1 -> n-2.
VQTWIN_HD inline int source_index(int q, int n) { return q < 0 ? -q : (q >= n ? 2 * n - q - 1 : q); }

// The four subbands. Naming as libvmaf: v = vertical low-pass / horizontal high-pass,
// h = vertical high-pass / horizontal low-pass.
struct Subbands {
  Band a, h, v, d;
};

// One DWT level of the packed w x h plane `src` (w, h >= 2) into ceil(w/2) x ceil(h/2) bands;
// with `approx_only` just the a band (adm_skip_scale0 at scale 0).
void dwt2(const float* src, int w, int h, Subbands& out, bool approx_only, std::vector<float>& scratch);

}  // namespace vqtwin::float_adm
