// psnr_hvs_cuda: psnr_hvs's blocks on the device, its frame values on the host (front.hpp).
//   device, per plane: one thread per 8x8 block (blocks at steps of 7, raster order) runs cells.hpp's
//     block_terms_at, the CPU lanes' scalar sequence (integer DCT; fp32 sums in libvmaf's order; IEEE
//     division and double sqrt; no contraction), and writes its 64 terms; then one thread adds every
//     term of the plane into an fp32 total from +0, block after block, term after term: libvmaf's
//     order, the only one that gives its rounding (the block's warps stage the terms in shared memory
//     while thread 0 adds).
//   host, in reduce(): the three totals through the front (division by count and peak, glibc's log10).
#include <span>

#include "backends/cuda/grid.cuh"
#include "backends/cuda/staged_twin.hpp"
#include "core/implementation.hpp"
#include "features/psnr_hvs/cells.hpp"
#include "features/psnr_hvs/front.hpp"
#include "features/psnr_hvs/schema.hpp"

namespace vqtwin {
namespace psnr_hvs {
namespace {

constexpr unsigned kThreads = 128;
constexpr unsigned kSumThreads = 256;
constexpr int kPiece = 4096;  // terms staged at a time by the adding block

// Row access for cells::block_terms_at.
template <class T>
struct PlaneRows {
  cuda::DevicePlane p;
  __device__ const T* operator()(int y) const { return p.row<T>(y); }
};

// The 64 terms of each block of one plane, block b at terms[64 b].
template <class T>
__global__ void terms_kernel(cuda::DevicePlane ref, cuda::DevicePlane dist, int nbx, int nby, const Tables* tables,
                             float* terms) {
  const PlaneRows<T> r{ref}, d{dist};
  VQTWIN_GRID_STRIDE(b, (long long)nbx * nby) {
    const int by = int(b / nbx), bx = int(b % nbx);
    block_terms_at<T>(r, d, 7 * bx, 7 * by, *tables, terms + b * 64);
  }
}

struct PlaneTerms {
  const float* terms[3];
  long long count[3];
};

// Block p adds plane p's terms into total[p], in index order from +0 (thread 0), warps 1.. staging the
// next piece while thread 0 adds the current one.
__global__ void total_kernel(PlaneTerms planes, float* total) {
  __shared__ float piece[2][kPiece];
  const float* t = planes.terms[blockIdx.x];
  const long long n = planes.count[blockIdx.x];
  const unsigned loaders = blockDim.x - 32;
  float sum = 0.0f;
  for (long long i = threadIdx.x; i < n && i < kPiece; i += blockDim.x) piece[0][i] = t[i];
  __syncthreads();
  int cur = 0;
  for (long long at = 0; at < n; at += kPiece) {
    const long long next = at + kPiece;
    if (threadIdx.x >= 32) {
      for (long long i = threadIdx.x - 32; i < kPiece && next + i < n; i += loaders) piece[cur ^ 1][i] = t[next + i];
    } else if (threadIdx.x == 0) {
      const int m = n - at < kPiece ? int(n - at) : kPiece;
      for (int i = 0; i < m; ++i) sum = __fadd_rn(sum, piece[cur][i]);
    }
    __syncthreads();
    cur ^= 1;
  }
  if (threadIdx.x == 0) total[blockIdx.x] = sum;
}

class PsnrHvsCuda final : public cuda::StagedTwin<float> {
 public:
  unsigned planes_read() const override { return 0x7; }

 private:
  void declare(const PictureFormat& f, seam::TwinPlan<float>& plan) override {
    front_.init(f);
    plan.results(3);
    tables_ = plan.table(std::span<const Tables>(front_.all_tables(), 3));
    for (int p = 0; p < 3; ++p) {
      blocks_[p] = (long long)front_.blocks_x(p) * front_.blocks_y(p);
      terms_[p] = plan.scratch<float>(std::size_t(64 * blocks_[p]));
    }
  }

  void record(const cuda::Frame<float>& frame) override {
    // Planted: the chroma planes weighted with the luma tables.
    const bool plant = cuda::plant("psnr_hvs_cuda_luma_csf");
    PlaneTerms planes{};
    for (int p = 0; p < 3; ++p) {
      const Tables* t = frame[tables_] + (plant ? 0 : p);
      const unsigned grid = cuda::blocks_for(blocks_[p], kThreads, 1, 65535);
      const cuda::DevicePlane& r = frame.ref().plane[p];
      const cuda::DevicePlane& d = frame.dist().plane[p];
      if (front_.bitdepth() == 8)
        terms_kernel<unsigned char><<<grid, kThreads, 0, frame.stream()>>>(r, d, front_.blocks_x(p),
                                                                          front_.blocks_y(p), t, frame[terms_[p]]);
      else
        terms_kernel<unsigned short><<<grid, kThreads, 0, frame.stream()>>>(r, d, front_.blocks_x(p),
                                                                           front_.blocks_y(p), t, frame[terms_[p]]);
      cuda::check(cudaGetLastError(), "psnr_hvs terms kernel launch");
      planes.terms[p] = frame[terms_[p]];
      planes.count[p] = 64 * blocks_[p];
    }
    total_kernel<<<3, kSumThreads, 0, frame.stream()>>>(planes, frame.results());
    cuda::check(cudaGetLastError(), "psnr_hvs total kernel launch");
  }

  void reduce(std::span<const float> total, unsigned index, FeatureSink& out) override {
    front_.emit(total.data(), index, out);
  }

  Front front_;
  long long blocks_[3] = {};
  seam::Buffer<Tables> tables_;
  seam::Buffer<float> terms_[3];
};

}  // namespace
}  // namespace psnr_hvs

extern const ExtractorInfo kPsnrHvsCudaInfo;
const ExtractorInfo kPsnrHvsCudaInfo =
    twin_extractor<psnr_hvs::PsnrHvsCuda>(psnr_hvs::kSpec, Backend::kCuda, "psnr_hvs_cuda", nullptr);

}  // namespace vqtwin
