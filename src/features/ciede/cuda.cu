// ciede_cuda: the CIEDE2000 difference of every pixel on the device, through the same certified cells as the
// CPU's batch path (cells.hpp: approx.hpp's approximations of the library calls, each float checked to be the
// one the library's value rounds to). A pixel whose difference is not certain (about 1 in 100) is marked, and
// the host computes it from the slot's own copy of the pictures by the CPU extractor's path (its memo of
// conversions and batches, math.hpp's scalar code with the library calls where they are uncertain). The frame's sum is then formed on the host as the CPU forms it: the pixels' differences as
// doubles, added from +0 in raster order (a pixel of equal colours adds +0, which the CPU skips: the same
// sum). docs/exactness.md has the method and why it is exact.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>

#include "backends/cuda/grid.cuh"
#include "backends/cuda/staged_twin.hpp"
#include "common/cpu.hpp"
#include "core/implementation.hpp"
#include "features/ciede/cells.hpp"
#include "features/ciede/front.hpp"
#include "features/ciede/lab_cache.hpp"
#include "features/ciede/schema.hpp"
#include "vqtwin/error.hpp"

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
    const float d = cells::difference<kPlant>(ry, ru, rv, dy, du, dv, bpc, good);
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

  // The frame's sum needs the slot's host pictures (the fallback reads them), which reduce() is not given:
  // read_back does it all. (Worker threads collect different slots at once: nothing here is per frame state.)
  void read_back(cuda::CudaSlot& slot, unsigned index, FeatureSink& out) override {
    const std::span<const float> de = staged(slot).view();
    const Picture &ref = slot.ref(), &dist = slot.dist();
    const PictureFormat& f = ref.format();
    std::size_t uncertain = 0;
    const double sum = f.bitdepth == 8 ? ordered_sum<std::uint8_t>(de, ref, dist, uncertain)
                                       : ordered_sum<std::uint16_t>(de, ref, dist, uncertain);
    if (report_)  // VQTWIN_REPORT_CIEDE_FALLBACK: the share the host computed (measurements)
      std::fprintf(stderr, "ciede_cuda: frame %u: %zu of %zu pixels computed on the host\n", index, uncertain, de.size());
    out.put(kOutputs[0], index, score_of(sum, unsigned(f.width) * unsigned(f.height)));
  }
  void reduce(std::span<const float>, unsigned, FeatureSink&) override {
    throw Error("ciede_cuda: internal error: results reduced without their pictures");
  }

  // The CPU's sum: +0, then each pixel's difference in raster order; the uncertain ones computed first.
  template <class T>
  double ordered_sum(std::span<const float> de, const Picture& ref, const Picture& dist, std::size_t& uncertain) const {
    thread_local std::vector<std::uint32_t> at;
    thread_local std::vector<float> fixed;
    at.clear();
    for (std::size_t i = 0; i < de.size(); ++i)
      if (std::isnan(de[i])) at.push_back(std::uint32_t(i));
    fixed.resize(at.size());
    fallback<T>(ref, dist, at, fixed.data());
    uncertain = at.size();
    double sum = 0.;
    std::size_t next = 0;
    for (std::size_t i = 0; i < de.size(); ++i) sum += std::isnan(de[i]) ? fixed[next++] : de[i];
    return sum;
  }

  // The differences of the pixels at raster indices `at` by the CPU's own fast path (its per-thread memo of
  // conversions and its batches, whose floats are math.hpp's: the library calls where they are uncertain).
  template <class T>
  void fallback(const Picture& ref, const Picture& dist, const std::vector<std::uint32_t>& at, float* out) const {
    thread_local LabCache cache;
    const int w = ref.format().width;
    const unsigned bpc = unsigned(ref.format().bitdepth);
    std::uint16_t py[2 * kBatch], pu[2 * kBatch], pv[2 * kBatch];
    Lab lab[2 * kBatch];
    for (std::size_t s = 0; s < at.size(); s += kBatch) {
      const int n = int(at.size() - s < std::size_t(kBatch) ? at.size() - s : std::size_t(kBatch));
      for (int k = 0; k < n; ++k) {
        const int y = int(at[s + std::size_t(k)] / unsigned(w)), x = int(at[s + std::size_t(k)] % unsigned(w));
        const ChromaRow cr = map_.row(y);
        py[k] = std::uint16_t(ref.row<T>(0, y)[x]);
        pu[k] = std::uint16_t(map_.sample<T>(ref, 1, cr, x));
        pv[k] = std::uint16_t(map_.sample<T>(ref, 2, cr, x));
        py[n + k] = std::uint16_t(dist.row<T>(0, y)[x]);
        pu[n + k] = std::uint16_t(map_.sample<T>(dist, 1, cr, x));
        pv[n + k] = std::uint16_t(map_.sample<T>(dist, 2, cr, x));
      }
      cache.lookup(kernels_, py, pu, pv, 2 * n, bpc, lab);
      kernels_.ciede2000(lab, lab + n, n, out + s);
    }
  }

  ChromaMap map_;
  seam::Buffer<ChromaAt> chroma_at_;
  int row_shift_ = 1;
  BatchKernels kernels_ = batch_kernels_for(cpu::flags());  // the CPU's (--cpumask applies)
  bool report_ = std::getenv("VQTWIN_REPORT_CIEDE_FALLBACK") != nullptr;
};

}  // namespace
}  // namespace ciede

extern const ExtractorInfo kCiedeCudaInfo;
const ExtractorInfo kCiedeCudaInfo =
    twin_extractor<ciede::CiedeCuda>(ciede::kSpec, Backend::kCuda, "ciede_cuda", nullptr);

}  // namespace vqtwin
