// psnr_cuda: the psnr front (parameters, names, dB/MSE/APSNR math) on the device's exact per-plane
// SSE. Same spec as the CPU extractor: same names, options and outputs by construction.
#include <vector>

#include "backends/cuda/sse.hpp"
#include "backends/cuda/twin.hpp"
#include "core/implementation.hpp"
#include "features/psnr/front.hpp"
#include "features/psnr/schema.hpp"

namespace vqtwin {
namespace psnr {
namespace {

class PsnrCuda final : public cuda::CudaTwin {
 public:
  explicit PsnrCuda(const OptionValues& o) : front_(o) {}
  void flush(FeatureSink& out) override { front_.flush(out); }

 private:
  struct SlotState {
    cuda::DeviceArray<unsigned long long> sums{3};
    cuda::PinnedArray<unsigned long long> host{3};
  };

  void init_device(const PictureFormat& f, unsigned slots) override {
    front_.init(f);
    format_ = f;
    bytes_ = f.bytes_per_sample();
    state_.clear();
    for (unsigned i = 0; i < slots; ++i) state_.push_back(std::make_unique<SlotState>());
  }

  void enqueue(cuda::CudaSlot& slot, unsigned) override {
    SlotState& s = *state_[slot.index()];
    cuda::check(cudaMemsetAsync(s.sums.get(), 0, s.sums.bytes(), slot.stream()), "cudaMemsetAsync");
    for (int p = 0; p < front_.planes(); ++p) {
      // The scored region (libvmaf's floor-sized chroma), the top-left of the stored plane.
      cuda::DevicePlane ref = slot.device_ref().plane[p], dist = slot.device_dist().plane[p];
      ref.width = dist.width = format_.scored_width(p);
      ref.height = dist.height = format_.scored_height(p);
      // A plane of no samples (1-pixel-wide or -high 4:2:0) keeps the zeroed sum; no empty launch.
      if (ref.width > 0 && ref.height > 0) cuda::enqueue_plane_sse(ref, dist, bytes_, s.sums.get() + p, slot.stream());
    }
    cuda::check(cudaMemcpyAsync(s.host.get(), s.sums.get(), s.sums.bytes(), cudaMemcpyDeviceToHost, slot.stream()),
                "cudaMemcpyAsync");
  }

  void read_back(cuda::CudaSlot& slot, unsigned index, FeatureSink& out) override {
    SlotState& s = *state_[slot.index()];
    std::uint64_t sse[3] = {s.host[0], s.host[1], s.host[2]};
    if (cuda::plant("psnr_cuda_chroma_sse")) sse[1] += 1;  // the harness must catch this
    front_.emit(sse, index, out);
  }

  Front front_;
  PictureFormat format_{};
  int bytes_ = 1;
  std::vector<std::unique_ptr<SlotState>> state_;
};

}  // namespace
}  // namespace psnr

extern const ExtractorInfo kPsnrCudaInfo;
const ExtractorInfo kPsnrCudaInfo = twin_extractor<psnr::PsnrCuda>(psnr::kSpec, Backend::kCuda, "psnr_cuda", nullptr);

}  // namespace vqtwin
