// adm_cuda: integer ADM's front (geometry, float tails, combination, names) on the device's exact
// per-scale sums. Per scale: the DWT of both pictures (one thread per band cell), the decouple and
// CSF of the cells the masking reads, then one block per pool row summing the contrast-masked,
// AIM and denominator terms in int64 and rounding the row's sums by the per-row shift, as the CPU
// does. Every rule is the CPU's, one output at a time (cells.hpp over math.hpp); the decouple's
// reciprocal table is the CPU's constexpr table, copied to the device once.

#include "backends/cuda/reduce.cuh"
#include "backends/cuda/grid.cuh"
#include "backends/cuda/staged_twin.hpp"
#include "core/implementation.hpp"
#include "features/integer_adm/cells.hpp"
#include "features/integer_adm/front.hpp"
#include "features/integer_adm/schema.hpp"

namespace vqtwin {
namespace integer_adm {
namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kMaxBlocks = 4096;
constexpr int kSums = 9;  // per scale: num[3], aim[3], den[3]

unsigned blocks(long long n) { return cuda::blocks_for(n, kThreads, 1, kMaxBlocks); }

template <class Band>
struct DwtOut {
  int32_t* a;
  Band* band[3];
};

// Scale 0 of both pictures: cells (x, y) of img 0 (ref) then img 1 (dis).
template <class Pixel>
__global__ void dwt0_kernel(cuda::DevicePlane ref, cuda::DevicePlane dis, int bitdepth, int w, int h,
                            DwtOut<int16_t> out_ref, DwtOut<int16_t> out_dis) {
  const long long cells = (long long)w * h;
  VQTWIN_GRID_STRIDE(i, 2 * cells) {
    const bool is_dis = i >= cells;
    const long long c = is_dis ? i - cells : i;
    const cuda::DevicePlane& p = is_dis ? dis : ref;
    const DwtOut<int16_t>& o = is_dis ? out_dis : out_ref;
    const DwtCell<int16_t> v = dwt0_at(static_cast<const Pixel*>(p.data), p.stride, p.width, p.height, bitdepth,
                                       int(c % w), int(c / w));
    o.a[c] = v.a;
    for (int t = 0; t < 3; ++t) o.band[t][c] = v.band[t];
  }
}

// Scales 1-3 of both pictures from the previous a bands (in_w x in_h).
__global__ void dwt123_kernel(const int32_t* in_ref, const int32_t* in_dis, int in_w, int in_h, DwtShifts s, int w,
                              int h, DwtOut<int32_t> out_ref, DwtOut<int32_t> out_dis) {
  const long long cells = (long long)w * h;
  VQTWIN_GRID_STRIDE(i, 2 * cells) {
    const bool is_dis = i >= cells;
    const long long c = is_dis ? i - cells : i;
    const DwtOut<int32_t>& o = is_dis ? out_dis : out_ref;
    const DwtCell<int32_t> v = dwt123_at(is_dis ? in_dis : in_ref, in_w, in_h, s, int(c % w), int(c / w));
    o.a[c] = v.a;
    for (int t = 0; t < 3; ++t) o.band[t][c] = v.band[t];
  }
}

// Decouple and CSF of the needed rect's cells. `mask_shift` is 0 (1 plants a bug in the masks).
template <class T, class F>
__global__ void prepare_kernel(ScalePlanes<T> p, F f, double egl, const int32_t* div, bool aim, Rect need,
                               int mask_shift) {
  const int nw = need.right - need.left;
  const long long cells = (long long)nw * (need.bottom - need.top);
  VQTWIN_GRID_STRIDE(i, cells) {
    const int x = need.left + int(i % nw), y = need.top + int(i / nw);
    prepare_cell(p, f, egl, div, aim, x, y);
    if (mask_shift) p.mask_q[std::size_t(y) * p.w + x] >>= mask_shift;
  }
}

// One block per pool row: the row's terms summed, rounded by the per-row shifts, added to acc.
template <class T, class F>
__global__ void masked_rows_kernel(ScalePlanes<T> p, F f, ScaleGeometry g, bool aim, unsigned long long* acc) {
  for (int y = g.pool.top + blockIdx.x; y < g.pool.bottom; y += gridDim.x) {
    unsigned long long v[kSums] = {};
    for (int x = g.pool.left + threadIdx.x; x < g.pool.right; x += blockDim.x) {
      const CellTerms c = masked_cell(p, f, g, aim, x, y);
      for (int t = 0; t < 3; ++t) {
        v[t] += (unsigned long long)c.num[t];
        v[3 + t] += (unsigned long long)c.aim[t];
        v[6 + t] += c.den[t];
      }
    }
    cuda::block_sum<kSums>(v);
    if (threadIdx.x == 0)
      for (int t = 0; t < 3; ++t) {
        atomicAdd(acc + t, (unsigned long long)num_row_total((long long)v[t], g));
        if (aim) atomicAdd(acc + 3 + t, (unsigned long long)num_row_total((long long)v[3 + t], g));
        atomicAdd(acc + 6 + t, den_row_total(v[6 + t], g));
      }
  }
}

// The planes of the scales of one type (int16 for scale 0, int32 for 1-3), w x h at most.
template <class T>
struct Planes {
  explicit Planes(std::size_t n) {
    for (int t = 0; t < 3; ++t) {
      for (auto& b : band) b[t] = cuda::DeviceArray<T>(n);
      rst[t] = cuda::DeviceArray<T>(n);
      q[t] = cuda::DeviceArray<T>(n);
    }
  }
  ScalePlanes<T> view(int w, int h, int32_t* const masks[4]) const {
    ScalePlanes<T> p;
    for (int t = 0; t < 3; ++t) {
      p.ref[t] = band[0][t].get();
      p.dis[t] = band[1][t].get();
      p.rst[t] = rst[t].get();
      p.q[t] = q[t].get();
    }
    p.mask_q = masks[0];
    p.centre_q = masks[1];
    p.mask_r = masks[2];
    p.centre_r = masks[3];
    p.w = w;
    p.h = h;
    return p;
  }
  DwtOut<T> out(int img, int32_t* a) const {
    return {a, {band[img][0].get(), band[img][1].get(), band[img][2].get()}};
  }
  cuda::DeviceArray<T> band[2][3];  // [ref, dis][h, v, d]
  cuda::DeviceArray<T> rst[3], q[3];
};

class AdmCuda final : public cuda::StagedTwin<unsigned long long> {
 public:
  explicit AdmCuda(const OptionValues& o) : front_(o) {}

