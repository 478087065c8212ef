#pragma once
// SpEED (libvmaf 3.2 speed.c), the part shared by speed_chroma and speed_temporal: one plane pair
// (float, offset -128) in, one score out. README.md in this folder describes the steps.
#include <string_view>
#include <vector>

#include "core/float_plane.hpp"
#include "features/float_vif/prescale.hpp"
#include "features/speed/kernels.hpp"

namespace vqtwin::speed {

inline constexpr int kBlock = 5;                      // 5x5 blocks
inline constexpr int kElements = kBlock * kBlock;     // 25: the covariance matrix is 25 x 25
inline constexpr int kScales = 4;                     // the pictures are analysed at 1/16 size

struct Options {
  double kernelscale = 1.0;
  double prescale = 1.0;
  float_vif::PrescaleMethod prescale_method = float_vif::PrescaleMethod::kNearest;
  double sigma_nn = 0.29;
  double nn_floor = 0.0;
  int weight_var_mode = 0;
};

// Sizes, as libvmaf's speed_init_dimensions.
struct Dimensions {
  int w = 0, h = 0;                  // the plane
  int scaled_w = 0, scaled_h = 0;    // after the prescale: int(n * prescale + 0.5)
  int down_w = 0, down_h = 0;        // scaled >> 4
  int blocks_x = 0, blocks_y = 0;    // whole 5x5 blocks of the downscaled plane
  int sub_w = 0, sub_h = 0;          // the shifted windows of the covariance: 5 * blocks - 4
  bool prescaled = false;            // |prescale - 1| >= 1e-3 (libvmaf's test)
  int blocks() const { return blocks_x * blocks_y; }
};

// Throws vqtwin::Error naming `who` when the plane is too small (no whole block at 1/16 size) or
// the prescale leaves the size changed while libvmaf's test skips it.
Dimensions make_dimensions(int w, int h, double prescale, std::string_view who);

// The normalised Gaussian of libvmaf's get_1d_gaussian_kernel: `width` taps, float `sigma`.
std::vector<float> gaussian(int width, float sigma);

// Per-block results of one plane: entropy and variance (S) of each 5x5 block.
struct BlockStats {
  std::vector<float> entropy, variance;
  bool singular = false;  // the covariance matrix could not be inverted (variances are 0)
};

// Everything fixed for one context.
class Speed {
 public:
  // The kernels are those cpu::flags() allows when the context is made (--cpumask applies).
  Speed(const Options& o, const Dimensions& d);
  const Dimensions& dims() const { return d_; }
  const SpeedKernels& kernels() const { return k_; }

  // Prescale (if any), anti-alias blur, keep every 16th sample, subtract the local mean: the
  // plane SpEED analyses (down_w x down_h). `plane` holds dims().w x dims().h values.
  void prepare(const FloatPlane& plane, FloatPlane& out, FloatPlane& scratch) const;
  // prepare()'s first half, the part the device twins compute: prescale (if any), anti-alias blur,
  // every 16th sample kept (down_w x down_h).
  void decimate(const FloatPlane& plane, FloatPlane& out, FloatPlane& scratch) const;
  // prepare()'s second half: subtract the local mean of the decimated plane, in place.
  void remove_local_mean(FloatPlane& decimated) const;
  // The anti-alias kernel (the twins' table).
  const std::vector<float>& antialias() const { return antialias_; }
  // The prescale resizes the plane (libvmaf's test passed and the size changes; otherwise a copy).
  bool resizes() const { return d_.prescaled && (d_.scaled_w != d_.w || d_.scaled_h != d_.h); }
  const Options& options() const { return o_; }
  // est_params: covariance of the 25 shifts, its eigenvalues, the per-block variances and
  // entropies.
  BlockStats analyse(const FloatPlane& prepared) const;
  // The score of a plane pair (0 when exactly one of them is singular).
  float score(const FloatPlane& ref, const FloatPlane& dis, FloatPlane& a, FloatPlane& b, FloatPlane& scratch,
              bool* ref_singular = nullptr, bool* dis_singular = nullptr) const;
  float combine(const BlockStats& ref, const BlockStats& dis) const;
  // score() from the two decimated planes on: remove_local_mean (in place), analyse, combine.
  float score_decimated(FloatPlane& a, FloatPlane& b, bool* ref_singular = nullptr,
                        bool* dis_singular = nullptr) const;

 private:
  Options o_;
  Dimensions d_;
  SpeedKernels k_;
  std::vector<float> antialias_, local_mean_;
};

}  // namespace vqtwin::speed
