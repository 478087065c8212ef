// float_psnr_cuda: the float_psnr front on the device. 8/10/12 bits: the exact integer SSE (any
// order gives libvmaf's double total, see front.hpp). 16 bits: libvmaf's own order, fp32 difference
// and square added to a double in raster order: one thread, sequential, exactly the CPU's steps.
// At 10/12 bits a sample of 2^bpc or more (libvmaf accepts them) voids the exact-integer argument, as
// on the CPU: the OR of every luma sample is read back with the SSE, and a frame that has such a
// sample is computed again in libvmaf's order (rare: only out-of-range input).
#include "backends/cuda/sse.hpp"
#include "backends/cuda/staged_twin.hpp"
#include "core/implementation.hpp"
#include "features/float_psnr/front.hpp"
#include "features/float_psnr/schema.hpp"

namespace vqtwin {
namespace float_psnr {
namespace {

// Raster order, one thread: the double sum's rounding sequence is the CPU's. `plant` (the harness's
// planted bug) accumulates in fp32 instead.
__global__ void noise_sequential_kernel(cuda::DevicePlane ref, cuda::DevicePlane dist, float scale, bool plant,
                                        double* noise) {
  double sum = 0;
  float fsum = 0;
  for (int y = 0; y < ref.height; ++y) {
    const unsigned short* a = ref.row<unsigned short>(y);
    const unsigned short* b = dist.row<unsigned short>(y);
    for (int x = 0; x < ref.width; ++x) {
      const float d = __fsub_rn(__fdiv_rn(float(a[x]), scale), __fdiv_rn(float(b[x]), scale));
      const float sq = __fmul_rn(d, d);
      sum = __dadd_rn(sum, double(sq));
      fsum = __fadd_rn(fsum, sq);
    }
  }
  *noise = plant ? double(fsum) : sum;
}

// The OR of every luma sample of both pictures into *seen (10/12/16-bit planes).
__global__ void or_samples_kernel(cuda::DevicePlane ref, cuda::DevicePlane dist, unsigned* seen) {
  unsigned any = 0;
  const long long n = (long long)ref.width * ref.height;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    const int y = int(i / ref.width), x = int(i % ref.width);
    any |= unsigned(ref.row<unsigned short>(y)[x]) | unsigned(dist.row<unsigned short>(y)[x]);
  }
  for (int o = 16; o > 0; o >>= 1) any |= __shfl_xor_sync(0xffffffffu, any, o);
  if ((threadIdx.x & 31) == 0 && any) atomicOr(seen, any);
}

// A frame's staged values: the SSE and sample OR (8/10/12 bits), or libvmaf's-order noise.
struct Results {
  unsigned long long sse;
  double noise;
  unsigned seen;
};

class FloatPsnrCuda final : public cuda::StagedTwin<Results> {
 private:
  void declare(const PictureFormat& f, seam::TwinPlan<Results>& plan) override {
    front_.init(f);
    bytes_ = f.bytes_per_sample();
    bitdepth_ = f.bitdepth;
    plan.results(1, /*zeroed=*/true);
  }

  void record(const cuda::Frame<Results>& frame) override {
    if (!front_.exact_integer()) return enqueue_sequential(frame);
    const cuda::DevicePlane& r = frame.ref().plane[0];
    const cuda::DevicePlane& d = frame.dist().plane[0];
    Results* s = frame.results();
    cuda::enqueue_plane_sse(r, d, bytes_, &s->sse, frame.stream());
    if (bitdepth_ > 8) {
      constexpr unsigned kThreads = 256;
      or_samples_kernel<<<cuda::blocks_for((long long)r.width * r.height, kThreads, 1, 1024), kThreads, 0,
                          frame.stream()>>>(r, d, &s->seen);
      cuda::check(cudaGetLastError(), "float_psnr sample OR kernel launch");
    }
  }

  void enqueue_sequential(const cuda::Frame<Results>& frame) const {
    noise_sequential_kernel<<<1, 1, 0, frame.stream()>>>(frame.ref().plane[0], frame.dist().plane[0], front_.scale(),
                                                         cuda::plant("float_psnr_cuda_fp32_sum"),
                                                         &frame.results()->noise);
    cuda::check(cudaGetLastError(), "float_psnr sequential kernel launch");
  }

  void read_back(cuda::CudaSlot& slot, unsigned index, FeatureSink& out) override {
    const Results& s = staged(slot).view()[0];
    if (front_.exact_integer() && bitdepth_ > 8 && (s.seen >> bitdepth_) != 0) {
      // An out-of-range sample: libvmaf's order, as the CPU reference takes it (the frame's pictures
      // are still on the device: the slot is not reused before read_back returns).
      const Results& again = restage(slot, index, [&](const cuda::Frame<Results>& f) { enqueue_sequential(f); }).view()[0];
      return front_.emit_noise(again.noise, index, out);
    }
    StagedTwin::read_back(slot, index, out);
  }

  void reduce(std::span<const Results> s, unsigned index, FeatureSink& out) override {
    if (!front_.exact_integer()) return front_.emit_noise(s[0].noise, index, out);
    front_.emit_sse(s[0].sse, index, out);
  }

  Front front_;
  int bytes_ = 1, bitdepth_ = 8;
};

}  // namespace
}  // namespace float_psnr

extern const ExtractorInfo kFloatPsnrCudaInfo;
const ExtractorInfo kFloatPsnrCudaInfo =
    twin_extractor<float_psnr::FloatPsnrCuda>(float_psnr::kSpec, Backend::kCuda, "float_psnr_cuda", nullptr);

}  // namespace vqtwin
