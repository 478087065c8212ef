// psnr_cuda: the psnr front (parameters, names, dB/MSE/APSNR math) on the device's exact per-plane
// SSE. Same spec as the CPU extractor: same names, options and outputs by construction.
#include <cstdint>

#include "backends/cuda/sse.hpp"
#include "backends/cuda/staged_twin.hpp"
#include "core/implementation.hpp"
#include "features/psnr/front.hpp"
#include "features/psnr/schema.hpp"

namespace vqtwin {
namespace psnr {
namespace {

class PsnrCuda final : public cuda::StagedTwin<unsigned long long> {
 public:
  explicit PsnrCuda(const OptionValues& o) : front_(o) {}
  void flush(FeatureSink& out) override { front_.flush(out); }

 private:
  void declare(const PictureFormat& f, seam::TwinPlan<unsigned long long>& plan) override {
    front_.init(f);
    format_ = f;
    plan.results(3, /*zeroed=*/true);  // the SSE of each plane
  }

  void record(const cuda::Frame<unsigned long long>& frame) override {
    const int bytes = format_.bytes_per_sample();
    for (int p = 0; p < front_.planes(); ++p) {
      // The scored region (libvmaf's floor-sized chroma), the top-left of the stored plane.
      cuda::DevicePlane ref = frame.ref().plane[p], dist = frame.dist().plane[p];
      ref.width = dist.width = format_.scored_width(p);
      ref.height = dist.height = format_.scored_height(p);
      // A plane of no samples (1-pixel-wide or -high 4:2:0) keeps the zeroed sum; no empty launch.
      if (ref.width > 0 && ref.height > 0) cuda::enqueue_plane_sse(ref, dist, bytes, frame.results() + p, frame.stream());
    }
  }

  void reduce(std::span<const unsigned long long> sums, unsigned index, FeatureSink& out) override {
    std::uint64_t sse[3] = {sums[0], sums[1], sums[2]};
    if (cuda::plant("psnr_cuda_chroma_sse")) sse[1] += 1;  // the harness must catch this
    front_.emit(sse, index, out);
  }

  Front front_;
  PictureFormat format_{};
};

}  // namespace
}  // namespace psnr

extern const ExtractorInfo kPsnrCudaInfo;
const ExtractorInfo kPsnrCudaInfo = twin_extractor<psnr::PsnrCuda>(psnr::kSpec, Backend::kCuda, "psnr_cuda", nullptr);

}  // namespace vqtwin
