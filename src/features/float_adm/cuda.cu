// float_adm_cuda: float_adm's front (CSF factors, names, pooling, combination) on the device's per-row
// totals. Per frame: the luma of both pictures to float (-128); per scale one thread per DWT cell (both
// pictures), the decouple of every cell the masking reads (math.hpp's decouple_cell, the CPU's rcpss
// table copied to the device once), then one block per pool row: each column's denominator, DLM and
// AIM terms per orientation into shared memory (cells.hpp), and each of the nine row totals added in
// column order by one thread (the CPU's float order). The host adds the rows in order and pools them
// (front.hpp, libvmaf's powf). adm_p_norm other than 3 is left to the CPU (a device powf is not the C
// library's): the capability check says -ENOTSUP.
#include <cerrno>
#include <cstdint>

#include "backends/cuda/grid.cuh"
#include "backends/cuda/staged_twin.hpp"
#include "common/luma_float.hpp"
#include "core/implementation.hpp"
#include "features/float_adm/cells.hpp"
#include "features/float_adm/front.hpp"
#include "features/float_adm/schema.hpp"

namespace vqtwin {
namespace float_adm {
namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kRowThreads = 320;  // rows kernel: 10 warps, lanes 0 of warps 0..8 add the 9 totals
constexpr unsigned kMaxRowBlocks = 2048;

unsigned blocks(long long n) { return cuda::blocks_for(n, kThreads, 1, 4096); }

// One DWT level of both pictures: band cell c of picture 0 (ref), then of picture 1 (dis).
struct Bands {
  float* a;
  float* b[3];  // h, v, d
};
__global__ void dwt_kernel(const float* ref, const float* dis, int w, int h, int bw, int bh, bool approx_only,
                           Bands out_ref, Bands out_dis) {
  const long long cells = (long long)bw * bh;
  VQTWIN_GRID_STRIDE(i, 2 * cells) {
    const bool second = i >= cells;
    const long long c = second ? i - cells : i;
    const DwtCell v = dwt_cell_at(second ? dis : ref, w, h, int(c % bw), int(c / bw));
    const Bands& o = second ? out_dis : out_ref;
    o.a[c] = v.a;
    if (!approx_only) {
      o.b[0][c] = v.h;
      o.b[1][c] = v.v;
      o.b[2][c] = v.d;
    }
  }
}

// The decouple of the work rect's cells into the restored and additive planes.
struct Decoupled {
  float* r[3];
  float* a[3];
};
__global__ void decouple_kernel(Oriented ref, Oriented dis, int bw, Rect work, double gain_limit, float cos_sq,
                                const std::uint32_t* table, Decoupled out) {
  const int nw = work.right - work.left;
  VQTWIN_GRID_STRIDE(i, (long long)nw * (work.bottom - work.top)) {
    const std::size_t c = std::size_t(work.top + int(i / nw)) * std::size_t(bw) + std::size_t(work.left + int(i % nw));
    const float o[3] = {ref.p[0][c], ref.p[1][c], ref.p[2][c]};
    const float t[3] = {dis.p[0][c], dis.p[1][c], dis.p[2][c]};
    float r[3], a[3];
    decouple_cell(o, t, gain_limit, cos_sq, table, r, a);
    for (int k = 0; k < 3; ++k) {
      out.r[k][c] = r[k];
      out.a[k][c] = a[k];
    }
  }
}

// Per-row totals, 3 floats per pool row each: denominator, DLM numerator, AIM numerator.
struct RowTotals {
  float* den;
  float* num;
  float* aim;
};
struct Factors {
  float rf[3];
};

// One block per pool row (grid-stride): the terms of every pool column into `terms` (shared memory,
// or `scratch` when a row does not fit), then nine threads add them in column order. `plant` shifts
// the AIM threshold's row by one (the harness must catch it).
__global__ void rows_kernel(Oriented ref, Oriented restored, Oriented additive, int bw, int bh, Rect pool, Factors f,
                            bool bypass_cm, float* scratch, bool plant, RowTotals out) {
  extern __shared__ float shared[];
  const int pw = pool.right - pool.left;
  float* terms = scratch ? scratch + std::size_t(blockIdx.x) * 9 * std::size_t(pw) : shared;
  for (int i = pool.top + blockIdx.x; i < pool.bottom; i += gridDim.x) {
    for (int x = threadIdx.x; x < pw; x += blockDim.x) {
      const int j = pool.left + x;
      const std::size_t c = std::size_t(i) * std::size_t(bw) + std::size_t(j);
      // DLM: the restored detail against the additive impairment's masks; AIM: the reverse.
      const float thr_num = bypass_cm ? 0.0f : threshold_at(additive, f.rf, bw, bh, j, i);
      const float thr_aim = bypass_cm ? 0.0f : threshold_at(restored, f.rf, bw, bh, j, plant && i + 1 < bh ? i + 1 : i);
      for (int k = 0; k < 3; ++k) {
        terms[std::size_t(k) * pw + x] = den_term(ref.p[k][c], f.rf[k]);
        terms[std::size_t(3 + k) * pw + x] = masked_term(restored.p[k][c], f.rf[k], thr_num);
        terms[std::size_t(6 + k) * pw + x] = masked_term(additive.p[k][c], f.rf[k], thr_aim);
      }
    }
    __syncthreads();
    const unsigned q = threadIdx.x >> 5;
    if ((threadIdx.x & 31u) == 0 && q < 9) {
      const float total = sum_in_order(terms + std::size_t(q) * pw, pw);
      float* dst = q < 3 ? out.den : (q < 6 ? out.num : out.aim);
      dst[3 * std::size_t(i - pool.top) + q % 3] = total;
    }
    __syncthreads();  // `terms` is rewritten by the next row
  }
}

int check(const OptionValues& o, const PictureFormat&) { return o.get_double("adm_p_norm") == 3.0 ? 0 : -ENOTSUP; }

class FloatAdmCuda final : public cuda::StagedTwin<float> {
 public:
  FloatAdmCuda(const OptionValues& o, const RunSettings& run) : front_(o, run) {}

