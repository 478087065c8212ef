#pragma once
// cambi's heatmap files (heatmaps_path), written by the CPU reference and the CUDA twin from the same
// per-pixel values: libvmaf's layout, one raw 16-bit native-endian gray file per scale of the distorted
// picture, frame after frame, each value uint16(65535 / (largest contrast weight * window^2 / 4) * c).
#include <string>

namespace vqtwin::cambi {

class Heatmaps {
 public:
  // Creates `folder` and opens (truncates) the five files, named after the encode size halved per scale.
  Heatmaps(const std::string& folder, int enc_w, int enc_h, int window, int num_diffs);
  ~Heatmaps();
  Heatmaps(const Heatmaps&) = delete;
  Heatmaps& operator=(const Heatmaps&) = delete;

  // Frame `frame`'s values of one scale (w x h, packed), at their place in the file (frames may come in
  // any order, from several threads).
  void write(int scale, const float* values, int w, int h, unsigned frame) const;

 private:
  int fds_[5] = {-1, -1, -1, -1, -1};
  double scaling_ = 0;
};

}  // namespace vqtwin::cambi
