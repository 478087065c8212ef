// float_motion_cuda: float_motion's front (options, refusals, names, libvmaf's emission schedule) on
// the device's SAD totals. Per frame and scored plane, one block per row: the vertical pass of the
// blur into shared memory, the horizontal pass per column (the blurred row is kept for the next
// frame), |this blur - the previous frame's| per column, and the row's SAD added in column order by
// one thread (the CPU's fp32 order); with motion_add_scale1 the half-size planes one output per thread
// and their row SADs the same way. The host adds the rows in order and forms the scores (front.hpp,
// math.hpp). The previous frame's blurred planes stay on the device (two per plane, indexed by frame);
// frame n's work waits for frame n-1's (an event), as frames of different slots run on different
// streams.
#include <memory>
#include <vector>

#include "backends/cuda/twin.hpp"
#include "core/implementation.hpp"
#include "features/float_motion/cells.hpp"
#include "features/float_motion/front.hpp"
#include "features/float_motion/schema.hpp"

namespace vqtwin {
namespace float_motion {
namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kMaxRowBlocks = 2048;

#define VQTWIN_GRID_STRIDE(i, n) \
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < (n); i += (long long)gridDim.x * blockDim.x)

// One block per row (grid-stride) of a w x h plane: the blur into `out`, and with `prev` the row's SAD
// against it into row_sad[y]. `scratch` (2 * w floats per block) stands in for shared memory when a
// row does not fit there. `plant` adds |.| of one column twice (the harness must catch it).
template <class T>
__global__ void blur_rows_kernel(const T* plane, std::ptrdiff_t stride, int w, int h, float scale, BlurTaps t,
                                 float* out, const float* prev, float* scratch, bool plant, float* row_sad) {
  extern __shared__ float shared[];
  float* vert = scratch ? scratch + std::size_t(blockIdx.x) * 2 * std::size_t(w) : shared;
  float* diff = vert + w;
  for (int y = blockIdx.x; y < h; y += gridDim.x) {
    if (!t.identity) {
      for (int x = threadIdx.x; x < w; x += blockDim.x) vert[x] = vertical_at(plane, stride, h, scale, t, x, y);
      __syncthreads();
    }
    float* o = out + std::size_t(y) * std::size_t(w);
    const float* p = prev ? prev + std::size_t(y) * std::size_t(w) : nullptr;
    for (int x = threadIdx.x; x < w; x += blockDim.x) {
      // [0 0 1 0 0] returns every sample unchanged, as the CPU takes it.
      const float v = t.identity ? sample_at(plane, stride, scale, x, y) : horizontal_at(vert, w, t, x);
      o[x] = v;
      if (p) diff[x] = fabsf(v - p[x]);
    }
    __syncthreads();
    if (p && threadIdx.x == 0) {
      float s = 0;
      for (int x = 0; x < w; ++x) s = s + diff[x];
      if (plant) s = s + diff[0];
      row_sad[y] = s;
    }
    __syncthreads();  // the buffers are rewritten by the next row
  }
}

__global__ void half_kernel(const float* src, int w, int h, int dw, int dh, float* dst) {
  VQTWIN_GRID_STRIDE(i, (long long)dw * dh) dst[i] = half_at(src, w, h, dw, dh, int(i % dw), int(i / dw));
}

// One block per row: the row's SAD of two w x h planes (|a - b| per column, then added in order).
__global__ void sad_rows_kernel(const float* a, const float* b, int w, int h, float* scratch, float* row_sad) {
  extern __shared__ float shared[];
  float* diff = scratch ? scratch + std::size_t(blockIdx.x) * std::size_t(w) : shared;
  for (int y = blockIdx.x; y < h; y += gridDim.x) {
    const std::size_t at = std::size_t(y) * std::size_t(w);
    for (int x = threadIdx.x; x < w; x += blockDim.x) diff[x] = fabsf(a[at + x] - b[at + x]);
    __syncthreads();
    if (threadIdx.x == 0) {
      float s = 0;
      for (int x = 0; x < w; ++x) s = s + diff[x];
      row_sad[y] = s;
    }
    __syncthreads();
  }
}

unsigned blocks(long long n) { return cuda::blocks_for(n, kThreads, 1, 4096); }
unsigned row_grid(int rows) { return unsigned(rows < int(kMaxRowBlocks) ? rows : int(kMaxRowBlocks)); }

class FloatMotionCuda final : public cuda::CudaTwin {
 public:
  explicit FloatMotionCuda(const OptionValues& o) : front_(o) {}
  void flush(FeatureSink& out) override { front_.flush(out); }

