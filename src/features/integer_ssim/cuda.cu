// integer_ssim_cuda: the integer_ssim front (refusals, total weight, score, dB) on window terms
// computed on the device: one thread per pixel takes its 9x9 window's exact int64 moments
// (math.hpp: window_moments) and the CPU's own double formula (math.hpp: window_term; no
// contraction, -fmad=false), and the terms' raster-order double sum is reproduced exactly
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

constexpr unsigned kThreads = 256;

// `ratio` is 1 except under the planted bug (0.9999999), which the twin harness must catch.
template <class T, class Acc>
__global__ void term_kernel(cuda::DevicePlane ref, cuda::DevicePlane dist, double peak_sq, double ratio,
                            double* terms) {
  const int w = ref.width, h = ref.height;
  const long n = long(w) * h;
  for (long i = long(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += long(gridDim.x) * blockDim.x) {
    const int x = int(i % w), y = int(i / w);
    const Moments m = window_moments<T, Acc>(ref.row<T>(0), ref.stride, dist.row<T>(0), dist.stride, w, h, x, y);
    const double t = window_term(m, peak_sq);
    terms[i] = ratio == 1.0 ? t : t * ratio;
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
    const unsigned blocks = cuda::blocks_for((long long)r.width * r.height, kThreads);
    // Row sums in 64 bits above 8 bits: 10- and 12-bit pictures may hold any 16-bit word
    // (core/sample_range.hpp), whose row sums pass 2^32.
    if (bitdepth_ > 8)
      term_kernel<unsigned short, std::uint64_t><<<blocks, kThreads, 0, st>>>(r, d, front_.peak_sq(), ratio, s.terms.get());
    else
      term_kernel<unsigned char, std::uint32_t><<<blocks, kThreads, 0, st>>>(r, d, front_.peak_sq(), ratio, s.terms.get());
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
