// speed_chroma_cuda and speed_temporal_cuda: SpEED with its full-size work on the device and its
// 1/16-size work on the host, through the CPU reference's own code (core.hpp's Speed, front.hpp):
//   device, per plane (one thread per output, cells.hpp): the samples to float (-128), speed_temporal's frame
//     difference (prev - current, one fp32 subtraction per sample, as kernels.cpp's subtract), the
//     prescale (float_vif/cells.hpp's prescaled_at, the function the CPU's resize runs; Lanczos-4
//     weights from the host's lanczos_axis) and the anti-alias blur kept every 16th sample
//     (Speed::decimate: the vertical pass at the kept rows, then the horizontal pass at the kept
//     columns, reflect-101, fp32 products added in tap order from 0, no contraction: one thread per
//     output, the CPU loop's sequence for that output);
//   host, in reduce(): Speed::score_decimated on the staged down_w x down_h planes -- the local mean,
//     the covariance, eigenvalues, solve, log2 and the score, the CPU's code on the same floats.
// The host part is where every libm call is (glibc's log2 and exp, as the CPU), and it runs on
// 1/256 of the samples. speed_temporal keeps the previous frame's float planes on the device (a ring
// of two; frame n's work waits for frame n-1's: plan.temporal()).
#include <algorithm>
#include <optional>
#include <span>
#include <vector>

#include "backends/cuda/grid.cuh"
#include "backends/cuda/staged_twin.hpp"
#include "core/implementation.hpp"
#include "features/float_vif/cells.hpp"
#include "features/speed/cells.hpp"
#include "features/speed/front.hpp"
#include "features/speed/schema.hpp"

namespace vqtwin {
namespace speed {
namespace {

using float_vif::LanczosAxis;
using float_vif::PrescaleMethod;

constexpr unsigned kThreads = 256;
using cells::kStep;
static_assert(kStep == 1 << kScales);

unsigned blocks(long long n) { return cuda::blocks_for(n, kThreads, 1, 4096); }

// The top-left w x h samples of plane p as floats: v + -128 (8-bit), v / scaler + -128 (deeper).
template <class T>
__global__ void to_float_kernel(cuda::DevicePlane p, int w, int h, float scaler, float* out) {
  VQTWIN_GRID_STRIDE(i, (long long)w * h) {
    const int y = int(i / w), x = int(i % w);
    out[i] = cells::to_float(p.row<T>(y)[x], scaler);
  }
}

// out = a - b, sample by sample (speed_temporal's frame difference).
__global__ void subtract_kernel(const float* a, const float* b, long long n, float* out) {
  VQTWIN_GRID_STRIDE(i, n) out[i] = a[i] - b[i];
}

__global__ void prescale_kernel(PrescaleMethod method, const float* src, int sw, int sh, float rx, float ry,
                                const LanczosAxis* ax, const LanczosAxis* ay, int dw, int dh, float* dst) {
  VQTWIN_GRID_STRIDE(i, (long long)dw * dh)
  dst[i] = float_vif::prescaled_at(method, src, sw, sh, rx, ry, ax, ay, int(i % dw), int(i / dw));
}

// The vertical pass at the kept rows (core.cpp's filter_at: columns(), acc = 0, acc += f[t] * s for
// t ascending): out is oh x w.
__global__ void columns_kernel(const float* src, int w, int h, const float* f, int taps, int oh, float* out) {
  VQTWIN_GRID_STRIDE(i, (long long)oh * w) {
    out[i] = cells::column_at(src, w, h, f, taps, int(i / w) * kStep, int(i % w));
  }
}

// The horizontal pass at the kept columns of the oh x w vertical pass: out is oh x ow.
__global__ void rows_kernel(const float* cols, int w, int oh, int ow, const float* f, int taps, float* out) {
  VQTWIN_GRID_STRIDE(i, (long long)oh * ow) {
    out[i] = cells::row_at(cols + (i / ow) * (long long)w, w, f, taps, int(i % ow) * kStep);
  }
}

// Speed::decimate of one packed float plane (dims().w x dims().h) on the device.
class Decimator {
 public:
  void declare(const Speed& s, seam::TwinPlan<float>& plan) {
    d_ = s.dims();
    method_ = s.options().prescale_method;
    resize_ = s.resizes();
    taps_ = int(s.antialias().size());
    kernel_ = plan.table(std::span<const float>(s.antialias()));
    if (resize_) {
      // The CPU's resize (float_vif/prescale.cpp): the same ratios and, for Lanczos-4, axes.
      rx_ = float(d_.w) / float(d_.scaled_w);
      ry_ = float(d_.h) / float(d_.scaled_h);
      if (method_ == PrescaleMethod::kLanczos4) {
        const std::vector<LanczosAxis> ax = float_vif::lanczos_axes(d_.scaled_w, rx_);
        const std::vector<LanczosAxis> ay = float_vif::lanczos_axes(d_.scaled_h, ry_);
        ax_ = plan.table(std::span<const LanczosAxis>(ax));
        ay_ = plan.table(std::span<const LanczosAxis>(ay));
      }
      scaled_ = plan.scratch<float>(std::size_t(d_.scaled_w) * std::size_t(d_.scaled_h));
    }
    columns_ = plan.scratch<float>(std::size_t(d_.down_h) * std::size_t(d_.scaled_w));
  }
  // One decimated plane's size (down_w x down_h).
  std::size_t size() const { return std::size_t(d_.down_w) * std::size_t(d_.down_h); }

