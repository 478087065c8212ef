// float_ansnr, CPU reference (see math.hpp and README.md).
//
// Exactness: every filtered sample is libvmaf's sequence of fp32 operations (for each filter row, a
// partial sum from 0 over the taps left to right, added to the sample's total from 0); the loops over
// pixels only run several samples side by side. Each row's signal and noise are fp32 sums from 0 in
// column order; rows are summed eight at a time side by side (independent chains), and the row totals are
// added into the frame totals in row order, as libvmaf does.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/cpu.hpp"
#include "core/extractor.hpp"
#include "core/implementation.hpp"
#include "features/float_ansnr/front.hpp"
#include "features/float_ansnr/kernels.hpp"
#include "features/float_ansnr/math.hpp"
#include "features/float_ansnr/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace float_ansnr {
namespace {

// A luma plane as float (v / scale - 128), each row with kPad mirrored columns on both sides.
struct PaddedPlane {
  std::vector<float> px;
  int w = 0, h = 0, stride = 0;
  void resize(int width, int height) {
    w = width;
    h = height;
    stride = width + 2 * kPad;
    const std::size_t n = std::size_t(stride) * std::size_t(height);
    if (px.size() < n) px.resize(n);
  }
  // Column x of row y, for -kPad <= x < w + kPad.
  const float* row(int y) const { return px.data() + std::size_t(y) * std::size_t(stride) + kPad; }
  float* row(int y) { return px.data() + std::size_t(y) * std::size_t(stride) + kPad; }
};

template <class T>
void load(const Picture& pic, float scale, PaddedPlane& out) {
  const int w = pic.width(0), h = pic.height(0);
  out.resize(w, h);
  for (int y = 0; y < h; ++y) {
    const T* src = pic.row<T>(0, y);
    float* dst = out.row(y);
    // libvmaf's picture_copy: (float)v + -128 at 8 bits, (float)v / scale + -128 above (all exact).
    if (sizeof(T) == 1)
      for (int x = 0; x < w; ++x) dst[x] = float(src[x]) + float(-128);
    else
      for (int x = 0; x < w; ++x) dst[x] = float(src[x]) / scale + float(-128);
    for (int k = 1; k <= kPad; ++k) {
      dst[-k] = dst[mirror(-k, w)];
      dst[w - 1 + k] = dst[mirror(w - 1 + k, w)];
    }
  }
}

struct Workspace {
  PaddedPlane ref, dis;
  std::vector<float> ref_band, dis_band;  // kBand filtered rows of each
};

class FloatAnsnrCpu final : public Extractor {
 public:
  FloatAnsnrCpu() : kernels_(filter_kernels_for(cpu::flags())) {}
  void init(const PictureFormat& f) override { front_.init(f); }

  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) override {
    thread_local Workspace ws;
    if (ref.format().bitdepth == 8) {
      load<std::uint8_t>(ref, front_.scale(), ws.ref);
      load<std::uint8_t>(dist, front_.scale(), ws.dis);
    } else {
      load<std::uint16_t>(ref, front_.scale(), ws.ref);
      load<std::uint16_t>(dist, front_.scale(), ws.dis);
    }
    const int w = ref.width(0), h = ref.height(0);
    const std::size_t band = std::size_t(kBand) * std::size_t(w);
    if (ws.ref_band.size() < band) {
      ws.ref_band.resize(band);
      ws.dis_band.resize(band);
    }
    float signal = 0, noise = 0;
    for (int y0 = 0; y0 < h; y0 += kBand) {
      const int n = std::min(kBand, h - y0);
      const float* fr[kBand];
      const float* fd[kBand];
      for (int k = 0; k < n; ++k) {
        const int y = y0 + k;
        float* r_out = ws.ref_band.data() + std::size_t(k) * std::size_t(w);
        float* d_out = ws.dis_band.data() + std::size_t(k) * std::size_t(w);
        const float* rr[kRefWidth];
        for (int i = 0; i < kRefWidth; ++i) rr[i] = ws.ref.row(mirror(y - kRefWidth / 2 + i, h));
        const float* dr[kDisWidth];
        for (int i = 0; i < kDisWidth; ++i) dr[i] = ws.dis.row(mirror(y - kDisWidth / 2 + i, h));
        kernels_.filter_ref(rr, r_out, w);
        kernels_.filter_dis(dr, d_out, w);
        fr[k] = r_out;
        fd[k] = d_out;
      }
      float sig_rows[kBand], noise_rows[kBand];
      kernels_.row_sums(fr, fd, n, w, sig_rows, noise_rows);
      for (int k = 0; k < n; ++k) {
        signal += sig_rows[k];
        noise += noise_rows[k];
      }
    }
    front_.emit(signal, noise, index, out);
  }

 private:
  Front front_;
  FilterKernels kernels_;  // chosen once, when the context is made (--cpumask applies)
};

}  // namespace
}  // namespace float_ansnr

extern const ExtractorInfo kFloatAnsnrInfo;
const ExtractorInfo kFloatAnsnrInfo = cpu_extractor<float_ansnr::FloatAnsnrCpu>(float_ansnr::kSpec);

}  // namespace vqtwin
