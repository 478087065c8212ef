#pragma once
// A w x h float plane with packed rows (stride = w), the working buffer of the float extractors.
#include <cstddef>
#include <vector>

namespace vqtwin {

struct FloatPlane {
  std::vector<float> px;
  int w = 0;
  int h = 0;
  // Grows only: a buffer reused for planes of several sizes is never shrunk and zero-filled again.
  void resize(int width, int height) {
    w = width;
    h = height;
    const std::size_t n = std::size_t(width) * std::size_t(height);
    if (px.size() < n) px.resize(n);
  }
  float* row(int y) { return px.data() + std::size_t(y) * std::size_t(w); }
  const float* row(int y) const { return px.data() + std::size_t(y) * std::size_t(w); }
};

}  // namespace vqtwin
