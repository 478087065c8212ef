// float_moment_cuda: the float_moment front on the device. Where the front allows (up to 12 bits, the
// integer sum of squares below 2^53) each picture's exact integer sums of v and v^2 (any order gives
// them, so block sums and atomics do) and the OR of its samples. Elsewhere (16 bits, huge pictures)
// libvmaf's own raster-order double sums (float_moment_1st/2nd in libvmaf's moment.c): per sample the
// fp32 v / scale and its fp32 square, added from +0 in raster order by the ordered-sum machinery
// (backends/cuda/ordered_sum.hpp), bit for bit the CPU's sequential loop. A 10/12-bit frame with a
// sample above its bit depth (its fp32 square may round) is computed again in that order, as the CPU
// does for such a picture.
#include "backends/cuda/grid.cuh"
#include "backends/cuda/ordered_sum.hpp"
#include "backends/cuda/reduce.cuh"
#include "backends/cuda/staged_twin.hpp"
#include "core/implementation.hpp"
#include "features/float_moment/front.hpp"
#include "features/float_moment/schema.hpp"

namespace vqtwin {
namespace float_moment {
namespace {

constexpr unsigned kThreads = 256;

// A frame's staged values, for the reference [0] and the distorted picture [1].
struct Results {
  unsigned long long first[2];   // sum of v
  unsigned long long second[2];  // sum of v^2
  unsigned any[2];               // OR of the samples
  double ordered[4];             // raster-order sums: ref 1st, ref 2nd, dist 1st, dist 2nd
};

// Exact integer sums of one plane into first/second/any (zeroed before).
template <class T>
__global__ void integer_sums_kernel(cuda::DevicePlane p, unsigned long long* first, unsigned long long* second,
                                    unsigned* any) {
  unsigned long long v[2] = {0, 0};
  unsigned seen = 0;
  VQTWIN_GRID_STRIDE(i, (long long)p.width * p.height) {
    const unsigned s = p.row<T>(int(i / p.width))[int(i % p.width)];
    v[0] += s;
    v[1] += (unsigned long long)s * s;
    seen |= s;
  }
  for (int o = 16; o > 0; o >>= 1) seen |= __shfl_xor_sync(0xffffffffu, seen, o);
  if ((threadIdx.x & 31) == 0 && seen) atomicOr(any, seen);
  cuda::block_sum<2>(v);
  if (threadIdx.x == 0) {
    if (v[0]) atomicAdd(first, v[0]);
    if (v[1]) atomicAdd(second, v[1]);
  }
}

// The terms libvmaf adds, per sample in raster order: double(v / scale) and double(fp32 (v / scale)^2)
// (the CPU's sequential_sums). `plant` squares in double instead (the fp32 rounding lost).
template <class T>
__global__ void terms_kernel(cuda::DevicePlane p, float scale, bool plant, double* first, double* second) {
  VQTWIN_GRID_STRIDE(i, (long long)p.width * p.height) {
    const float v = __fdiv_rn(float(p.row<T>(int(i / p.width))[int(i % p.width)]), scale);
    first[i] = double(v);
    second[i] = plant ? __dmul_rn(double(v), double(v)) : double(__fmul_rn(v, v));
  }
}

class FloatMomentCuda final : public cuda::StagedTwin<Results> {
 public:
  unsigned planes_read() const override { return 1; }  // luma

 private:
  void declare(const PictureFormat& f, seam::TwinPlan<Results>& plan) override {
    front_.init(f);
    n_ = std::size_t(f.width) * std::size_t(f.height);
    plan.results(1, /*zeroed=*/true);
    // The ordered sums: always at 16 bits and beyond the exact range, at 10/12 bits for frames with
    // out-of-range samples; never at 8 bits within it.
    terms_ = {};
    if (!front_.exact() || front_.bitdepth() > 8) {
      terms_ = plan.scratch<double>(4 * n_);
      sums_ = plan.per_slot<cuda::OrderedSums>(n_, 4);
    }
  }