 private:
  struct Plane {
    int w = 0, h = 0, dw = 0, dh = 0;
    std::size_t rows_at = 0, half_rows_at = 0;  // offsets of its row totals in a slot's buffer
    cuda::DeviceArray<float> blur[2], half[2];    // frame i's planes at entry i % 2
  };
  struct SlotState {
    cuda::DeviceArray<float> rows;  // every plane's row SADs (full size, then half size)
    cuda::PinnedArray<float> host;
  };

  void init_device(const PictureFormat& f, unsigned slots) override {
    front_.init(f);
    planes_.clear();
    state_.clear();
    if (!front_.reads_pixels()) return;  // motion_force_zero: every score is 0, nothing to compute
    taps_ = blur_taps(front_.filter_size());
    int device = 0, optin = 0;
    cuda::check(cudaGetDevice(&device), "cudaGetDevice");
    cuda::check(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), "cudaDeviceGetAttribute");
    std::size_t rows = 0;
    int widest = 0;
    for (int p = 0; p < front_.planes(); ++p) {
      auto pl = std::make_unique<Plane>();
      pl->w = front_.plane_width(p);
      pl->h = front_.plane_height(p);
      widest = pl->w > widest ? pl->w : widest;
      const std::size_t n = std::size_t(pl->w) * std::size_t(pl->h);
      for (auto& b : pl->blur) b = cuda::DeviceArray<float>(n);
      pl->rows_at = rows;
      rows += std::size_t(pl->h);
      if (front_.add_scale1()) {
        pl->dw = half_size(pl->w);
        pl->dh = half_size(pl->h);
        for (auto& b : pl->half) b = cuda::DeviceArray<float>(std::size_t(pl->dw) * std::size_t(pl->dh));
        pl->half_rows_at = rows;
        rows += std::size_t(pl->dh);
      }
      planes_.push_back(std::move(pl));
    }
    shared_bytes_ = 2 * std::size_t(widest) * sizeof(float);
    use_shared_ = shared_bytes_ <= std::size_t(optin);
    if (use_shared_) {
      cuda::check(cudaFuncSetAttribute(blur_rows_kernel<std::uint8_t>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       int(shared_bytes_)),
                  "cudaFuncSetAttribute");
      cuda::check(cudaFuncSetAttribute(blur_rows_kernel<std::uint16_t>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       int(shared_bytes_)),
                  "cudaFuncSetAttribute");
      cuda::check(cudaFuncSetAttribute(sad_rows_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       int(shared_bytes_ / 2)),
                  "cudaFuncSetAttribute");
    } else {
      scratch_ = cuda::DeviceArray<float>(std::size_t(kMaxRowBlocks) * 2 * std::size_t(widest));
    }
    done_ = std::make_unique<cuda::Event>();
    chained_ = false;
    for (unsigned i = 0; i < slots; ++i) {
      auto st = std::make_unique<SlotState>();
      st->rows = cuda::DeviceArray<float>(rows);
      st->host = cuda::PinnedArray<float>(rows);
      state_.push_back(std::move(st));
    }
  }