  // `plant_tap`: the vertical pass drops its last tap (a planted bug the harness must catch).
  void enqueue(const cuda::Frame<float>& frame, const float* plane, float* out, bool plant_tap) const {
    const cudaStream_t st = frame.stream();
    const float* src = plane;
    const int sw = d_.scaled_w, sh = d_.scaled_h;  // = w, h when nothing is resized
    if (resize_) {
      prescale_kernel<<<blocks((long long)sw * sh), kThreads, 0, st>>>(method_, plane, d_.w, d_.h, rx_, ry_,
                                                                       frame[ax_], frame[ay_], sw, sh, frame[scaled_]);
      cuda::check(cudaGetLastError(), "speed prescale kernel launch");
      src = frame[scaled_];
    }
    float* const cols = frame[columns_];
    const int vertical_taps = plant_tap ? taps_ - 1 : taps_;
    columns_kernel<<<blocks((long long)d_.down_h * sw), kThreads, 0, st>>>(src, sw, sh, frame[kernel_], vertical_taps,
                                                                          d_.down_h, cols);
    cuda::check(cudaGetLastError(), "speed vertical pass launch");
    rows_kernel<<<blocks((long long)size()), kThreads, 0, st>>>(cols, sw, d_.down_h, d_.down_w, frame[kernel_], taps_,
                                                                 out);
    cuda::check(cudaGetLastError(), "speed horizontal pass launch");
  }

 private:
  Dimensions d_;
  PrescaleMethod method_ = PrescaleMethod::kNearest;
  bool resize_ = false;
  int taps_ = 0;
  float rx_ = 1.0f, ry_ = 1.0f;
  seam::Buffer<float> kernel_, scaled_, columns_;
  seam::Buffer<LanczosAxis> ax_, ay_;
};

// Plane p's top-left w x h samples to floats on the frame's stream.
void enqueue_to_float(const cuda::Frame<float>& frame, const cuda::DevicePlane& p, int bitdepth, int w, int h,
                      float* out) {
  const long long n = (long long)w * h;
  if (bitdepth == 8)
    to_float_kernel<unsigned char><<<blocks(n), kThreads, 0, frame.stream()>>>(p, w, h, 1.0f, out);
  else
    to_float_kernel<unsigned short><<<blocks(n), kThreads, 0, frame.stream()>>>(p, w, h, sample_scaler(bitdepth), out);
  cuda::check(cudaGetLastError(), "speed conversion kernel launch");
}

// The staged decimated plane k (each `n` floats, down_w x down_h) as a FloatPlane.
FloatPlane staged_plane(std::span<const float> staged, std::size_t k, const Dimensions& d) {
  FloatPlane p;
  p.resize(d.down_w, d.down_h);
  const std::size_t n = std::size_t(d.down_w) * std::size_t(d.down_h);
  std::copy(staged.begin() + std::ptrdiff_t(k * n), staged.begin() + std::ptrdiff_t((k + 1) * n), p.px.begin());
  return p;
}

// Results: the decimated U of ref, of dist, then V of ref, of dist.
class SpeedChromaCuda final : public cuda::StagedTwin<float> {
 public:
  explicit SpeedChromaCuda(const OptionValues& o) : options_(read_options(o, "speed_chroma", true)), outputs_(o) {}
  unsigned planes_read() const override { return 0x6; }  // U and V

 private:
  void declare(const PictureFormat& f, seam::TwinPlan<float>& plan) override {
    speed_.emplace(options_, chroma_dimensions(f, options_.prescale));
    bitdepth_ = f.bitdepth;
    decimator_.declare(*speed_, plan);
    plan.results(4 * decimator_.size());
    const Dimensions& d = speed_->dims();
    plane_ = plan.scratch<float>(std::size_t(d.w) * std::size_t(d.h));
  }

  void record(const cuda::Frame<float>& frame) override {
    const Dimensions& d = speed_->dims();
    const bool plant = cuda::plant("speed_chroma_cuda_v_reads_u");
    for (int c = 0; c < 2; ++c)
      for (int pic = 0; pic < 2; ++pic) {
        const cuda::DevicePicture& p = pic ? frame.dist() : frame.ref();
        enqueue_to_float(frame, p.plane[plant ? 1 : 1 + c], bitdepth_, d.w, d.h, frame[plane_]);
        decimator_.enqueue(frame, frame[plane_], frame.results() + std::size_t(2 * c + pic) * decimator_.size(), false);
      }
  }

