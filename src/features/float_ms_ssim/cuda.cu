// float_ms_ssim_cuda: float_ms_ssim's front (level sizes, score, dB, per-level outputs) on the device's
// per-level means. Per frame: the luma of both pictures to float, the four decimations of the pyramid
// (one thread per output, double sums in the CPU's tap order), then per level the horizontal pass of
// the five moments (one thread per output) and each map pixel's vertical pass and l, c, s (cells.hpp
// over float_ssim/math.hpp, fp32/fp64 without contraction, IEEE square root). The map means are the
// CPU's raster-order double sums, reproduced bit for bit by backends/cuda/ordered_sum (the chunked method
// of core/ordered_sum.hpp, shared with the float_ssim and integer_ssim twins); the host divides and
// combines (front.hpp).

#include "backends/cuda/ordered_sum.hpp"
#include "backends/cuda/grid.cuh"
#include "backends/cuda/staged_twin.hpp"
#include "common/luma_float.hpp"
#include "core/implementation.hpp"
#include "features/float_ms_ssim/cells.hpp"
#include "features/float_ms_ssim/front.hpp"
#include "features/float_ms_ssim/schema.hpp"

namespace vqtwin {
namespace float_ms_ssim {
namespace {

constexpr unsigned kThreads = 256;
constexpr int kWindow = float_ssim::kWindow;

unsigned blocks(long long n) { return cuda::blocks_for(n, kThreads, 1, 4096); }

// Level k+1 of both pyramids from level k (w x h): outputs of ref, then of dist.
__global__ void decimate_kernel(const float* ref, const float* dist, int w, int h, LpfTable t, float* out_ref,
                                float* out_dist) {
  const int ow = half_size(w), oh = half_size(h);
  const long long n = (long long)ow * oh;
  VQTWIN_GRID_STRIDE(i, 2 * n) {
    const bool second = i >= n;
    const long long c = second ? i - n : i;
    (second ? out_dist : out_ref)[c] = lpf_decimate_at(second ? dist : ref, w, h, t, int(c % ow), int(c / ow));
  }
}

// The five horizontally filtered moments of every source row: planes of map_w x h.
struct Planes5 {
  float* p[5];
};
__global__ void horizontal_kernel(const float* ref, const float* dist, int w, int h, GaussTaps g, Planes5 out) {
  const int map_w = w - (kWindow - 1);
  VQTWIN_GRID_STRIDE(i, (long long)map_w * h) {
    const int y = int(i / map_w), x = int(i % map_w);
    const std::size_t row = std::size_t(y) * std::size_t(w);
    const Moments5 m = horizontal_moments_at(ref + row, dist + row, g, x);
    for (int q = 0; q < 5; ++q) out.p[q][i] = m.m[q];
  }
}

struct Sqrt {
  __device__ float operator()(float v) const { return __fsqrt_rn(v); }
};

// l, c, s of every map pixel (map_w x map_h, raster order). `plant` swaps c and s of the last pixel.
__global__ void pixel_kernel(Planes5 hp, int map_w, int map_h, GaussTaps g, bool plant, double* l, double* c,
                             double* s) {
  const float* const planes[5] = {hp.p[0], hp.p[1], hp.p[2], hp.p[3], hp.p[4]};
  const long long n = (long long)map_w * map_h;
  VQTWIN_GRID_STRIDE(i, n) {
    const float_ssim::PixelLcs p = pixel_at(planes, std::size_t(map_w), g, int(i % map_w), int(i / map_w), Sqrt{});
    l[i] = p.l;
    const bool swap = plant && i == n - 1;
    c[i] = swap ? p.s : p.c;
    s[i] = swap ? p.c : p.s;
  }
}

class FloatMsSsimCuda final : public cuda::StagedTwin<double> {
 public:
  explicit FloatMsSsimCuda(const OptionValues& o) : front_(o) {}

 private:
  void declare(const PictureFormat& f, seam::TwinPlan<double>& plan) override {
    front_.init(f);
    lpf_ = lpf_table();
    gauss_ = gauss_taps();
    plan.results(3 * kLevels);  // per level: the sums of l, c and s
    for (auto& p : pyramid_) p = plan.scratch<float>(front_.pyramid_size());  // levels 0..4 packed
    const std::size_t h0 = std::size_t(front_.w(0) - (kWindow - 1)) * std::size_t(front_.h(0));
    for (auto& p : horizontal_) p = plan.scratch<float>(h0);
    for (int k = 0; k < kLevels; ++k) {
      lcs_[k] = plan.scratch<double>(3 * map_size(k));  // l, c, s of every map pixel, one after the other
      level_sums_[k] = plan.per_slot<cuda::OrderedSums>(map_size(k), 3);
    }
  }