 private:
  // A scale's DWT bands: [ref, dis][a, h, v, d].
  struct ScaleBands {
    seam::Buffer<float> band[2][4];
  };

  void declare(const PictureFormat& f, seam::TwinPlan<float>& plan) override {
    front_.init(f);
    if (front_.settings().p_norm != 3.0)
      throw Error("float_adm_cuda: adm_p_norm other than 3 is computed on the CPU only");
    // Results: per scale computed, its den, num and aim totals (3 per pool row each); a skipped
    // scale 0 has none (only what the kernels write is copied back).
    int w = f.width, h = f.height;
    std::size_t rows = 0;
    for (int s = 0; s < kScales; ++s) {
      in_w_[s] = w;
      in_h_[s] = h;
      w = (w + 1) / 2;
      h = (h + 1) / 2;
      bw_[s] = w;
      bh_[s] = h;
      pool_[s] = pool_rect(w, h);
      row_offset_[s] = rows;
      if (s > 0 || !front_.skip_scale0()) rows += 9 * std::size_t(pool_[s].bottom - pool_[s].top);
    }
    plan.results(rows);
    table_ = plan.table(std::span<const std::uint32_t>(front_.settings().rcp_table, 4096));
    int device = 0, optin = 0;
    cuda::check(cudaGetDevice(&device), "cudaGetDevice");
    cuda::check(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), "cudaDeviceGetAttribute");
    const int widest = pool_[0].right - pool_[0].left;
    shared_bytes_ = 9 * std::size_t(widest) * sizeof(float);
    use_shared_ = shared_bytes_ <= std::size_t(optin);
    if (use_shared_)
      cuda::check(cudaFuncSetAttribute(rows_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared_bytes_)),
                  "cudaFuncSetAttribute");
    row_blocks_ = kMaxRowBlocks;
    const std::size_t n = std::size_t(f.width) * std::size_t(f.height);
    for (auto& p : in_) p = plan.scratch<float>(n);  // the luma of ref and dis as floats
    for (int s = 0; s < kScales; ++s) {
      const std::size_t m = std::size_t(bw_[s]) * std::size_t(bh_[s]);
      for (auto& img : scale_[s].band)
        for (auto& b : img) b = plan.scratch<float>(m);
    }
    // Restored h, v, d, additive h, v, d (scale-0 size, reused by every scale).
    for (auto& p : dec_) p = plan.scratch<float>(std::size_t(bw_[0]) * std::size_t(bh_[0]));
    if (!use_shared_) scratch_ = plan.scratch<float>(std::size_t(row_blocks_) * 9 * std::size_t(widest));
  }

  static Bands bands_of(const cuda::Frame<float>& frame, const ScaleBands& p, int img) {
    return {frame[p.band[img][0]], {frame[p.band[img][1]], frame[p.band[img][2]], frame[p.band[img][3]]}};
  }
  static Oriented oriented(const cuda::Frame<float>& frame, const ScaleBands& p, int img) {
    return {{frame[p.band[img][1]], frame[p.band[img][2]], frame[p.band[img][3]]}};
  }

