// float_vif_cuda: float_vif's front (kernels, names, refusals, scores) on the device's per-row sums.
// Per frame: the luma of both pictures to float (-128), then per scale one block per row: the five
// vertical moments of the row into shared memory, the horizontal pass and libvmaf's per-pixel
// statistic (math.hpp's pixel_num_den) per column, and the row's num and den added in column order
// by one thread each (the CPU's order; fp32 without contraction). The host adds the row totals in
// row order (the same float loop). Between scales, one thread per output blurs and decimates. A
// vif_prescale that resizes the plane runs one thread per output too (the Lanczos weights, which use
// the C library's sin, computed on the host once per output column and row).
#include <array>
#include <vector>

#include "backends/cuda/grid.cuh"
#include "backends/cuda/staged_twin.hpp"
#include "common/luma_float.hpp"
#include "core/implementation.hpp"
#include "features/float_vif/cells.hpp"
#include "features/float_vif/front.hpp"
#include "features/float_vif/schema.hpp"

namespace vqtwin {
namespace float_vif {
namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kMaxRowBlocks = 2048;  // rows kernel: blocks in flight (grid-stride over rows)

__global__ void prescale_kernel(PrescaleMethod method, const float* src, int sw, int sh, float rx, float ry,
                                const LanczosAxis* ax, const LanczosAxis* ay, int dw, int dh, float* dst) {
  VQTWIN_GRID_STRIDE(i, (long long)dw * dh) dst[i] = prescaled_at(method, src, sw, sh, rx, ry, ax, ay, int(i % dw), int(i / dw));
}

__global__ void decimate_kernel(const float* src, int w, int h, Taps k, float* dst) {
  const int ow = w / 2, oh = h / 2;
  VQTWIN_GRID_STRIDE(i, (long long)ow * oh) dst[i] = blur_decimate_at(src, w, h, k, int(i / ow), int(i % ow));
}

// One block per row (grid-stride): the row's num and den totals. `scratch` (7 * w floats per block)
// stands in for shared memory when a row does not fit there. `plant` drops the last column from the
// row's num total (the harness must catch it).
__global__ void rows_kernel(const float* a, const float* b, int w, int h, Taps k, StatParams params, float* scratch,
                            bool plant, float* row_num, float* row_den) {
  extern __shared__ float shared[];
  float* buf = scratch ? scratch + std::size_t(blockIdx.x) * 7 * std::size_t(w) : shared;
  float* m[5];
  for (int q = 0; q < 5; ++q) m[q] = buf + std::size_t(q) * w;
  float* num = buf + 5 * std::size_t(w);
  float* den = num + w;
  for (int i = blockIdx.x; i < h; i += gridDim.x) {
    for (int j = threadIdx.x; j < w; j += blockDim.x) {
      const Moments5 v = vertical_moments_at(a, b, w, h, k, i, j);
      for (int q = 0; q < 5; ++q) m[q][j] = v.m[q];
    }
    __syncthreads();
    for (int j = threadIdx.x; j < w; j += blockDim.x) {
      float f[5];
      for (int q = 0; q < 5; ++q) f[q] = horizontal_at(m[q], w, k, j, 1);
      pixel_num_den(f[0], f[1], f[2], f[3], f[4], params, num[j], den[j]);
    }
    __syncthreads();
    // Two warps add the two rows in column order, one thread each.
    if (threadIdx.x == 0) row_num[i] = sum_in_order(num, plant ? w - 1 : w);
    if (threadIdx.x == 32) row_den[i] = sum_in_order(den, w);
    __syncthreads();  // the buffers are rewritten by the next row
  }
}

unsigned blocks(long long n) { return cuda::blocks_for(n, kThreads, 1, 4096); }

class FloatVifCuda final : public cuda::StagedTwin<float> {
 public:
  explicit FloatVifCuda(const OptionValues& o) : front_(o) {}

 private:
  void declare(const PictureFormat& f, seam::TwinPlan<float>& plan) override {
    front_.init(f);
    if (front_.resizes() && front_.method() == PrescaleMethod::kLanczos4) {
      const float rx = float(f.width) / float(front_.scaled_width());
      const float ry = float(f.height) / float(front_.scaled_height());
      std::vector<LanczosAxis> ax(std::size_t(front_.scaled_width())), ay(std::size_t(front_.scaled_height()));
      for (int x = 0; x < front_.scaled_width(); ++x) ax[std::size_t(x)] = lanczos_axis(x, rx);
      for (int y = 0; y < front_.scaled_height(); ++y) ay[std::size_t(y)] = lanczos_axis(y, ry);
      lanczos_x_ = plan.table(std::span<const LanczosAxis>(ax));
      lanczos_y_ = plan.table(std::span<const LanczosAxis>(ay));
    }
    // Results: per scale computed, its rows' num totals, then their den totals (a skipped scale 0
    // has none: only what the kernels write is copied back).
    int w = front_.scaled_width(), h = front_.scaled_height();
    std::size_t rows = 0;
    for (int s = 0; s < kScales; ++s) {
      if (s > 0) w /= 2, h /= 2;
      w_[s] = w;
      h_[s] = h;
      row_offset_[s] = rows;
      if (s > 0 || !front_.skip_scale0()) rows += 2 * std::size_t(h);
      taps_[s] = taps_of(front_.kernel(s));
    }
    plan.results(rows);
    int device = 0, optin = 0;
    cuda::check(cudaGetDevice(&device), "cudaGetDevice");
    cuda::check(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), "cudaDeviceGetAttribute");
    shared_bytes_ = 7 * std::size_t(w_[0]) * sizeof(float);
    use_shared_ = shared_bytes_ <= std::size_t(optin);
    if (use_shared_)
      cuda::check(cudaFuncSetAttribute(rows_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared_bytes_)),
                  "cudaFuncSetAttribute");
    row_blocks_ = unsigned(h_[0] < int(kMaxRowBlocks) ? h_[0] : int(kMaxRowBlocks));
    if (front_.resizes())  // the luma as floats when vif_prescale resizes it
      for (auto& p : in_) p = plan.scratch<float>(std::size_t(f.width) * std::size_t(f.height));
    for (int s = 0; s < kScales; ++s) {
      ref_[s] = plan.scratch<float>(std::size_t(w_[s]) * std::size_t(h_[s]));
      dis_[s] = plan.scratch<float>(std::size_t(w_[s]) * std::size_t(h_[s]));
    }
    if (!use_shared_) scratch_ = plan.scratch<float>(std::size_t(row_blocks_) * 7 * std::size_t(w_[0]));
  }

