// psnr_hvs_cuda: psnr_hvs's blocks on the device, its frame values on the host (front.hpp).
//   device, per plane: one thread per 8x8 block (blocks at steps of 7, raster order) runs cells.hpp's
//     block_terms_at, the CPU lanes' scalar sequence (integer DCT; fp32 sums in libvmaf's order; IEEE
//     division and double sqrt; no contraction), and writes its 64 terms; then the plane's fp32 total
//     is libvmaf's sequence (every term from +0, block after block, term after term: the only order
//     that gives its rounding), reproduced bit for bit in parallel by the chunked ordered sum
//     (core/ordered_sum.hpp, in binary32 here).
//   host, in reduce(): the three totals through the front (division by count and peak, glibc's log10);
//     a NaN total (wild 10/12-bit words) becomes the CPU's NaN first (Front::cpu_nan_total).
#include <span>

#include "backends/cuda/grid.cuh"
#include "backends/cuda/ordered_sum.hpp"
#include "backends/cuda/staged_twin.hpp"
#include "core/implementation.hpp"
#include "features/psnr_hvs/cells.hpp"
#include "features/psnr_hvs/front.hpp"
#include "features/psnr_hvs/schema.hpp"

namespace vqtwin {
namespace psnr_hvs {
namespace {

constexpr unsigned kThreads = 128;

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
      sums_[p] = plan.per_slot<cuda::OrderedSumsOf<float>>(std::size_t(64 * blocks_[p]), 1);
    }
  }

  void record(const cuda::Frame<float>& frame) override {
    // Planted: the chroma planes weighted with the luma tables.
    const bool plant = cuda::plant("psnr_hvs_cuda_luma_csf");
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
      frame[sums_[p]].enqueue(frame[terms_[p]], frame.results() + p, frame.stream());
    }
  }

  void reduce(std::span<const float> total, unsigned index, FeatureSink& out) override {
    float t[3];
    for (int p = 0; p < 3; ++p) {
      const float v = total[std::size_t(p)];
      t[p] = v != v ? Front::cpu_nan_total() : v;
    }
    front_.emit(t, index, out);
  }

  Front front_;
  long long blocks_[3] = {};
  seam::Buffer<Tables> tables_;
  seam::Buffer<float> terms_[3];
  seam::Object<cuda::OrderedSumsOf<float>> sums_[3];  // each plane's terms in libvmaf's order
};

}  // namespace
}  // namespace psnr_hvs

extern const ExtractorInfo kPsnrHvsCudaInfo;
const ExtractorInfo kPsnrHvsCudaInfo =
    twin_extractor<psnr_hvs::PsnrHvsCuda>(psnr_hvs::kSpec, Backend::kCuda, "psnr_hvs_cuda", nullptr);

}  // namespace vqtwin
