// integer_ssim_cuda: the integer_ssim front (refusals, total weight, score, dB) on window terms
// computed on the device. One block per 32 x 16 tile: the tile's samples and a 4-sample border (0
// outside the picture) staged in shared memory, each row's 9-tap sums (math.hpp: row_sums) once per
// tile, then each window from 9 of them (math.hpp: column_moments): exact integer moments, in 32 bits
// at 8 bits (math.hpp says why they fit), and the CPU's own double formula per pixel (math.hpp:
// window_term; no contraction, -fmad=false). The terms' raster-order double sum is reproduced exactly
// (core/ordered_sum.hpp). Identical frames therefore give exactly 1, as on the CPU.
#include <cstdint>

#include "backends/cuda/ordered_sum.hpp"
#include "backends/cuda/staged_twin.hpp"
#include "core/implementation.hpp"
#include "features/integer_ssim/front.hpp"
#include "features/integer_ssim/math.hpp"
#include "features/integer_ssim/schema.hpp"

namespace vqtwin {
namespace integer_ssim {
namespace {

constexpr int kTileW = 32, kTileH = 16, kThreadRows = 8;  // a block: 32 x 8 threads, two outputs each
constexpr int kSpanW = kTileW + 2 * kRadius, kSpanH = kTileH + 2 * kRadius;

// `ratio` is 1 except under the planted bug (0.9999999), which the twin harness must catch.
template <class T, class Acc, class ColAcc>
__global__ void __launch_bounds__(kTileW * kThreadRows)
    term_tile_kernel(cuda::DevicePlane ref, cuda::DevicePlane dist, double peak_sq, double ratio, double* terms) {
  __shared__ T s_ref[kSpanH][kSpanW], s_dist[kSpanH][kSpanW];
  __shared__ RowSums<Acc> s_rows[kSpanH][kTileW];
  const int w = ref.width, h = ref.height;
  const int x0 = int(blockIdx.x) * kTileW, y0 = int(blockIdx.y) * kTileH;
  const int tx = int(threadIdx.x), ty = int(threadIdx.y);
  for (int i = ty * kTileW + tx; i < kSpanH * kSpanW; i += kTileW * kThreadRows) {
    const int sy = i / kSpanW, sx = i % kSpanW;
    const int y = y0 - kRadius + sy, x = x0 - kRadius + sx;
    const bool inside = x >= 0 && x < w && y >= 0 && y < h;
    s_ref[sy][sx] = inside ? ref.row<T>(y)[x] : T(0);
    s_dist[sy][sx] = inside ? dist.row<T>(y)[x] : T(0);
  }
  __syncthreads();
  for (int sy = ty; sy < kSpanH; sy += kThreadRows) s_rows[sy][tx] = row_sums<T, Acc>(&s_ref[sy][tx], &s_dist[sy][tx]);
  __syncthreads();
  const int x = x0 + tx;
  if (x >= w) return;
  const std::int64_t wx = weight_used(x, w);
  for (int r = ty; r < kTileH && y0 + r < h; r += kThreadRows) {
    const int y = y0 + r;
    const Moments m = column_moments<ColAcc>(&s_rows[r][tx], kTileW, wx * weight_used(y, h));
    const double t = window_term(m, peak_sq);
    terms[long(y) * w + x] = ratio == 1.0 ? t : t * ratio;
  }
}

class IntegerSsimCuda final : public cuda::StagedTwin<double> {
 public:
  explicit IntegerSsimCuda(const OptionValues& o) : front_(o) {}
  unsigned planes_read() const override { return 1; }  // luma

 private:
  void declare(const PictureFormat& f, seam::TwinPlan<double>& plan) override {
    front_.init(f);
    bitdepth_ = f.bitdepth;
    const std::size_t n = std::size_t(f.width) * std::size_t(f.height);
    plan.results(1);  // the terms' ordered sum
    terms_ = plan.scratch<double>(n);
    sums_ = plan.per_slot<cuda::OrderedSums>(n, 1);
  }

  void record(const cuda::Frame<double>& frame) override {
    const cuda::DevicePlane& r = frame.ref().plane[0];
    const cuda::DevicePlane& d = frame.dist().plane[0];
    const cudaStream_t st = frame.stream();
    const double ratio = cuda::plant("integer_ssim_cuda_ratio") ? 0.9999999 : 1.0;
    const dim3 grid(unsigned((r.width + kTileW - 1) / kTileW), unsigned((r.height + kTileH - 1) / kTileH));
    const dim3 block(kTileW, kThreadRows);
    double* terms = frame[terms_];
    // Above 8 bits, 64-bit sums: 10- and 12-bit pictures may hold any 16-bit word (core/sample_range.hpp).
    if (bitdepth_ > 8)
      term_tile_kernel<unsigned short, std::uint64_t, std::uint64_t>
          <<<grid, block, 0, st>>>(r, d, front_.peak_sq(), ratio, terms);
    else
      term_tile_kernel<unsigned char, std::uint32_t, std::uint32_t>
          <<<grid, block, 0, st>>>(r, d, front_.peak_sq(), ratio, terms);
    cuda::check(cudaGetLastError(), "integer_ssim term kernel launch");
    frame[sums_].enqueue(terms, frame.results(), st);
  }

  void reduce(std::span<const double> total, unsigned index, FeatureSink& out) override {
    front_.emit(total[0], index, out);
  }

  Front front_;
  int bitdepth_ = 8;
  seam::Buffer<double> terms_;
  seam::Object<cuda::OrderedSums> sums_;
};

}  // namespace
}  // namespace integer_ssim

extern const ExtractorInfo kIntegerSsimCudaInfo;
const ExtractorInfo kIntegerSsimCudaInfo = twin_extractor<integer_ssim::IntegerSsimCuda>(
    integer_ssim::kSpec, Backend::kCuda, "integer_ssim_cuda", nullptr);

}  // namespace vqtwin
