// float_psnr_cuda: the float_psnr front on the device. 8/10/12 bits: the exact integer SSE (any
// order gives libvmaf's double total, see front.hpp). 16 bits: libvmaf's own order, fp32 difference
// and square added to a double in raster order: one thread, sequential, exactly the CPU's steps.
// At 10/12 bits a sample of 2^bpc or more (libvmaf accepts them) voids the exact-integer argument, as
// on the CPU: the OR of every luma sample is read back with the SSE, and a frame that has such a
// sample is computed again in libvmaf's order (rare: only out-of-range input).
#include <vector>

#include "backends/cuda/sse.hpp"
#include "backends/cuda/twin.hpp"
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

class FloatPsnrCuda final : public cuda::CudaTwin {
 private:
  struct SlotState {
    cuda::DeviceArray<unsigned long long> sse{1};
    cuda::DeviceArray<double> noise{1};
    cuda::PinnedArray<unsigned long long> host_sse{1};
    cuda::PinnedArray<double> host_noise{1};
    cuda::DeviceArray<unsigned> seen{1};
    cuda::PinnedArray<unsigned> host_seen{1};
  };

  void init_device(const PictureFormat& f, unsigned slots) override {
    front_.init(f);
    bytes_ = f.bytes_per_sample();
    bitdepth_ = f.bitdepth;
    state_.clear();
    for (unsigned i = 0; i < slots; ++i) state_.push_back(std::make_unique<SlotState>());
  }

  void enqueue(cuda::CudaSlot& slot, unsigned) override {
    SlotState& s = *state_[slot.index()];
    const cuda::DevicePlane& r = slot.device_ref().plane[0];
    const cuda::DevicePlane& d = slot.device_dist().plane[0];
    if (front_.exact_integer()) {
      cuda::check(cudaMemsetAsync(s.sse.get(), 0, s.sse.bytes(), slot.stream()), "cudaMemsetAsync");
      cuda::enqueue_plane_sse(r, d, bytes_, s.sse.get(), slot.stream());
      cuda::check(cudaMemcpyAsync(s.host_sse.get(), s.sse.get(), s.sse.bytes(), cudaMemcpyDeviceToHost, slot.stream()),
                  "cudaMemcpyAsync");
      if (bitdepth_ > 8) {
        constexpr unsigned kThreads = 256;
        cuda::check(cudaMemsetAsync(s.seen.get(), 0, s.seen.bytes(), slot.stream()), "cudaMemsetAsync");
        or_samples_kernel<<<cuda::blocks_for((long long)r.width * r.height, kThreads, 1, 1024), kThreads, 0,
                            slot.stream()>>>(r, d, s.seen.get());
        cuda::check(cudaGetLastError(), "float_psnr sample OR kernel launch");
        cuda::check(cudaMemcpyAsync(s.host_seen.get(), s.seen.get(), s.seen.bytes(), cudaMemcpyDeviceToHost,
                                    slot.stream()),
                    "cudaMemcpyAsync");
      }
    } else {
      enqueue_sequential(slot, s);
    }
  }

  void enqueue_sequential(cuda::CudaSlot& slot, SlotState& s) const {
    noise_sequential_kernel<<<1, 1, 0, slot.stream()>>>(slot.device_ref().plane[0], slot.device_dist().plane[0],
                                                        front_.scale(), cuda::plant("float_psnr_cuda_fp32_sum"),
                                                        s.noise.get());
    cuda::check(cudaGetLastError(), "float_psnr sequential kernel launch");
    cuda::check(
        cudaMemcpyAsync(s.host_noise.get(), s.noise.get(), s.noise.bytes(), cudaMemcpyDeviceToHost, slot.stream()),
        "cudaMemcpyAsync");
  }

  void read_back(cuda::CudaSlot& slot, unsigned index, FeatureSink& out) override {
    SlotState& s = *state_[slot.index()];
    if (!front_.exact_integer()) return front_.emit_noise(s.host_noise[0], index, out);
    if (bitdepth_ > 8 && (s.host_seen[0] >> bitdepth_) != 0) {
      // An out-of-range sample: libvmaf's order, as the CPU reference takes it (the frame's pictures
      // are still on the device: the slot is not reused before read_back returns).
      enqueue_sequential(slot, s);
      cuda::check(cudaStreamSynchronize(slot.stream()), "float_psnr (cudaStreamSynchronize)");
      return front_.emit_noise(s.host_noise[0], index, out);
    }
    front_.emit_sse(s.host_sse[0], index, out);
  }

  Front front_;
  int bytes_ = 1, bitdepth_ = 8;
  std::vector<std::unique_ptr<SlotState>> state_;
};

}  // namespace
}  // namespace float_psnr

extern const ExtractorInfo kFloatPsnrCudaInfo;
const ExtractorInfo kFloatPsnrCudaInfo =
    twin_extractor<float_psnr::FloatPsnrCuda>(float_psnr::kSpec, Backend::kCuda, "float_psnr_cuda", nullptr);

}  // namespace vqtwin