  void reduce(std::span<const float> staged, unsigned index, FeatureSink& out) override {
    float score[2];
    bool singular[2];
    for (int c = 0; c < 2; ++c) {
      FloatPlane a = staged_plane(staged, std::size_t(2 * c), speed_->dims());
      FloatPlane b = staged_plane(staged, std::size_t(2 * c + 1), speed_->dims());
      bool rs = false, ds = false;
      score[c] = speed_->score_decimated(a, b, &rs, &ds);
      singular[c] = rs || ds;
    }
    outputs_.emit(score, singular, index, out);
  }

  Options options_;
  ChromaOutputs outputs_;
  std::optional<Speed> speed_;
  int bitdepth_ = 8;
  Decimator decimator_;
  seam::Buffer<float> plane_;  // one plane as floats
};

// Frame n's luma planes as floats go to ring slot n % 2; from frame 1 on, the results are the
// decimated differences of ref, then of dist.
class SpeedTemporalCuda final : public cuda::StagedTwin<float> {
 public:
  explicit SpeedTemporalCuda(const OptionValues& o)
      : options_(read_options(o, "speed_temporal", false)),
        use_ref_diff_(o.get_bool("speed_use_ref_diff")),
        name_(o.output_name(kTemporal)) {}
  unsigned planes_read() const override { return 1; }  // luma

 private:
  void declare(const PictureFormat& f, seam::TwinPlan<float>& plan) override {
    speed_.emplace(options_, temporal_dimensions(f, options_.prescale));
    bitdepth_ = f.bitdepth;
    decimator_.declare(*speed_, plan);
    plan.results(2 * decimator_.size());
    plan.temporal();  // frame n subtracts frame n-1's planes and overwrites frame n-2's
    // reduce() scores a frame from its own decimated planes: the host's SpEED statistics (most of a
    // frame's time) then run on every worker, not one frame after another.
    plan.collect_any_order();
    const Dimensions& d = speed_->dims();
    const std::size_t n = std::size_t(d.w) * std::size_t(d.h);
    for (int k = 0; k < 2; ++k) {
      ref_[k] = plan.persistent<float>(n);
      dis_[k] = plan.persistent<float>(n);
    }
    diff_ = plan.scratch<float>(n);
  }

  void record(const cuda::Frame<float>& frame) override {
    const Dimensions& d = speed_->dims();
    const int cur = int(frame.index() % 2), prev = 1 - cur;
    enqueue_to_float(frame, frame.ref().plane[0], bitdepth_, d.w, d.h, frame[ref_[cur]]);
    enqueue_to_float(frame, frame.dist().plane[0], bitdepth_, d.w, d.h, frame[dis_[cur]]);
    if (frame.index() == 0) return frame.skip_results();  // no previous frame: the score is 0
    const long long n = (long long)d.w * d.h;
    const bool plant = cuda::plant("speed_temporal_cuda_last_tap");
    float* const diff = frame[diff_];
    // prev - current (libvmaf's subtract_image); dist's against the reference with speed_use_ref_diff.
    subtract_kernel<<<blocks(n), kThreads, 0, frame.stream()>>>(frame[ref_[prev]], frame[ref_[cur]], n, diff);
    cuda::check(cudaGetLastError(), "speed difference launch");
    decimator_.enqueue(frame, diff, frame.results(), plant);
    const float* base = use_ref_diff_ ? frame[ref_[cur]] : frame[dis_[cur]];
    subtract_kernel<<<blocks(n), kThreads, 0, frame.stream()>>>(frame[dis_[prev]], base, n, diff);
    cuda::check(cudaGetLastError(), "speed difference launch");
    decimator_.enqueue(frame, diff, frame.results() + decimator_.size(), plant);
  }

  void reduce(std::span<const float> staged, unsigned index, FeatureSink& out) override {
    if (staged.empty()) return out.put(name_, index, 0.0);
    FloatPlane a = staged_plane(staged, 0, speed_->dims());
    FloatPlane b = staged_plane(staged, 1, speed_->dims());
    out.put(name_, index, speed_->score_decimated(a, b));
  }

  Options options_;
  bool use_ref_diff_;
  std::string name_;
  std::optional<Speed> speed_;
  int bitdepth_ = 8;
  Decimator decimator_;
  seam::Buffer<float> ref_[2], dis_[2];  // the ring: each frame's luma planes as floats
  seam::Buffer<float> diff_;             // a frame difference
};

}  // namespace
}  // namespace speed

extern const ExtractorInfo kSpeedChromaCudaInfo;
const ExtractorInfo kSpeedChromaCudaInfo =
    twin_extractor<speed::SpeedChromaCuda>(speed::kChromaSpec, Backend::kCuda, "speed_chroma_cuda", nullptr);
extern const ExtractorInfo kSpeedTemporalCudaInfo;
const ExtractorInfo kSpeedTemporalCudaInfo =
    twin_extractor<speed::SpeedTemporalCuda>(speed::kTemporalSpec, Backend::kCuda, "speed_temporal_cuda", nullptr);

}  // namespace vqtwin