 private:
  // A slot's planes: per slot, built by the backend (TwinPlan::per_slot).
  struct SlotState {
    SlotState(std::size_t n0, std::size_t n1) : planes16(n0), planes32(n1) {
      for (int img = 0; img < 2; ++img) {
        a[0][img] = cuda::DeviceArray<int32_t>(n0);
        a[1][img] = cuda::DeviceArray<int32_t>(n1);
      }
      for (auto& m : masks) m = cuda::DeviceArray<int32_t>(n0);
    }
    Planes<int16_t> planes16;
    Planes<int32_t> planes32;
    cuda::DeviceArray<int32_t> a[2][2];  // [ping-pong][ref, dis]: scales 0 and 2 in [0], 1 and 3 in [1]
    cuda::DeviceArray<int32_t> masks[4];  // mask_q, centre_q, mask_r, centre_r
  };

  void declare(const PictureFormat& f, seam::TwinPlan<unsigned long long>& plan) override {
    front_.init(f);
    const Computer& c = front_.computer();
    div_ = plan.table(std::span<const int32_t>(kReciprocal.div));  // the CPU's table, copied once
    const std::size_t n0 = std::size_t(c.geometry(0).w) * std::size_t(c.geometry(0).h);
    const std::size_t n1 = std::size_t(c.geometry(1).w) * std::size_t(c.geometry(1).h);
    plan.results(4 * kSums, /*zeroed=*/true);  // per scale: num, aim, den of each orientation
    state_ = plan.per_slot<SlotState>(n0, n1);
  }

  // Decouple/CSF and the masked row sums of one scale whose bands are computed.
  template <class T, class F>
  void masked_sums(int scale, const ScalePlanes<T>& p, const F& f, const int32_t* div, unsigned long long* acc,
                   cudaStream_t stream) const {
    const Computer& c = front_.computer();
    const ScaleGeometry& g = c.geometry(scale);
    const bool aim = !c.settings().skip_aim;
    const Rect& need = g.needed;
    const int mask_shift = cuda::plant("adm_cuda_mask_shift") ? 1 : 0;  // the harness must catch this
    prepare_kernel<T, F><<<blocks((long long)(need.right - need.left) * (need.bottom - need.top)), kThreads, 0,
                           stream>>>(p, f, c.settings().enhn_gain_limit, div, aim, need, mask_shift);
    cuda::check(cudaGetLastError(), "ADM decouple kernel launch");
    masked_rows_kernel<T, F><<<cuda::blocks_for(g.pool.height(), 1, 1, kMaxBlocks), kThreads, 0, stream>>>(p, f, g, aim,
                                                                                                          acc);
    cuda::check(cudaGetLastError(), "ADM masking kernel launch");
  }

