// ciede_cuda: the CIEDE2000 difference of every pixel on the device, through the same certified cells as the
// CPU's batch path (cells.hpp: approx.hpp's approximations of the library calls, each float checked to be the
// one the library's value rounds to). A pixel whose difference is not certain (about 1 in 100) is marked, and
// the host computes it with math.hpp's scalar code (the library calls) from the slot's own copy of the
// pictures. The frame's sum is then formed on the host as the CPU forms it: the pixels' differences as
// doubles, added from +0 in raster order (a pixel of equal colours adds +0, which the CPU skips: the same
// sum). docs/exactness.md has the method and why it is exact.
#include <cmath>
#include <cstdint>
#include <vector>

#include "backends/cuda/grid.cuh"
#include "backends/cuda/staged_twin.hpp"
#include "core/implementation.hpp"
#include "features/ciede/cells.hpp"
#include "features/ciede/front.hpp"
#include "features/ciede/schema.hpp"

namespace vqtwin {
namespace ciede {
namespace {

constexpr unsigned kThreads = 128;

// Where a luma column's chroma lies (ChromaMap::row_step / column): x = rows below the row's plane row,
// y = column in that row, -1 for the zero padding.
using ChromaAt = int2;

// One difference per pixel, raster order: the certain float, +0 for equal colours, NaN where uncertain.
// kPlant: the planted bug ciede_cuda_short_sin (the cells' sine series cut short).
template <class T, bool kPlant>
__global__ void difference_kernel(cuda::DevicePicture ref, cuda::DevicePicture dist, const ChromaAt* chroma_at,
                                  int row_shift, unsigned bpc, float* out) {
  const int w = ref.plane[0].width;
  VQTWIN_GRID_STRIDE(i, (long long)w * ref.plane[0].height) {
    const int y = int(i / w), x = int(i % w);
    const ChromaAt c = chroma_at[x];
    const int cy = (y >> row_shift) + c.x;
    const unsigned ry = ref.plane[0].row<T>(y)[x], dy = dist.plane[0].row<T>(y)[x];
    const unsigned ru = c.y < 0 ? 0u : ref.plane[1].row<T>(cy)[c.y], rv = c.y < 0 ? 0u : ref.plane[2].row<T>(cy)[c.y];
    const unsigned du = c.y < 0 ? 0u : dist.plane[1].row<T>(cy)[c.y], dv = c.y < 0 ? 0u : dist.plane[2].row<T>(cy)[c.y];
    if (ry == dy && ru == du && rv == dv) {
      out[i] = 0.0f;
      continue;
    }
    int good = 1;
    const Lab a = cells::to_lab(ry, ru, rv, bpc, good);
    const Lab b = cells::to_lab(dy, du, dv, bpc, good);
    const float d = cells::ciede2000<kPlant>(a, b, good);
    out[i] = good ? d : __int_as_float(0x7fc00000);
  }
}

class CiedeCuda final : public cuda::StagedTwin<float> {
 private:
  void declare(const PictureFormat& f, seam::TwinPlan<float>& plan) override {
    map_ = accept(f);
    std::vector<ChromaAt> at(std::size_t(f.width));
    for (int x = 0; x < f.width; ++x) at[std::size_t(x)] = {map_.row_step(x), map_.column(x)};
    chroma_at_ = plan.table<ChromaAt>(at);
    row_shift_ = f.chroma == ChromaFormat::k444 ? 0 : 1;
    plan.results(std::size_t(f.width) * std::size_t(f.height));
  }

  void record(const cuda::Frame<float>& frame) override {
    const cuda::DevicePicture& r = frame.ref();
    const long long n = (long long)r.plane[0].width * r.plane[0].height;
    const unsigned blocks = cuda::blocks_for(n, kThreads, 1, 65535);
    const bool plant = cuda::plant("ciede_cuda_short_sin");
    const unsigned bpc = unsigned(r.bitdepth);
    auto launch = [&](auto kernel) {
      kernel<<<blocks, kThreads, 0, frame.stream()>>>(r, frame.dist(), frame[chroma_at_], row_shift_, bpc,
                                                      frame.results());
    };
    if (r.bitdepth == 8) plant ? launch(difference_kernel<std::uint8_t, true>) : launch(difference_kernel<std::uint8_t, false>);
    else plant ? launch(difference_kernel<std::uint16_t, true>) : launch(difference_kernel<std::uint16_t, false>);
    cuda::check(cudaGetLastError(), "ciede difference kernel launch");
  }

  // The host pictures of the slot being collected (the fallback reads them).
  void read_back(cuda::CudaSlot& slot, unsigned index, FeatureSink& out) override {
    ref_ = &slot.ref();
    dist_ = &slot.dist();
    StagedTwin::read_back(slot, index, out);
  }

  void reduce(std::span<const float> de, unsigned index, FeatureSink& out) override {
    const PictureFormat& f = ref_->format();
    const double sum = f.bitdepth == 8 ? ordered_sum<std::uint8_t>(de) : ordered_sum<std::uint16_t>(de);
    out.put(kOutputs[0], index, score_of(sum, unsigned(f.width) * unsigned(f.height)));
  }

  // The CPU's sum: +0, then each pixel's difference in raster order; uncertain ones from math.hpp.
  template <class T>
  double ordered_sum(std::span<const float> de) const {
    const int w = ref_->format().width, h = ref_->format().height;
    double sum = 0.;
    for (int y = 0; y < h; ++y) {
      const float* row = de.data() + std::size_t(y) * std::size_t(w);
      for (int x = 0; x < w; ++x) {
        const float d = row[x];
        sum += std::isnan(d) ? pixel_difference<T>(map_, *ref_, *dist_, x, y) : d;
      }
    }
    return sum;
  }

  ChromaMap map_;
  seam::Buffer<ChromaAt> chroma_at_;
  int row_shift_ = 1;
  const Picture* ref_ = nullptr;
  const Picture* dist_ = nullptr;
};

}  // namespace
}  // namespace ciede

extern const ExtractorInfo kCiedeCudaInfo;
const ExtractorInfo kCiedeCudaInfo =
    twin_extractor<ciede::CiedeCuda>(ciede::kSpec, Backend::kCuda, "ciede_cuda", nullptr);

}  // namespace vqtwin