  std::size_t map_size(int k) const {
    return std::size_t(front_.w(k) - (kWindow - 1)) * std::size_t(front_.h(k) - (kWindow - 1));
  }

  void record(const cuda::Frame<double>& frame) override {
    const cudaStream_t stream = frame.stream();
    const int bpc = frame.ref().bitdepth;
    const float scale = luma_scale(bpc);
    const long long n0 = (long long)front_.w(0) * front_.h(0);
    for (int img = 0; img < 2; ++img) {
      const cuda::DevicePlane& p = img == 0 ? frame.ref().plane[0] : frame.dist().plane[0];
      if (bpc == 8) cuda::luma_to_float_kernel<std::uint8_t><<<blocks(n0), kThreads, 0, stream>>>(p, scale, 0.0f, frame[pyramid_[img]]);
      else cuda::luma_to_float_kernel<std::uint16_t><<<blocks(n0), kThreads, 0, stream>>>(p, scale, 0.0f, frame[pyramid_[img]]);
    }
    cuda::check(cudaGetLastError(), "float_ms_ssim conversion kernel launch");
    float* r = frame[pyramid_[0]];
    float* d = frame[pyramid_[1]];
    for (int k = 1; k < kLevels; ++k) {
      decimate_kernel<<<blocks(2LL * front_.w(k) * front_.h(k)), kThreads, 0, stream>>>(
          r + front_.offset(k - 1), d + front_.offset(k - 1), front_.w(k - 1), front_.h(k - 1), lpf_,
          r + front_.offset(k), d + front_.offset(k));
      cuda::check(cudaGetLastError(), "float_ms_ssim decimation kernel launch");
    }
    const Planes5 hp = {{frame[horizontal_[0]], frame[horizontal_[1]], frame[horizontal_[2]], frame[horizontal_[3]],
                         frame[horizontal_[4]]}};
    const bool plant = cuda::plant("float_ms_ssim_cuda_cs_swap");
    for (int k = 0; k < kLevels; ++k) {
      const int w = front_.w(k), h = front_.h(k);
      const int map_w = w - (kWindow - 1), map_h = h - (kWindow - 1);
      const std::size_t m = map_size(k);
      horizontal_kernel<<<blocks((long long)map_w * h), kThreads, 0, stream>>>(r + front_.offset(k),
                                                                               d + front_.offset(k), w, h, gauss_, hp);
      cuda::check(cudaGetLastError(), "float_ms_ssim horizontal kernel launch");
      double* lcs = frame[lcs_[k]];
      pixel_kernel<<<blocks((long long)map_w * map_h), kThreads, 0, stream>>>(
          hp, map_w, map_h, gauss_, plant && k == kLevels - 1, lcs, lcs + m, lcs + 2 * m);
      cuda::check(cudaGetLastError(), "float_ms_ssim pixel kernel launch");
      frame[level_sums_[k]].enqueue(lcs, frame.results() + 3 * k, stream);
    }
  }

  void reduce(std::span<const double> sums, unsigned index, FeatureSink& out) override {
    float l[kLevels], c[kLevels], sv[kLevels];
    for (int k = 0; k < kLevels; ++k) {
      // The CPU's means: each double sum divided by the map size, rounded to float.
      const double n = double((front_.w(k) - (kWindow - 1)) * (front_.h(k) - (kWindow - 1)));
      l[k] = float(sums[3 * std::size_t(k)] / n);
      c[k] = float(sums[3 * std::size_t(k) + 1] / n);
      sv[k] = float(sums[3 * std::size_t(k) + 2] / n);
    }
    front_.emit(l, c, sv, index, out);
  }

  Front front_;
  LpfTable lpf_{};
  GaussTaps gauss_{};
  seam::Buffer<float> pyramid_[2];  // ref, dist
  seam::Buffer<float> horizontal_[5];
  seam::Buffer<double> lcs_[kLevels];
  seam::Object<cuda::OrderedSums> level_sums_[kLevels];  // the three raster-order sums of each level
};

}  // namespace
}  // namespace float_ms_ssim

extern const ExtractorInfo kFloatMsSsimCudaInfo;
const ExtractorInfo kFloatMsSsimCudaInfo = twin_extractor<float_ms_ssim::FloatMsSsimCuda>(
    float_ms_ssim::kSpec, Backend::kCuda, "float_ms_ssim_cuda", nullptr);

}  // namespace vqtwin
