// integer_ssim_cuda: the integer_ssim front (refusals, total weight, score, dB) on window terms
// computed on the device. One block per 32 x 16 tile: the tile's samples and a 4-sample border (0
// outside the picture) staged in shared memory, each row's 9-tap sums (math.hpp: row_sums) once per
// tile, then each window from 9 of them (math.hpp: column_moments): exact integer moments, in 32 bits
// at 8 bits (math.hpp says why they fit), and the CPU's own double formula per pixel (math.hpp:
// window_term; no contraction, -fmad=false). The terms' raster-order double sum is reproduced exactly
// (core/ordered_sum.hpp). Identical frames therefore give exactly 1, as on the CPU.
#include <cstdint>
#include <vector>

#include "backends/cuda/ordered_sum.hpp"
#include "backends/cuda/twin.hpp"
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

class IntegerSsimCuda final : public cuda::CudaTwin {
 public:
  explicit IntegerSsimCuda(const OptionValues& o) : front_(o) {}
  unsigned planes_read() const override { return 1; }  // luma

 private:
  struct SlotState {
    explicit SlotState(std::size_t n) : terms(n), sums(n, 1) {}
    cuda::DeviceArray<double> terms;
    cuda::OrderedSums sums;
    cuda::DeviceArray<double> total{1};
    cuda::PinnedArray<double> host{1};
  };

  void init_device(const PictureFormat& f, unsigned slots) override {
    front_.init(f);
    bitdepth_ = f.bitdepth;
    const std::size_t n = std::size_t(f.width) * std::size_t(f.height);
    state_.clear();
    for (unsigned i = 0; i < slots; ++i) state_.push_back(std::make_unique<SlotState>(n));
  }

  void enqueue(cuda::CudaSlot& slot, unsigned) override {
    SlotState& s = *state_[slot.index()];
    const cuda::DevicePlane& r = slot.device_ref().plane[0];
    const cuda::DevicePlane& d = slot.device_dist().plane[0];
    const cudaStream_t st = slot.stream();
    const double ratio = cuda::plant("integer_ssim_cuda_ratio") ? 0.9999999 : 1.0;
    const dim3 grid(unsigned((r.width + kTileW - 1) / kTileW), unsigned((r.height + kTileH - 1) / kTileH));
    const dim3 block(kTileW, kThreadRows);
    // Above 8 bits, 64-bit sums: 10- and 12-bit pictures may hold any 16-bit word (core/sample_range.hpp).
    if (bitdepth_ > 8)
      term_tile_kernel<unsigned short, std::uint64_t, std::uint64_t>
          <<<grid, block, 0, st>>>(r, d, front_.peak_sq(), ratio, s.terms.get());
    else
      term_tile_kernel<unsigned char, std::uint32_t, std::uint32_t>
          <<<grid, block, 0, st>>>(r, d, front_.peak_sq(), ratio, s.terms.get());
    cuda::check(cudaGetLastError(), "integer_ssim term kernel launch");
    s.sums.enqueue(s.terms.get(), s.total.get(), st);
    cuda::check(cudaMemcpyAsync(s.host.get(), s.total.get(), sizeof(double), cudaMemcpyDeviceToHost, st),
                "cudaMemcpyAsync");
  }

  void read_back(cuda::CudaSlot& slot, unsigned index, FeatureSink& out) override {
    front_.emit(state_[slot.index()]->host[0], index, out);
  }

  Front front_;
  int bitdepth_ = 8;
  std::vector<std::unique_ptr<SlotState>> state_;
};

}  // namespace
}  // namespace integer_ssim

extern const ExtractorInfo kIntegerSsimCudaInfo;
const ExtractorInfo kIntegerSsimCudaInfo = twin_extractor<integer_ssim::IntegerSsimCuda>(
    integer_ssim::kSpec, Backend::kCuda, "integer_ssim_cuda", nullptr);

}  // namespace vqtwin
