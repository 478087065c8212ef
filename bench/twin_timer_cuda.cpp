// twin_device_time's CUDA clock (events around the twin's kernels on the slot's stream) and its extra
// figure: the ordered double sum (backends/cuda/ordered_sum) on an SSIM-like array, its bits checked
// against the host's loop.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "backends/cuda/memory.hpp"
#include "backends/cuda/ordered_sum.hpp"
#include "backends/cuda/slot.hpp"
#include "twin_timer.hpp"

namespace vqtwin::bench_support {
namespace {

class CudaTimer final : public TwinTimer {
 public:
  explicit CudaTimer(FrameSlot& slot) : stream_(cuda::cuda_slot(slot).stream()), e0_(true), e1_(true) {}
  void start() override { cuda::check(cudaEventRecord(e0_.get(), stream_), "cudaEventRecord"); }
  void stop() override { cuda::check(cudaEventRecord(e1_.get(), stream_), "cudaEventRecord"); }
  double elapsed_ms() override {
    float t = 0;
    cuda::check(cudaEventElapsedTime(&t, e0_.get(), e1_.get()), "cudaEventElapsedTime");
    return double(t);
  }

 private:
  cudaStream_t stream_;
  cuda::Event e0_, e1_;
};

std::string describe(std::string* why) {
  if (!cuda_device_usable(0, why)) return {};
  cudaDeviceProp prop{};
  cuda::check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  return std::string(prop.name) + ", " + std::to_string(prop.multiProcessorCount) + " SMs (CUDA events)";
}

std::unique_ptr<TwinTimer> timer(FrameSlot& slot, std::string*) { return std::make_unique<CudaTimer>(slot); }

std::uint64_t bits(double d) {
  std::uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}

// The ordered sum of an SSIM-like map (values near 1, some spread) of n elements, against the host loop.
void time_ordered_sum(long long n) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0.6, 1.0);
  std::vector<double> host(static_cast<std::size_t>(n));
  for (double& v : host) v = u(rng);
  double want = 0;
  for (double v : host) want += v;
  cuda::DeviceArray<double> x(host.size()), out(1);
  cuda::PinnedArray<double> got(1);
  cuda::check(cudaMemcpy(x.get(), host.data(), x.bytes(), cudaMemcpyHostToDevice), "cudaMemcpy");
  cuda::Stream stream;
  cuda::Event e0(true), e1(true);
  const cuda::OrderedSums sums(host.size(), 1);
  float best = 1e30f;
  for (int r = 0; r < 5; ++r) {
    cuda::check(cudaEventRecord(e0.get(), stream.get()), "cudaEventRecord");
    sums.enqueue(x.get(), out.get(), stream.get());
    cuda::check(cudaEventRecord(e1.get(), stream.get()), "cudaEventRecord");
    cuda::check(cudaMemcpyAsync(got.get(), out.get(), sizeof(double), cudaMemcpyDeviceToHost, stream.get()), "copy");
    cuda::check(cudaStreamSynchronize(stream.get()), "cudaStreamSynchronize");
    float t = 0;
    cuda::check(cudaEventElapsedTime(&t, e0.get(), e1.get()), "cudaEventElapsedTime");
    best = std::min(best, t);
  }
  std::printf("cuda ordered double sum of %lld values: %10.3f ms  %s\n", n, double(best),
              bits(got[0]) == bits(want) ? "bit-identical to the host loop" : "DIFFERS from the host loop");
}

void extras() {
  time_ordered_sum(1910LL * 1070LL);
  time_ordered_sum(3830LL * 2150LL);
}

}  // namespace

const TimedBackend& cuda_timing() {
  static const TimedBackend b{"cuda", Backend::kCuda, describe, timer, nullptr, extras};
  return b;
}

}  // namespace vqtwin::bench_support
