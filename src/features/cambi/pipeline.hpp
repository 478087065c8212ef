#pragma once
// cambi's per-picture work (README.md): convert to 10 bits at the encode (or source) size, spatial
// mask, five scales of mode filter + per-pixel banding value + top-k pooling, weighted sum.
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "features/cambi/math.hpp"
#include "vqtwin/picture.hpp"

namespace vqtwin::cambi {

struct Setup;

// The vector loops (spatial mask, mode filter, banding values) as a kernel table (common/cpu.hpp): the
// same bodies built for the baseline, x86-64-v3 and x86-64-v4. Integer work, and each per-pixel float the
// same product, so every build gives the same bits (tests/cpu_check/late_features.cpp).
struct CambiKernels {
  const char* name;
  void (*spatial_mask)(const std::uint16_t* img, int w, int h, int threshold, std::uint8_t* mask,
                       std::vector<std::uint8_t>& flat);
  void (*mode_filter)(std::uint16_t* img, std::ptrdiff_t stride, int w, int h, std::vector<std::uint16_t>& rows);
  void (*banding_values)(const Setup& s, const std::uint16_t* img, const std::uint8_t* mask, std::ptrdiff_t stride,
                         int w, int h, int window, std::vector<std::uint16_t>& hist, float* out);
};

// cambi_kernels_for(0) is the portable build (the reference; also the free functions below),
// cambi_kernels_for(cpu::flags()) the one to run.
CambiKernels cambi_kernels_for(unsigned cpu_flags);

// What every picture of one context shares, fixed at init.
struct Setup {
  int in_w = 0, in_h = 0, bitdepth = 8;  // the input pictures
  int enc_bitdepth = 8;                  // below 10: anti-dithering
  bool high_res_speedup = false;
  int num_diffs = 4;                     // 2^max_log_contrast
  std::vector<int> tvi;                  // per step d+1: visible up to this code value, + num_diffs
  int vlt = 0;                           // the visibility-luminance code value
  // Code values counted in the histograms: [band_base, band_base + band_size); band_size <= 0: none
  // (then every per-pixel value is 0).
  int band_base = 0, band_size = 0;
  double topk = 0.6;                     // topk, or cambi_topk when topk is at its default
  CambiKernels kernels = cambi_kernels_for(0);  // the builds score_picture() runs
};

// One output size (the encode size for the distorted picture, the source size for the reference).
struct Target {
  int w = 0, h = 0, window = 0;
  std::vector<int> xs, ys;  // nearest-neighbour source column / row of each output sample
};

// The nearest-neighbour sampling positions libvmaf's resampler takes from `in` samples to `out`:
// a float position stepped by the float ratio in/out from ratio/2 - 0.5, rounded by +0.5 and
// truncation. Identity when in == out.
std::vector<int> sample_positions(int in, int out);

// Throws vqtwin::Error when `t`'s window does not fit its smallest scale (libvmaf reads outside the
// picture there).
void check_window_fits(const Target& t, bool high_res_speedup, const char* what);

// Buffers of one picture in flight (reused from frame to frame; one user at a time).
struct Workspace {
  std::vector<std::uint16_t> img;
  std::vector<std::uint8_t> mask;
  std::vector<std::uint16_t> hist;
  std::vector<float> cvalues;
  std::vector<std::uint8_t> flat;      // spatial-mask scratch
  std::vector<std::uint16_t> rows;     // mode-filter scratch
};

// Receives each scale's per-pixel values before pooling (the heatmaps), packed w x h.
using ScaleSink = std::function<void(int scale, const float* values, int w, int h)>;

// The cambi score (before the cambi_max_val clip) of plane 0 of `pic` at size `t`. Throws
// vqtwin::Error for samples above the input's bit depth (as libvmaf).
double score_picture(const Setup& s, const Target& t, const Picture& pic, Workspace& ws, const ScaleSink* sink);

// Pieces, exposed for the unit tests (the portable builds of the table's entries).
void to_10bit(const Setup& s, const Target& t, const Picture& pic, std::uint16_t* out);
void anti_dither(std::uint16_t* img, int w, int h);
void spatial_mask(const std::uint16_t* img, int w, int h, int threshold, std::uint8_t* mask, std::vector<std::uint8_t>& flat);
void mode_filter(std::uint16_t* img, std::ptrdiff_t stride, int w, int h, std::vector<std::uint16_t>& rows);
void decimate(std::uint16_t* img, std::ptrdiff_t stride, int w, int h);
void decimate(std::uint8_t* img, std::ptrdiff_t stride, int w, int h);
// Per-pixel banding values of one scale (w x h, packed into `out`).
void banding_values(const Setup& s, const std::uint16_t* img, const std::uint8_t* mask, std::ptrdiff_t stride, int w,
                    int h, int window, std::vector<std::uint16_t>& hist, float* out);

}  // namespace vqtwin::cambi