  void record(const cuda::Frame<unsigned long long>& frame) override {
    SlotState& s = frame[state_];
    unsigned long long* const sums = frame.results();
    const int32_t* const div = frame[div_];
    const cudaStream_t stream = frame.stream();
    const Computer& c = front_.computer();
    int32_t* const masks[4] = {s.masks[0].get(), s.masks[1].get(), s.masks[2].get(), s.masks[3].get()};

    // Scale 0 from the luma samples.
    const ScaleGeometry& g0 = c.geometry(0);
    const cuda::DevicePlane& ref = frame.ref().plane[0];
    const cuda::DevicePlane& dis = frame.dist().plane[0];
    const DwtOut<int16_t> o_ref = s.planes16.out(0, s.a[0][0].get()), o_dis = s.planes16.out(1, s.a[0][1].get());
    const long long cells0 = 2LL * g0.w * g0.h;
    if (c.bitdepth() == 8)
      dwt0_kernel<uint8_t><<<blocks(cells0), kThreads, 0, stream>>>(ref, dis, 8, g0.w, g0.h, o_ref, o_dis);
    else
      dwt0_kernel<uint16_t><<<blocks(cells0), kThreads, 0, stream>>>(ref, dis, c.bitdepth(), g0.w, g0.h, o_ref, o_dis);
    cuda::check(cudaGetLastError(), "ADM DWT kernel launch");
    // With adm_skip_scale0 scale 0 is only the low-pass band for scale 1.
    if (!c.settings().skip_scale0) {
      Csf0 f;
      for (int t = 0; t < 3; ++t) f.r[t] = c.factors().r0[t];
      masked_sums(0, s.planes16.view(g0.w, g0.h, masks), f, div, sums, stream);
    }

    // Scales 1-3 from the previous a band (ping-pong, as the CPU).
    for (int scale = 1; scale < 4; ++scale) {
      const ScaleGeometry& g = c.geometry(scale);
      const int in = (scale % 2 == 1) ? 0 : 1, out = 1 - in;
      const DwtOut<int32_t> r = s.planes32.out(0, s.a[out][0].get()), d = s.planes32.out(1, s.a[out][1].get());
      dwt123_kernel<<<blocks(2LL * g.w * g.h), kThreads, 0, stream>>>(
          s.a[in][0].get(), s.a[in][1].get(), c.input_width(scale), c.input_height(scale), dwt_shifts(scale), g.w, g.h,
          r, d);
      cuda::check(cudaGetLastError(), "ADM DWT kernel launch");
      Csf123 f;
      for (int t = 0; t < 3; ++t) f.r[t] = c.factors().rs[scale][t];
      masked_sums(scale, s.planes32.view(g.w, g.h, masks), f, div, sums + kSums * scale, stream);
    }
  }

  void reduce(std::span<const unsigned long long> staged, unsigned index, FeatureSink& out) override {
    FrameSums sums;
    for (int scale = 0; scale < 4; ++scale) {
      const unsigned long long* v = staged.data() + kSums * scale;
      for (int t = 0; t < 3; ++t) {
        sums.scale[scale].num[t] = int64_t(v[t]);
        sums.scale[scale].aim[t] = int64_t(v[3 + t]);
        sums.scale[scale].den[t] = v[6 + t];
      }
    }
    front_.emit(sums, index, out);
  }

  Front front_;
  seam::Buffer<int32_t> div_;
  seam::Object<SlotState> state_;
};

}  // namespace
}  // namespace integer_adm

extern const ExtractorInfo kIntegerAdmCudaInfo;
const ExtractorInfo kIntegerAdmCudaInfo =
    twin_extractor<integer_adm::AdmCuda>(integer_adm::kSpec, Backend::kCuda, "adm_cuda", nullptr);

}  // namespace vqtwin
