#pragma once
// float ADM's one-level db2 wavelet transform (spec float_adm.md §3).
#include <cstddef>
#include <vector>

namespace vqtwin::float_adm {

// A w x h float plane, rows packed (stride = w).
struct Band {
  std::vector<float> px;
  int w = 0;
  int h = 0;
  // Grows only: a buffer reused for bands of several sizes is never shrunk and zero-filled again.
  void resize(int width, int height) {
    w = width;
    h = height;
    const std::size_t n = std::size_t(width) * std::size_t(height);
    if (px.size() < n) px.resize(n);
  }
  float* row(int y) { return px.data() + std::size_t(y) * std::size_t(w); }
  const float* row(int y) const { return px.data() + std::size_t(y) * std::size_t(w); }
};

// The four subbands. Naming as libvmaf: v = vertical low-pass / horizontal high-pass,
// h = vertical high-pass / horizontal low-pass.
struct Subbands {
  Band a, h, v, d;
};

// One DWT level of the packed w x h plane `src` (w, h >= 2) into ceil(w/2) x ceil(h/2) bands;
// with `approx_only` just the a band (adm_skip_scale0 at scale 0).
void dwt2(const float* src, int w, int h, Subbands& out, bool approx_only, std::vector<float>& scratch);

}  // namespace vqtwin::float_adm