  void enqueue(cuda::CudaSlot& slot, unsigned index) override {
    if (!front_.reads_pixels()) return;
    SlotState& s = *state_[slot.index()];
    const cudaStream_t stream = slot.stream();
    // Frame index - 1's blur first (and through it every earlier frame's work).
    if (chained_) cuda::check(cudaStreamWaitEvent(stream, done_->get(), 0), "cudaStreamWaitEvent");
    const bool have_prev = index > 0;
    const int cur = int(index % 2), before = cur ^ 1;
    const float scale = luma_scale(slot.device_ref().bitdepth);
    const bool plant = cuda::plant("float_motion_cuda_sad");
    float* scratch = use_shared_ ? nullptr : scratch_.get();
    for (int p = 0; p < front_.planes(); ++p) {
      Plane& pl = *planes_[std::size_t(p)];
      const cuda::DevicePlane& src = slot.device_ref().plane[p];
      float* out = pl.blur[cur].get();
      const float* prev = have_prev ? pl.blur[before].get() : nullptr;
      float* rows = s.rows.get() + pl.rows_at;
      const std::size_t smem = use_shared_ ? 2 * std::size_t(pl.w) * sizeof(float) : 0;
      if (slot.device_ref().bitdepth == 8)
        blur_rows_kernel<std::uint8_t><<<row_grid(pl.h), kThreads, smem, stream>>>(
            static_cast<const std::uint8_t*>(src.data), src.stride, pl.w, pl.h, scale, taps_, out, prev, scratch,
            plant && p == 0, rows);
      else
        blur_rows_kernel<std::uint16_t><<<row_grid(pl.h), kThreads, smem, stream>>>(
            static_cast<const std::uint16_t*>(src.data), src.stride, pl.w, pl.h, scale, taps_, out, prev, scratch,
            plant && p == 0, rows);
      cuda::check(cudaGetLastError(), "float_motion blur kernel launch");
      if (front_.add_scale1()) {
        half_kernel<<<blocks((long long)pl.dw * pl.dh), kThreads, 0, stream>>>(out, pl.w, pl.h, pl.dw, pl.dh,
                                                                               pl.half[cur].get());
        cuda::check(cudaGetLastError(), "float_motion half-size kernel launch");
        if (have_prev) {
          sad_rows_kernel<<<row_grid(pl.dh), kThreads, use_shared_ ? std::size_t(pl.dw) * sizeof(float) : 0, stream>>>(
              pl.half[cur].get(), pl.half[before].get(), pl.dw, pl.dh, scratch, s.rows.get() + pl.half_rows_at);
          cuda::check(cudaGetLastError(), "float_motion half-size SAD kernel launch");
        }
      }
    }
    if (have_prev)
      cuda::check(cudaMemcpyAsync(s.host.get(), s.rows.get(), s.rows.bytes(), cudaMemcpyDeviceToHost, stream),
                  "cudaMemcpyAsync");
    cuda::check(cudaEventRecord(done_->get(), stream), "cudaEventRecord");
    chained_ = true;
  }

  void read_back(cuda::CudaSlot& slot, unsigned index, FeatureSink& out) override {
    double score = 0.0;
    if (front_.reads_pixels() && index > 0) {
      const SlotState& s = *state_[slot.index()];
      // Planes scored in double: Y, then + U, then + V (as the CPU).
      for (int p = 0; p < front_.planes(); ++p) {
        const Plane& pl = *planes_[std::size_t(p)];
        const float total = rows_in_order(s.host.get() + pl.rows_at, pl.h);
        const float half_total = front_.add_scale1() ? rows_in_order(s.host.get() + pl.half_rows_at, pl.dh) : 0.0f;
        const float plane = plane_score(total, pl.w, pl.h, front_.add_scale1(), half_total, pl.dw, pl.dh);
        if (p == 0) score = plane;
        else score += plane;
      }
    }
    front_.emit(index, score, out);
  }

  Front front_;
  BlurTaps taps_{};
  std::vector<std::unique_ptr<Plane>> planes_;
  std::size_t shared_bytes_ = 0;
  bool use_shared_ = true;
  cuda::DeviceArray<float> scratch_;  // row buffers when a row does not fit in shared memory (frames serialise)
  std::unique_ptr<cuda::Event> done_;  // recorded after the latest frame's work
  bool chained_ = false;
  std::vector<std::unique_ptr<SlotState>> state_;
};

}  // namespace
}  // namespace float_motion

extern const ExtractorInfo kFloatMotionCudaInfo;
const ExtractorInfo kFloatMotionCudaInfo =
    twin_extractor<float_motion::FloatMotionCuda>(float_motion::kSpec, Backend::kCuda, "float_motion_cuda", nullptr);

}  // namespace vqtwin
