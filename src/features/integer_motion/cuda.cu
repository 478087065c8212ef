// motion_cuda: integer motion's front (schedule, scores, motion2/motion3) on the device's exact SAD.
// The previous luma planes stay on the device in a ring indexed by frame; frame n's work waits for
// frame n-1's (a temporal twin: the backend's event chain), so the ring and the V scratch plane are
// never read and written at once.
#include <cstdint>

#include "backends/cuda/reduce.cuh"
#include "backends/cuda/staged_twin.hpp"
#include "core/implementation.hpp"
#include "features/integer_motion/cells.hpp"
#include "features/integer_motion/front.hpp"
#include "features/integer_motion/schema.hpp"

namespace vqtwin {
namespace integer_motion {
namespace {

constexpr unsigned kThreads = 256;

// V of the whole plane (row stride w), one thread per sample.
template <class T>
__global__ void vertical_kernel(const T* prev, std::ptrdiff_t prev_stride, const T* cur, std::ptrdiff_t cur_stride,
                                int w, int h, int bpc, std::int32_t* v) {
  for (int y = blockIdx.y; y < h; y += gridDim.y)
    for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < w; x += gridDim.x * blockDim.x)
      v[std::size_t(y) * w + x] = vertical_at(prev, prev_stride, cur, cur_stride, h, bpc, x, y);
}

// One block per row: |X| over the row, its uint32 total added to the frame's SAD.
__global__ void rows_kernel(const std::int32_t* v, int w, int h, unsigned long long* sad) {
  for (int y = blockIdx.x; y < h; y += gridDim.x) {
    const std::int32_t* row = v + std::size_t(y) * w;
    unsigned long long s[1] = {0};
    for (int x = threadIdx.x; x < w; x += blockDim.x) s[0] += horizontal_abs_at(row, w, x);
    cuda::block_sum<1>(s);
    if (threadIdx.x == 0) atomicAdd(sad, row_total(s[0]));
  }
}

class MotionCuda final : public cuda::StagedTwin<unsigned long long> {
 public:
  explicit MotionCuda(const OptionValues& o) : front_(o) {}
  void flush(FeatureSink& out) override { front_.flush(out); }

 private:
  void declare(const PictureFormat& f, seam::TwinPlan<unsigned long long>& plan) override {
    front_.init(f);
    if (!front_.reads_pixels()) return;  // motion_force_zero: every score is 0, nothing to compute
    plan.results(1, /*zeroed=*/true);     // the frame's SAD
    plan.temporal();                      // the ring and V are read and written by consecutive frames
    plane_bytes_ = std::size_t(f.width) * std::size_t(f.height) * std::size_t(f.bytes_per_sample());
    // lag + 1 frames are needed; one more lets the planted bug read a frame too far back.
    ring_size_ = front_.lag() + 2;
    ring_ = plan.persistent<unsigned char>(ring_size_ * plane_bytes_);
    v_ = plan.persistent<std::int32_t>(std::size_t(f.width) * std::size_t(f.height));
  }

  unsigned char* ring_entry(const cuda::Frame<unsigned long long>& frame, unsigned i) const {
    return frame[ring_] + (i % ring_size_) * plane_bytes_;
  }

  template <class T>
  void enqueue_sad(const unsigned char* prev, const cuda::DevicePlane& cur, std::int32_t* v, unsigned long long* sad,
                   cudaStream_t stream) {
    const int w = front_.width(), h = front_.height();
    const dim3 grid(cuda::blocks_for(w, kThreads), unsigned(h < 65535 ? h : 65535));
    vertical_kernel<T><<<grid, kThreads, 0, stream>>>(reinterpret_cast<const T*>(prev), w,
                                                      static_cast<const T*>(cur.data), cur.stride, w, h,
                                                      front_.bitdepth(), v);
    cuda::check(cudaGetLastError(), "motion vertical kernel launch");
    rows_kernel<<<cuda::blocks_for(h, 1, 1, 65535), kThreads, 0, stream>>>(v, w, h, sad);
    cuda::check(cudaGetLastError(), "motion rows kernel launch");
  }

  void record(const cuda::Frame<unsigned long long>& frame) override {
    if (!front_.reads_pixels()) return;
    const unsigned index = frame.index();
    const cudaStream_t stream = frame.stream();
    const cuda::DevicePlane& cur = frame.ref().plane[0];
    const int bytes = front_.bytes_per_sample();
    if (front_.needs_sad(index)) {
      unsigned back = front_.lag();
      if (cuda::plant("motion_cuda_window") && index > back) ++back;  // the harness must catch this
      const unsigned char* prev = ring_entry(frame, index - back);
      if (bytes == 1) enqueue_sad<unsigned char>(prev, cur, frame[v_], frame.results(), stream);
      else enqueue_sad<unsigned short>(prev, cur, frame[v_], frame.results(), stream);
    } else {
      frame.skip_results();
    }
    // Keep this frame's luma (packed, row stride w) for the frames that compare with it.
    const std::size_t row_bytes = std::size_t(front_.width()) * bytes;
    cuda::check(cudaMemcpy2DAsync(ring_entry(frame, index), row_bytes, cur.data, std::size_t(cur.stride) * bytes,
                                  row_bytes, std::size_t(front_.height()), cudaMemcpyDeviceToDevice, stream),
                "cudaMemcpy2DAsync");
  }

  void reduce(std::span<const unsigned long long> sad, unsigned index, FeatureSink& out) override {
    front_.emit(index, sad.empty() ? 0 : std::uint64_t(sad[0]), out);
  }

  Front front_;
  std::size_t plane_bytes_ = 0;
  unsigned ring_size_ = 0;
  seam::Buffer<unsigned char> ring_;  // luma of frame i at entry i % ring_size_
  seam::Buffer<std::int32_t> v_;      // the vertical pass of the frame being computed
};

}  // namespace
}  // namespace integer_motion

extern const ExtractorInfo kIntegerMotionCudaInfo;
const ExtractorInfo kIntegerMotionCudaInfo =
    twin_extractor<integer_motion::MotionCuda>(integer_motion::kSpec, Backend::kCuda, "motion_cuda", nullptr);

}  // namespace vqtwin
