#pragma once
// float_motion's per-plane work: the separable blur of one picture plane (offset -128), fused with
// the fp32 SAD against the previous frame's blur, and the half-size resampler of motion_add_scale1.
#include <cstddef>
#include <vector>

#include "common/cpu.hpp"
#include "features/float_motion/kernels.hpp"
#include "vqtwin/picture.hpp"

namespace vqtwin::float_motion {

// Blurs planes of one fixed size; owns its row scratch (one user at a time).
class PlaneBlur {
 public:
  // filter_size: the option value (1 = pass-through, 3, anything else = 5 taps).
  // `kernels` defaults to the table cpu::flags() allows when the blur is made.
  PlaneBlur(int width, int height, int filter_size, const Kernels& kernels = kernels_for(cpu::flags()));

  int width() const { return w_; }
  int height() const { return h_; }

  // Blurs plane `p` of `pic` into `out` (w*h floats, row stride w). With `prev` (the previous
  // frame's blur, same layout), returns the SAD total: per row a sequential fp32 sum of
  // |out - prev| left to right, rows added in order into an fp32 total. Without `prev`, 0.
  float run(const Picture& pic, int p, float* out, const float* prev);

 private:
  template <class T>
  float run_typed(const Picture& pic, int p, float* out, const float* prev);
  template <class T>
  const float* source_row(const Picture& pic, int p, int y);

  Kernels k_;
  int w_, h_, taps_;
  bool identity_;
  float scale_;                   // 1, 4, 16 or 256: the divisor taking samples to 8-bit units
  std::vector<float> rows_;       // ring of converted source rows, row y in slot y % 5
  int converted_up_to_ = -1;      // rows 0..converted_up_to_ of this call are in the ring
  std::vector<float> padded_;     // one vertically filtered row with mirrored margins
};

// Sequential fp32 SAD total of two w x h planes (row stride w), in libvmaf's order.
float sad_total(const float* a, const float* b, int w, int h, const Kernels& kernels = kernels_for(cpu::flags()));

// motion_add_scale1's bilinear half-size resampler (dst is dw x dh, row stride dw).
class HalfResampler {
 public:
  HalfResampler(int w, int h);
  int width() const { return dw_; }
  int height() const { return dh_; }
  void run(const float* src, float* dst) const;

 private:
  int w_, h_, dw_, dh_;
  std::vector<int> x0_, x1_, y0_, y1_;
  std::vector<float> fx_, fy_;
};

}  // namespace vqtwin::float_motion