  void record(const cuda::Frame<float>& frame) override {
    const cudaStream_t stream = frame.stream();
    const cuda::DevicePlane& r = frame.ref().plane[0];
    const cuda::DevicePlane& d = frame.dist().plane[0];
    const long long n = (long long)front_.width() * front_.height();
    const float scale = luma_scale(frame.ref().bitdepth);
    const bool resize = front_.resizes();
    float* const in_ref = resize ? frame[in_[0]] : frame[ref_[0]];
    float* const in_dis = resize ? frame[in_[1]] : frame[dis_[0]];
    if (frame.ref().bitdepth == 8) {
      cuda::luma_to_float_kernel<std::uint8_t><<<blocks(n), kThreads, 0, stream>>>(r, scale, 128.0f, in_ref);
      cuda::luma_to_float_kernel<std::uint8_t><<<blocks(n), kThreads, 0, stream>>>(d, scale, 128.0f, in_dis);
    } else {
      cuda::luma_to_float_kernel<std::uint16_t><<<blocks(n), kThreads, 0, stream>>>(r, scale, 128.0f, in_ref);
      cuda::luma_to_float_kernel<std::uint16_t><<<blocks(n), kThreads, 0, stream>>>(d, scale, 128.0f, in_dis);
    }
    cuda::check(cudaGetLastError(), "float_vif conversion kernel launch");
    if (resize) {
      const int sw = front_.width(), sh = front_.height();
      const float rx = float(sw) / float(w_[0]), ry = float(sh) / float(h_[0]);
      const long long m = (long long)w_[0] * h_[0];
      for (int img = 0; img < 2; ++img)
        prescale_kernel<<<blocks(m), kThreads, 0, stream>>>(front_.method(), img ? in_dis : in_ref, sw, sh, rx, ry,
                                                            frame[lanczos_x_], frame[lanczos_y_], w_[0], h_[0],
                                                            img ? frame[dis_[0]] : frame[ref_[0]]);
      cuda::check(cudaGetLastError(), "float_vif prescale kernel launch");
    }
    const bool plant = cuda::plant("float_vif_cuda_row_sum");
    for (int sc = front_.skip_scale0() ? 1 : 0; sc < kScales; ++sc) {
      if (sc > 0) {
        const long long m = (long long)w_[sc] * h_[sc];
        decimate_kernel<<<blocks(m), kThreads, 0, stream>>>(frame[ref_[sc - 1]], w_[sc - 1], h_[sc - 1], taps_[sc],
                                                           frame[ref_[sc]]);
        decimate_kernel<<<blocks(m), kThreads, 0, stream>>>(frame[dis_[sc - 1]], w_[sc - 1], h_[sc - 1], taps_[sc],
                                                           frame[dis_[sc]]);
        cuda::check(cudaGetLastError(), "float_vif decimation kernel launch");
      }
      float* rows = frame.results() + row_offset_[sc];
      const unsigned grid = unsigned(h_[sc] < int(row_blocks_) ? h_[sc] : int(row_blocks_));
      rows_kernel<<<grid, kThreads, use_shared_ ? shared_bytes_ : 0, stream>>>(
          frame[ref_[sc]], frame[dis_[sc]], w_[sc], h_[sc], taps_[sc], front_.params(), frame[scratch_], plant, rows,
          rows + h_[sc]);
      cuda::check(cudaGetLastError(), "float_vif rows kernel launch");
    }
  }

  void reduce(std::span<const float> staged, unsigned index, FeatureSink& out) override {
    std::array<ScaleSums, kScales> sums{};
    for (int sc = front_.skip_scale0() ? 1 : 0; sc < kScales; ++sc) {
      const float* rows = staged.data() + row_offset_[sc];
      sums[std::size_t(sc)] = {sum_in_order(rows, h_[sc]), sum_in_order(rows + h_[sc], h_[sc])};
    }
    front_.emit(sums, index, out);
  }

  Front front_;
  int w_[kScales] = {}, h_[kScales] = {};
  std::size_t row_offset_[kScales] = {};
  Taps taps_[kScales] = {};
  seam::Buffer<LanczosAxis> lanczos_x_, lanczos_y_;  // lanczos4 prescale: weights per output column/row
  std::size_t shared_bytes_ = 0;
  bool use_shared_ = true;
  unsigned row_blocks_ = 1;
  seam::Buffer<float> in_[2];                     // the luma as floats when vif_prescale resizes it
  seam::Buffer<float> ref_[kScales], dis_[kScales];  // each scale's planes
  seam::Buffer<float> scratch_;  // rows kernel buffers when a row does not fit in shared memory (else none)
};

}  // namespace
}  // namespace float_vif

extern const ExtractorInfo kFloatVifCudaInfo;
const ExtractorInfo kFloatVifCudaInfo =
    twin_extractor<float_vif::FloatVifCuda>(float_vif::kSpec, Backend::kCuda, "float_vif_cuda", nullptr);

}  // namespace vqtwin
