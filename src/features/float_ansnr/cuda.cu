// float_ansnr_cuda: the float_ansnr front on the device. One thread per pixel filters both pictures,
// each filtered sample the CPU's sequence of fp32 operations (libvmaf's ansnr_filter2d: per filter row
// a partial sum from 0 over the taps left to right, added to the sample's total from 0; mirrored
// edges); one thread per row then sums that row's ref'^2 and (ref' - dis')^2 in fp32 from 0 in column
// order. The row totals are added into the frame totals in row order on the host, and the dB values
// come from the shared front (glibc's log10), as on the CPU. Device code is built with -fmad=false, and
// every operation here is spelled with its rounding (__fadd_rn, __fmul_rn): nothing is contracted.
#include <cstring>

#include "backends/cuda/grid.cuh"
#include "backends/cuda/staged_twin.hpp"
#include "core/implementation.hpp"
#include "features/float_ansnr/front.hpp"
#include "features/float_ansnr/math.hpp"
#include "features/float_ansnr/schema.hpp"

namespace vqtwin {
namespace float_ansnr {
namespace {

constexpr unsigned kThreads = 256;

// The filters' fp32 taps (math.hpp), passed by value.
struct Taps {
  float ref[kRefWidth * kRefWidth];
  float dis[kDisWidth * kDisWidth];
};

// The CPU's load(): v + -128 at 8 bits, v / scale + -128 above.
template <class T>
__device__ inline float sample(const cuda::DevicePlane& p, int x, int y, float scale) {
  const float v = float(p.row<T>(y)[x]);
  if constexpr (sizeof(T) == 1) return __fadd_rn(v, -128.0f);
  else return __fadd_rn(__fdiv_rn(v, scale), -128.0f);
}

// One filtered sample, N x N taps `f`, edges mirrored. `reversed` (the planted bug) adds the taps
// right to left.
template <class T, int N>
__device__ inline float filtered(const cuda::DevicePlane& p, const float* f, int x, int y, float scale, bool reversed) {
  const int w = p.width, h = p.height;
  float total = 0.0f;
  for (int r = 0; r < N; ++r) {
    const int yy = mirror(y - N / 2 + r, h);
    float inner = 0.0f;
    for (int k = 0; k < N; ++k) {
      const int t = reversed ? N - 1 - k : k;
      inner = __fadd_rn(inner, __fmul_rn(f[r * N + t], sample<T>(p, mirror(x - N / 2 + t, w), yy, scale)));
    }
    total = __fadd_rn(total, inner);
  }
  return total;
}

template <class T>
__global__ void filter_kernel(cuda::DevicePlane ref, cuda::DevicePlane dis, Taps taps, float scale, bool plant,
                              float* ref_out, float* dis_out) {
  const int w = ref.width;
  VQTWIN_GRID_STRIDE(i, (long long)w * ref.height) {
    const int y = int(i / w), x = int(i % w);
    ref_out[i] = filtered<T, kRefWidth>(ref, taps.ref, x, y, scale, plant);
    dis_out[i] = filtered<T, kDisWidth>(dis, taps.dis, x, y, scale, plant);
  }
}

// Row y's signal and noise, each an fp32 sum from 0 in column order: rows[y], rows[h + y].
__global__ void row_sums_kernel(const float* ref, const float* dis, int w, int h, float* rows) {
  const int y = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (y >= h) return;
  const float* r = ref + std::size_t(y) * std::size_t(w);
  const float* d = dis + std::size_t(y) * std::size_t(w);
  float s = 0.0f, e = 0.0f;
  for (int x = 0; x < w; ++x) {
    const float diff = __fsub_rn(r[x], d[x]);
    s = __fadd_rn(s, __fmul_rn(r[x], r[x]));
    e = __fadd_rn(e, __fmul_rn(diff, diff));
  }
  rows[y] = s;
  rows[h + y] = e;
}

class FloatAnsnrCuda final : public cuda::StagedTwin<float> {
 public:
  unsigned planes_read() const override { return 1; }  // luma

 private:
  void declare(const PictureFormat& f, seam::TwinPlan<float>& plan) override {
    front_.init(f);
    w_ = f.width;
    h_ = f.height;
    bytes_ = f.bytes_per_sample();
    std::memcpy(taps_.ref, kRefFilter, sizeof taps_.ref);
    std::memcpy(taps_.dis, kDisFilter, sizeof taps_.dis);
    plan.results(2 * std::size_t(h_));  // each row's signal, then each row's noise
    filtered_ = plan.scratch<float>(2 * std::size_t(w_) * std::size_t(h_));
  }

  void record(const cuda::Frame<float>& frame) override {
    const cudaStream_t st = frame.stream();
    const std::size_t n = std::size_t(w_) * std::size_t(h_);
    float* r = frame[filtered_];
    float* d = r + n;
    const bool plant = cuda::plant("float_ansnr_cuda_tap_order");
    const unsigned blocks = cuda::blocks_for((long long)n, kThreads);
    const cuda::DevicePlane& rp = frame.ref().plane[0];
    const cuda::DevicePlane& dp = frame.dist().plane[0];
    if (bytes_ == 1)
      filter_kernel<unsigned char><<<blocks, kThreads, 0, st>>>(rp, dp, taps_, front_.scale(), plant, r, d);
    else
      filter_kernel<unsigned short><<<blocks, kThreads, 0, st>>>(rp, dp, taps_, front_.scale(), plant, r, d);
    cuda::check(cudaGetLastError(), "float_ansnr filter kernel launch");
    row_sums_kernel<<<cuda::blocks_for(h_, 128), 128, 0, st>>>(r, d, w_, h_, frame.results());
    cuda::check(cudaGetLastError(), "float_ansnr row sums kernel launch");
  }

  void reduce(std::span<const float> rows, unsigned index, FeatureSink& out) override {
    // The CPU's (and libvmaf's) frame totals: fp32, from 0, the rows in order.
    float signal = 0, noise = 0;
    for (int y = 0; y < h_; ++y) {
      signal += rows[std::size_t(y)];
      noise += rows[std::size_t(h_ + y)];
    }
    front_.emit(signal, noise, index, out);
  }

  Front front_;
  Taps taps_{};
  int w_ = 0, h_ = 0, bytes_ = 1;
  seam::Buffer<float> filtered_;
};

}  // namespace
}  // namespace float_ansnr

extern const ExtractorInfo kFloatAnsnrCudaInfo;
const ExtractorInfo kFloatAnsnrCudaInfo = twin_extractor<float_ansnr::FloatAnsnrCuda>(
    float_ansnr::kSpec, Backend::kCuda, "float_ansnr_cuda", nullptr);

}  // namespace vqtwin
