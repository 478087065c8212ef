// float_motion_cuda: the float_motion front (names, refusals, the temporal schedule, fps weight,
// blend and clip) on blurs and SADs computed on the device with the CPU reference's arithmetic:
//   - per plane, the separable blur of the raw samples (vertical pass, then horizontal, reflect-101,
//     fp32 products added left to right: math.hpp's blur_dot), one thread per output;
//   - with motion_add_scale1, the half-size bilinear planes (math.hpp's bilinear_at, the CPU's
//     position tables uploaded once), of each chroma plane as libvmaf's resampler reads it
//     (math.hpp's resample_input_at);
//   - the SAD against the previous frame's blur: each row summed left to right in fp32 by one
//     thread, the row sums added in row order by one thread -- the CPU's exact sequence.
// Temporal state: frame n's blur goes to ring slot n % 2. A temporal twin: the backend makes frame
// n's work (on its slot's stream) wait for frame n-1's, so the previous blur is complete and nothing
// still reads the ring slot frame n overwrites (frame n-2's blur, last read by frame n-1's SAD).
#include <algorithm>
#include <cmath>
#include <vector>

#include "backends/cuda/staged_twin.hpp"
#include "core/implementation.hpp"
#include "features/float_motion/front.hpp"
#include "features/float_motion/twin_plan.hpp"
#include "features/float_motion/math.hpp"
#include "features/float_motion/schema.hpp"
#include "features/float_ssim/decimate_exact.hpp"