  void record(const cuda::Frame<Results>& frame) override {
    if (!front_.exact()) return enqueue_ordered(frame);
    Results* r = frame.results();
    const cuda::DevicePlane* planes[2] = {&frame.ref().plane[0], &frame.dist().plane[0]};
    for (int k = 0; k < 2; ++k) {
      const cuda::DevicePlane& p = *planes[k];
      const unsigned blocks = cuda::blocks_for((long long)p.width * p.height, kThreads, 8, 1024);
      if (front_.bitdepth() == 8)
        integer_sums_kernel<unsigned char>
            <<<blocks, kThreads, 0, frame.stream()>>>(p, &r->first[k], &r->second[k], &r->any[k]);
      else
        integer_sums_kernel<unsigned short>
            <<<blocks, kThreads, 0, frame.stream()>>>(p, &r->first[k], &r->second[k], &r->any[k]);
      cuda::check(cudaGetLastError(), "float_moment integer sums kernel launch");
    }
  }

  void enqueue_ordered(const cuda::Frame<Results>& frame) const {
    double* t = frame[terms_];
    const bool plant = cuda::plant("float_moment_cuda_double_square");
    const cuda::DevicePlane* planes[2] = {&frame.ref().plane[0], &frame.dist().plane[0]};
    for (int k = 0; k < 2; ++k) {
      const cuda::DevicePlane& p = *planes[k];
      double* first = t + std::size_t(2 * k) * n_;
      double* second = first + n_;
      const unsigned blocks = cuda::blocks_for((long long)n_, kThreads, 1, 65535);
      if (front_.bitdepth() == 8)
        terms_kernel<unsigned char><<<blocks, kThreads, 0, frame.stream()>>>(p, front_.scale(), plant, first, second);
      else
        terms_kernel<unsigned short><<<blocks, kThreads, 0, frame.stream()>>>(p, front_.scale(), plant, first, second);
      cuda::check(cudaGetLastError(), "float_moment terms kernel launch");
    }
    frame[sums_].enqueue(t, frame.results()->ordered, frame.stream());
  }

  void read_back(cuda::CudaSlot& slot, unsigned index, FeatureSink& out) override {
    const Results s = staged(slot).view()[0];
    if (front_.exact() && ((s.any[0] | s.any[1]) >> front_.bitdepth()) != 0) {
      // An out-of-range sample: libvmaf's order for that picture, as the CPU takes it (the frame's
      // pictures are still on the device: the slot is not reused before read_back returns).
      Results both = s;
      const Results& again =
          restage(slot, index, [&](const cuda::Frame<Results>& f) { enqueue_ordered(f); }).view()[0];
      for (int j = 0; j < 4; ++j) both.ordered[j] = again.ordered[j];
      return emit(both, index, out);
    }
    StagedTwin::read_back(slot, index, out);
  }

  void reduce(std::span<const Results> s, unsigned index, FeatureSink& out) override { emit(s[0], index, out); }

  // Each picture's sums: the integer ones where the front takes them, else the ordered double sums.
  void emit(const Results& s, unsigned index, FeatureSink& out) const {
    Sums sums[2];
    for (int k = 0; k < 2; ++k)
      if (!front_.from_integers({s.first[k], s.second[k], s.any[k]}, sums[k]))
        sums[k] = {s.ordered[2 * k], s.ordered[2 * k + 1]};
    front_.emit(sums[0], sums[1], index, out);
  }

  Front front_;
  std::size_t n_ = 0;
  seam::Buffer<double> terms_;
  seam::Object<cuda::OrderedSums> sums_;
};

}  // namespace
}  // namespace float_moment

extern const ExtractorInfo kFloatMomentCudaInfo;
const ExtractorInfo kFloatMomentCudaInfo = twin_extractor<float_moment::FloatMomentCuda>(
    float_moment::kSpec, Backend::kCuda, "float_moment_cuda", nullptr);

}  // namespace vqtwin