  void record(const cuda::Frame<float>& frame) override {
    const cudaStream_t stream = frame.stream();
    const long long n = (long long)front_.width() * front_.height();
    const int bpc = frame.ref().bitdepth;
    const float scale = luma_scale(bpc);
    for (int img = 0; img < 2; ++img) {
      const cuda::DevicePlane& p = img == 0 ? frame.ref().plane[0] : frame.dist().plane[0];
      if (bpc == 8) cuda::luma_to_float_kernel<std::uint8_t><<<blocks(n), kThreads, 0, stream>>>(p, scale, 128.0f, frame[in_[img]]);
      else cuda::luma_to_float_kernel<std::uint16_t><<<blocks(n), kThreads, 0, stream>>>(p, scale, 128.0f, frame[in_[img]]);
    }
    cuda::check(cudaGetLastError(), "float_adm conversion kernel launch");
    const ScaleSettings& set = front_.settings();
    const bool plant = cuda::plant("float_adm_cuda_aim_row");
    const float* src[2] = {frame[in_[0]], frame[in_[1]]};
    for (int sc = 0; sc < kScales; ++sc) {
      const ScaleBands& p = scale_[sc];
      const bool skipped = sc == 0 && front_.skip_scale0();
      dwt_kernel<<<blocks(2LL * bw_[sc] * bh_[sc]), kThreads, 0, stream>>>(src[0], src[1], in_w_[sc], in_h_[sc], bw_[sc],
                                                                          bh_[sc], skipped, bands_of(frame, p, 0),
                                                                          bands_of(frame, p, 1));
      cuda::check(cudaGetLastError(), "float_adm DWT kernel launch");
      src[0] = frame[p.band[0][0]];
      src[1] = frame[p.band[1][0]];
      if (skipped) continue;
      const Rect work = work_rect(bw_[sc], bh_[sc]);
      const Decoupled dec = {{frame[dec_[0]], frame[dec_[1]], frame[dec_[2]]},
                             {frame[dec_[3]], frame[dec_[4]], frame[dec_[5]]}};
      decouple_kernel<<<blocks((long long)(work.right - work.left) * (work.bottom - work.top)), kThreads, 0, stream>>>(
          oriented(frame, p, 0), oriented(frame, p, 1), bw_[sc], work, set.gain_limit, kCosOneDegreeSq, frame[table_],
          dec);
      cuda::check(cudaGetLastError(), "float_adm decouple kernel launch");
      const CsfFactors cf = front_.factors(sc);
      const Factors f = {{cf.hv, cf.hv, cf.d}};
      const Rect& pool = pool_[sc];
      const int pool_rows = pool.bottom - pool.top;
      float* rows = frame.results() + row_offset_[sc];
      const RowTotals totals = {rows, rows + 3 * std::size_t(pool_rows), rows + 6 * std::size_t(pool_rows)};
      const unsigned grid = unsigned(pool_rows < int(row_blocks_) ? pool_rows : int(row_blocks_));
      rows_kernel<<<grid, kRowThreads, use_shared_ ? shared_bytes_ : 0, stream>>>(
          oriented(frame, p, 0), {{dec.r[0], dec.r[1], dec.r[2]}}, {{dec.a[0], dec.a[1], dec.a[2]}}, bw_[sc], bh_[sc],
          pool, f, set.bypass_cm, frame[scratch_], plant, totals);
      cuda::check(cudaGetLastError(), "float_adm rows kernel launch");
    }
  }

  void reduce(std::span<const float> staged, unsigned index, FeatureSink& out) override {
    front_.emit(front_.scores_from_rows(staged.data(), row_offset_, bw_, bh_), index, out);
  }

  Front front_;
  int in_w_[kScales] = {}, in_h_[kScales] = {}, bw_[kScales] = {}, bh_[kScales] = {};
  Rect pool_[kScales] = {};
  std::size_t row_offset_[kScales] = {};
  seam::Buffer<std::uint32_t> table_;  // the CPU's rcpss table, copied once
  std::size_t shared_bytes_ = 0;
  bool use_shared_ = true;
  unsigned row_blocks_ = 1;
  seam::Buffer<float> in_[2];
  ScaleBands scale_[kScales];
  seam::Buffer<float> dec_[6];
  seam::Buffer<float> scratch_;  // rows kernel buffers when a row does not fit in shared memory (else none)
};

}  // namespace
}  // namespace float_adm

extern const ExtractorInfo kFloatAdmCudaInfo;
const ExtractorInfo kFloatAdmCudaInfo =
    twin_extractor<float_adm::FloatAdmCuda>(float_adm::kSpec, Backend::kCuda, "float_adm_cuda", float_adm::check);

}  // namespace vqtwin