namespace vqtwin {
namespace float_motion {
namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kTotalThreads = 1024;
constexpr int kRing = 2;

// Vertical pass (or the whole pass-through blur of motion_filter_size=1): raw samples -> `out`.
template <class T>
__global__ void vertical_kernel(cuda::DevicePlane src, float recip, int taps, bool identity, BlurTaps f, float* out) {
  const int w = src.width, h = src.height, r = taps / 2;
  const long n = long(w) * h;
  for (long i = long(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += long(gridDim.x) * blockDim.x) {
    const int x = int(i % w), y = int(i / w);
    if (identity) {
      out[i] = motion_sample(src.row<T>(y)[x], recip);
      continue;
    }
    float v[5];
    for (int k = 0; k < taps; ++k) v[k] = motion_sample(src.row<T>(reflect101(y - r + k, h))[x], recip);
    out[i] = blur_dot(f, taps, v);
  }
}

// Horizontal pass of the vertically filtered plane (w x h, packed).
__global__ void horizontal_kernel(const float* tmp, int w, int h, int taps, BlurTaps f, float* out) {
  const int r = taps / 2;
  const long n = long(w) * h;
  for (long i = long(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += long(gridDim.x) * blockDim.x) {
    const int x = int(i % w), y = int(i / w);
    const float* row = tmp + long(y) * w;
    float v[5];
    for (int k = 0; k < taps; ++k) v[k] = row[reflect101(x - r + k, w)];
    out[i] = blur_dot(f, taps, v);
  }
}

// motion_add_scale1's half-size plane (dw x dh) of a blurred plane (row stride w).
__global__ void half_kernel(const float* src, int w, int dw, int dh, const int* x0, const int* x1, const float* fx,
                            const int* y0, const int* y1, const float* fy, float* dst) {
  const long n = long(dw) * dh;
  for (long i = long(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += long(gridDim.x) * blockDim.x) {
    const int x = int(i % dw), y = int(i / dw);
    dst[i] = bilinear_at(src + long(y0[y]) * w, src + long(y1[y]) * w, x0[x], x1[x], fx[x], fy[y]);
  }
}

// The plane as libvmaf's half-size resampler reads it (math.hpp: resample_input_at), into `dst`.
__global__ void resample_input_kernel(const float* blur, int w, int h, ResampleView v, float* dst) {
  const long n = long(w) * h;
  for (long i = long(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += long(gridDim.x) * blockDim.x)
    dst[i] = resample_input_at(blur, w, v, int(i / w), int(i % w));
}

// One warp per row: sum |a - b| left to right from 0 in fp32. The lanes load 32 consecutive
// differences at a time (one cache line, not 32), then every lane adds them in order, each taken
// from its lane by a shuffle: the same additions in the same order as one thread's loop.
constexpr unsigned kSadThreads = 256;
__global__ void row_sad_kernel(const float* a, const float* b, int w, int h, float* rows) {
  const long row = (long(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = int(threadIdx.x % 32);
  if (row >= h) return;  // the whole warp
  const float* ar = a + row * w;
  const float* br = b + row * w;
  float s = 0.0f;
  for (int x0 = 0; x0 < w; x0 += 32) {
    const int x = x0 + lane;
    const float d = x < w ? fabsf(ar[x] - br[x]) : 0.0f;
    const int m = w - x0 < 32 ? w - x0 : 32;
    for (int k = 0; k < m; ++k) s = s + __shfl_sync(0xffffffffu, d, k);
  }
  if (lane == 0) rows[row] = s;
}

// One block: the row sums staged in shared memory, added in row order from 0 by one thread.
__global__ void total_kernel(const float* rows, int h, float* total) {
  __shared__ float staged[4096];
  float sum = 0.0f;
  for (int base = 0; base < h; base += 4096) {
    const int count = h - base < 4096 ? h - base : 4096;
    for (int i = threadIdx.x; i < count; i += blockDim.x) staged[i] = rows[base + i];
    __syncthreads();
    if (threadIdx.x == 0)
      for (int i = 0; i < count; ++i) sum = sum + staged[i];
    __syncthreads();
  }
  if (threadIdx.x == 0) *total = sum;
}

// The SAD total of two w x h planes into *total (rows: h floats of scratch).
void enqueue_sad(const float* a, const float* b, int w, int h, float* rows, float* total, cudaStream_t st) {
  row_sad_kernel<<<cuda::blocks_for((long long)h * 32, kSadThreads, 1, 0x7fffffffu), kSadThreads, 0, st>>>(a, b, w, h, rows);
  cuda::check(cudaGetLastError(), "float_motion row SAD launch");
  total_kernel<<<1, kTotalThreads, 0, st>>>(rows, h, total);
  cuda::check(cudaGetLastError(), "float_motion SAD total launch");
}

Params planted(const OptionValues& o) {
  Params p = Params::from(o);
  if (cuda::plant("float_motion_cuda_no_cap")) p.max_val = INFINITY;
  return p;
}

class FloatMotionCuda final : public cuda::StagedTwin<float> {
 public:
  explicit FloatMotionCuda(const OptionValues& o) : front_(o, planted(o)) {}
  void flush(FeatureSink& out) override { front_.flush(out); }
  // Luma, and the chroma planes with motion_add_uv; nothing at all with motion_force_zero.
  unsigned planes_read() const override {
    if (!front_.computes() && !cuda::plant("float_motion_cuda_force_zero_at_flush")) return 0;
    return front_.params().add_uv ? kAllPlanes : 1;
  }

 private:
  // One plane's geometry, ring and half-size tables (persistent buffers: the ring is read by the
  // next frame).
  struct Plane : TwinPlane {
    seam::Buffer<float> blur[kRing], half[kRing];
    seam::Buffer<int> x0, x1, y0, y1;
    seam::Buffer<float> fx, fy;
  };

  // The planted bug "force_zero read only at flush": frames are computed and emitted anyway.
  bool force_zero_only_at_flush() const {
    return front_.params().force_zero && cuda::plant("float_motion_cuda_force_zero_at_flush") && big_enough_;
  }
  bool computes() const { return front_.computes() || force_zero_only_at_flush(); }

  void declare(const PictureFormat& f, seam::TwinPlan<float>& plan) override {
    front_.init(f);
    bitdepth_ = f.bitdepth;
    const Params& p = front_.params();
    taps_ = taps_read(p.filter_size);
    big_enough_ = true;
    for (int i = 0; i < front_.planes(); ++i)
      big_enough_ = big_enough_ && Front::plane_width(f, i) > taps_ / 2 && Front::plane_height(f, i) > taps_ / 2 &&
                    (!p.add_scale1 || half_size(Front::plane_width(f, i)) <= 7680);
    planes_.clear();
    if (!computes()) return;
    per_plane_ = front_.results_per_plane();
    plan.results(std::size_t(per_plane_) * std::size_t(front_.planes()));
    plan.temporal();  // frame n's SAD reads frame n-1's blur; frame n overwrites frame n-2's
    const TwinScratch s =
        declare_twin_planes(front_, f, plan, cuda::plant("float_motion_cuda_uv_scale1_stride"), planes_, &declare_half);
    tmp_ = s.tmp;
    rows_ = s.rows;
  }

  // The CPU's resampler positions (math.hpp: bilinear_tap), computed once on the host.
  static void declare_half(Plane& pl, seam::TwinPlan<float>& plan) {
    std::vector<int> x0, x1, y0, y1;
    std::vector<float> fx, fy;
    for (int x = 0; x < pl.dw; ++x) {
      const BilinearTap t = bilinear_tap(x, pl.w, pl.dw);
      x0.push_back(t.i0);
      x1.push_back(t.i1);
      fx.push_back(t.frac);
    }
    for (int y = 0; y < pl.dh; ++y) {
      const BilinearTap t = bilinear_tap(y, pl.h, pl.dh);
      y0.push_back(t.i0);
      y1.push_back(t.i1);
      fy.push_back(t.frac);
    }
    pl.x0 = plan.table(std::span<const int>(x0));
    pl.x1 = plan.table(std::span<const int>(x1));
    pl.fx = plan.table(std::span<const float>(fx));
    pl.y0 = plan.table(std::span<const int>(y0));
    pl.y1 = plan.table(std::span<const int>(y1));
    pl.fy = plan.table(std::span<const float>(fy));
    const std::size_t n = std::size_t(pl.dw) * std::size_t(pl.dh);
    for (auto& b : pl.half) b = plan.persistent<float>(n);
  }

  void record(const cuda::Frame<float>& frame) override {
    if (!computes()) return;
    const unsigned index = frame.index();
    const cudaStream_t st = frame.stream();
    const Params& p = front_.params();
    const float recip = float_ssim::sample_scale(bitdepth_);
    const BlurTaps f = taps_ == 3 ? taps3() : taps5();
    const bool identity = p.filter_size == 1;
    const int cur = int(index % kRing), prev = int((index + 1) % kRing);
    float* const tmp = frame[tmp_];
    float* const rows = frame[rows_];
    for (int i = 0; i < front_.planes(); ++i) {
      const Plane& pl = planes_[std::size_t(i)];
      cuda::DevicePlane src = frame.ref().plane[i];
      src.width = pl.w;  // the scored region (the top-left of the stored plane)
      src.height = pl.h;
      const long n = long(pl.w) * pl.h;
      const unsigned blocks = cuda::blocks_for(n, kThreads);
      float* out = frame[pl.blur[cur]];
      float* first = identity ? out : tmp;
      if (bitdepth_ > 8)
        vertical_kernel<unsigned short><<<blocks, kThreads, 0, st>>>(src, recip, taps_, identity, f, first);
      else
        vertical_kernel<unsigned char><<<blocks, kThreads, 0, st>>>(src, recip, taps_, identity, f, first);
      cuda::check(cudaGetLastError(), "float_motion vertical blur launch");
      if (!identity) {
        horizontal_kernel<<<blocks, kThreads, 0, st>>>(tmp, pl.w, pl.h, taps_, f, out);
        cuda::check(cudaGetLastError(), "float_motion horizontal blur launch");
      }
      if (p.add_scale1) {
        const float* half_src = out;
        if (!pl.view.identity()) {  // tmp is free again: the horizontal pass has read it
          resample_input_kernel<<<blocks, kThreads, 0, st>>>(out, pl.w, pl.h, pl.view, tmp);
          cuda::check(cudaGetLastError(), "float_motion resampler input launch");
          half_src = tmp;
        }
        half_kernel<<<cuda::blocks_for((long long)pl.dw * pl.dh, kThreads), kThreads, 0, st>>>(
            half_src, pl.w, pl.dw, pl.dh, frame[pl.x0], frame[pl.x1], frame[pl.fx], frame[pl.y0], frame[pl.y1],
            frame[pl.fy], frame[pl.half[cur]]);
        cuda::check(cudaGetLastError(), "float_motion half-size launch");
      }
      if (index > 0) {
        float* const totals = frame.results() + per_plane_ * i;
        enqueue_sad(out, frame[pl.blur[prev]], pl.w, pl.h, rows, totals, st);
        if (p.add_scale1) enqueue_sad(frame[pl.half[cur]], frame[pl.half[prev]], pl.dw, pl.dh, rows, totals + 1, st);
      }
    }
    if (index == 0) frame.skip_results();  // no previous frame: no SAD
  }

  void reduce(std::span<const float> totals, unsigned index, FeatureSink& out) override {
    if (!computes()) return front_.emit(index, 0.0, out);
    const double score = front_.twin_score(planes_, totals);
    if (force_zero_only_at_flush()) front_.emit_scores(index, score, out);
    else front_.emit(index, score, out);
  }

  Front front_;
  int bitdepth_ = 8, taps_ = 5, per_plane_ = 1;
  bool big_enough_ = true;
  std::vector<Plane> planes_;
  seam::Buffer<float> tmp_, rows_;  // the vertical pass; the SAD's row sums
};

}  // namespace
}  // namespace float_motion

extern const ExtractorInfo kFloatMotionCudaInfo;
const ExtractorInfo kFloatMotionCudaInfo = twin_extractor<float_motion::FloatMotionCuda>(
    float_motion::kSpec, Backend::kCuda, "float_motion_cuda", nullptr);

}  // namespace vqtwin
