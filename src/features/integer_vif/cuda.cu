// vif_cuda: integer VIF's front (names, num/den, scores, debug outputs) on the device's exact sums.
// Per scale: the vertical moments of every sample (a plane each), then the local statistics and the
// per-pixel contribution (math.hpp's accumulate_pixel, the CPU's own function) summed in int64, then
// the two passes of the downsampling filter. Every step is the CPU's integer arithmetic one output
// at a time (cells.hpp); the double block is per pixel and compiled without contraction; the log
// table is the CPU's, copied to the device once.
#include <array>
#include <string>

#include "backends/cuda/reduce.cuh"
#include "backends/cuda/staged_twin.hpp"
#include "core/implementation.hpp"
#include "features/integer_vif/cells.hpp"
#include "features/integer_vif/front.hpp"
#include "features/integer_vif/log_table.hpp"
#include "features/integer_vif/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace integer_vif {
namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kMaxBlocks = 4096;

struct MomentPlanes {
  std::uint32_t* mx;
  std::uint32_t* my;
  std::uint32_t* mxx;
  std::uint32_t* myy;
  std::uint32_t* mxy;
};

template <class T>
__global__ void moments_kernel(const T* x, std::ptrdiff_t stride_x, const T* y, std::ptrdiff_t stride_y, int w, int h,
                               Taps k, MomentShifts sh, MomentPlanes out) {
  const long long n = (long long)w * h;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    const int row = int(i / w), col = int(i % w);
    const Moments m = vertical_moments_at(x, stride_x, y, stride_y, h, k, sh, col, row);
    out.mx[i] = m.mx;
    out.my[i] = m.my;
    out.mxx[i] = m.mxx;
    out.myy[i] = m.myy;
    out.mxy[i] = m.mxy;
  }
}

// acc[0..4) += the scale's four sums (num_log, den_log, lin_sigma2, lin_count).
__global__ void statistic_kernel(MomentPlanes m, int w, int h, Taps k, double gain_limit,
                                 const std::uint16_t* log_table, unsigned long long* acc) {
  Accum a;
  const long long n = (long long)w * h;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    const long long row = i / w * w;
    const int col = int(i % w);
    const MomentRow r = {m.mx + row, m.my + row, m.mxx + row, m.myy + row, m.mxy + row};
    const Sigmas s = sigmas_at(r, w, k, col);
    accumulate_pixel(s.s1, s.s2, s.s12, gain_limit, log_table, a);
  }
  unsigned long long v[4] = {(unsigned long long)a.num_log, (unsigned long long)a.den_log,
                             (unsigned long long)a.lin_sigma2, (unsigned long long)a.lin_count};
  cuda::block_add<4>(v, acc);
}

template <class T>
__global__ void downsample_vertical_kernel(const T* x, std::ptrdiff_t stride, int w, int h, Taps k, Shift sh,
                                           std::uint32_t* v) {
  const int out_h = h / 2;
  const long long n = (long long)w * out_h;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    v[i] = downsample_vertical_at(x, stride, h, k, sh, int(i % w), int(i / w));
}

__global__ void downsample_horizontal_kernel(const std::uint32_t* v, int w, int h, Taps k, std::uint16_t* out) {
  const int out_w = w / 2, out_h = h / 2;
  const long long n = (long long)out_w * out_h;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    const int out_row = int(i / out_w), out_col = int(i % out_w);
    out[i] = downsample_horizontal_at(v + (long long)out_row * w, w, k, out_col);
  }
}

unsigned blocks(long long n) { return cuda::blocks_for(n, kThreads, 1, kMaxBlocks); }

class VifCuda final : public cuda::StagedTwin<unsigned long long> {
 public:
  explicit VifCuda(const OptionValues& o) : front_(o) {}

 private:
  // A slot's planes: per slot, built by the backend (TwinPlan::per_slot).
  struct SlotState {
    SlotState(int w, int h) {
      const std::size_t n = std::size_t(w) * std::size_t(h);
      for (auto& p : moments) p = cuda::DeviceArray<std::uint32_t>(n);
      down = cuda::DeviceArray<std::uint32_t>(std::size_t(w) * std::size_t(h / 2));
      for (int s = 1; s < kNumScales; ++s) {
        const std::size_t m = std::size_t(w >> s) * std::size_t(h >> s);
        scaled_x[s] = cuda::DeviceArray<std::uint16_t>(m);
        scaled_y[s] = cuda::DeviceArray<std::uint16_t>(m);
      }
    }
    MomentPlanes planes() const {
      return {moments[0].get(), moments[1].get(), moments[2].get(), moments[3].get(), moments[4].get()};
    }
    cuda::DeviceArray<std::uint32_t> moments[5];
    cuda::DeviceArray<std::uint32_t> down;  // the vertical pass of a downsampling
    cuda::DeviceArray<std::uint16_t> scaled_x[kNumScales], scaled_y[kNumScales];  // index 0 unused
    unsigned long long* sums = nullptr;         // the frame's results: 4 per scale
    const std::uint16_t* log_table = nullptr;  // the twin's table on the device
  };

  void declare(const PictureFormat& f, seam::TwinPlan<unsigned long long>& plan) override {
    front_.init(f);
    for (int s = 0; s < kNumScales; ++s) taps_[s] = taps_of(s);
    // The CPU's table, copied once (never regenerated with the device's log2).
    log_table_ = plan.table(std::span<const std::uint16_t>(log2_table(), kLogTableSize + 16));
    plan.results(4 * kNumScales, /*zeroed=*/true);  // per scale: num_log, den_log, lin_sigma2, lin_count
    state_ = plan.per_slot<SlotState>(f.width, f.height);
  }

  template <class T>
  void scale_sums(const T* x, std::ptrdiff_t stride_x, const T* y, std::ptrdiff_t stride_y, int w, int h, int scale,
                  SlotState& s, cudaStream_t stream) const {
    const FrameSetup& setup = front_.setup();
    MomentShifts sh = moment_shifts(setup.bpc, scale);
    if (scale > 0 && cuda::plant("vif_cuda_rounding")) sh.mean.round = 0;  // the harness must catch this
    const long long n = (long long)w * h;
    moments_kernel<T><<<blocks(n), kThreads, 0, stream>>>(x, stride_x, y, stride_y, w, h, taps_[scale], sh, s.planes());
    cuda::check(cudaGetLastError(), "VIF moments kernel launch");
    statistic_kernel<<<blocks(n), kThreads, 0, stream>>>(s.planes(), w, h, taps_[scale], setup.gain_limit,
                                                         s.log_table, s.sums + 4 * scale);
    cuda::check(cudaGetLastError(), "VIF statistic kernel launch");
  }

  // Scale `from_scale + 1` of one plane (w x h) into `out` ((w/2) x (h/2), packed).
  template <class T>
  void downsample(const T* x, std::ptrdiff_t stride, int w, int h, int from_scale, std::uint16_t* out, SlotState& s,
                  cudaStream_t stream) const {
    const Taps& k = taps_[from_scale + 1];
    downsample_vertical_kernel<T><<<blocks((long long)w * (h / 2)), kThreads, 0, stream>>>(
        x, stride, w, h, k, downsample_shift(front_.setup().bpc, from_scale), s.down.get());
    cuda::check(cudaGetLastError(), "VIF downsample kernel launch");
    downsample_horizontal_kernel<<<blocks((long long)(w / 2) * (h / 2)), kThreads, 0, stream>>>(s.down.get(), w, h, k,
                                                                                                out);
    cuda::check(cudaGetLastError(), "VIF downsample kernel launch");
  }

  template <class T>
  void compute(const cuda::DevicePlane& ref, const cuda::DevicePlane& dist, SlotState& s, cudaStream_t stream) const {
    const FrameSetup& setup = front_.setup();
    const T* x0 = static_cast<const T*>(ref.data);
    const T* y0 = static_cast<const T*>(dist.data);
    int w = setup.width, h = setup.height;
    // With vif_skip_scale0 the scale-0 statistics are skipped, not the downsampling.
    if (!setup.skip_scale0) scale_sums<T>(x0, ref.stride, y0, dist.stride, w, h, 0, s, stream);
    downsample<T>(x0, ref.stride, w, h, 0, s.scaled_x[1].get(), s, stream);
    downsample<T>(y0, dist.stride, w, h, 0, s.scaled_y[1].get(), s, stream);
    for (int scale = 1; scale < kNumScales; ++scale) {
      w /= 2;
      h /= 2;
      const std::uint16_t* x = s.scaled_x[scale].get();
      const std::uint16_t* y = s.scaled_y[scale].get();
      scale_sums<std::uint16_t>(x, w, y, w, w, h, scale, s, stream);
      if (scale + 1 < kNumScales) {
        downsample<std::uint16_t>(x, w, w, h, scale, s.scaled_x[scale + 1].get(), s, stream);
        downsample<std::uint16_t>(y, w, w, h, scale, s.scaled_y[scale + 1].get(), s, stream);
      }
    }
  }

  void record(const cuda::Frame<unsigned long long>& frame) override {
    SlotState& s = frame[state_];
    s.sums = frame.results();
    s.log_table = frame[log_table_];
    const cudaStream_t stream = frame.stream();
    const cuda::DevicePlane& ref = frame.ref().plane[0];
    const cuda::DevicePlane& dist = frame.dist().plane[0];
    if (front_.setup().bpc == 8) compute<std::uint8_t>(ref, dist, s, stream);
    else compute<std::uint16_t>(ref, dist, s, stream);
  }

  void reduce(std::span<const unsigned long long> staged, unsigned index, FeatureSink& out) override {
    std::array<Accum, kNumScales> sums{};
    const FrameSetup& setup = front_.setup();
    for (int k = 0; k < kNumScales; ++k) {
      const unsigned long long* v = staged.data() + 4 * k;
      sums[k] = {std::int64_t(v[0]), std::int64_t(v[1]), std::int64_t(v[2]), std::int64_t(v[3])};
      // Every term of every sum is >= 0 and a scale has at most w x h linear-branch pixels, whatever
      // the samples: anything else did not come from the kernels (a transfer or device fault), and is
      // an error rather than a number.
      const std::int64_t pixels = std::int64_t(setup.width >> k) * std::int64_t(setup.height >> k);
      if (sums[k].num_log < 0 || sums[k].den_log < 0 || sums[k].lin_sigma2 < 0 || sums[k].lin_count < 0 ||
          sums[k].lin_count > pixels)
        throw Error("vif_cuda: frame " + std::to_string(index) + ", scale " + std::to_string(k) +
                    ": the device returned sums no frame can give (num_log " + std::to_string(sums[k].num_log) +
                    ", den_log " + std::to_string(sums[k].den_log) + ", lin_sigma2 " +
                    std::to_string(sums[k].lin_sigma2) + ", lin_count " + std::to_string(sums[k].lin_count) + ")");
    }
    front_.emit(sums, index, out);
  }

  Front front_;
  Taps taps_[kNumScales];
  seam::Buffer<std::uint16_t> log_table_;
  seam::Object<SlotState> state_;
};

}  // namespace
}  // namespace integer_vif

extern const ExtractorInfo kIntegerVifCudaInfo;
const ExtractorInfo kIntegerVifCudaInfo =
    twin_extractor<integer_vif::VifCuda>(integer_vif::kSpec, Backend::kCuda, "vif_cuda", nullptr);

}  // namespace vqtwin
