// float_adm_vulkan: float_adm's front (CSF factors, names, pooling, combination: front.hpp) on per-row
// totals computed on a Vulkan device with the CPU's fp32 operations in its order, on either float path
// (the CUDA twin's passes, as shaders):
//   float_adm_convert.comp          the luma of both pictures to float (-128), exactly;
//   float_adm_dwt.comp              each scale's DWT cells, one picture per dispatch;
//   float_adm_decouple_{fp64,int}   the decouple of the work rect (the run's rcpss table, copied once)
//                                   and the mask planes of its restored and additive planes;
//   float_adm_rows_{fp64,int}       per pool row the nine totals (den, DLM and AIM per orientation).
// The host adds the rows in order and pools them with libvmaf's powf (Front::values_from_rows). The
// double steps (mask, threshold centre, gain limit) run on the fp64 unit (fp64 path) or in 64-bit
// integers (fp64-free path), each giving the CPU's double and its rounding to float. Every fp32
// operation notes a result that would be subnormal (devices may flush them): such a frame is computed
// on the host with the CPU's own code from the slot's pictures (cpu.hpp), so every value is the CPU's
// (docs/exactness.md, float_adm). adm_p_norm other than 3 needs powf per term: -ENOTSUP (the CPU).
#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdint>

#include "backends/vulkan/staged_twin.hpp"
#include "common/workspace_pool.hpp"
#include "core/implementation.hpp"
#include "features/float_adm/cells.hpp"
#include "features/float_adm/cpu.hpp"
#include "features/float_adm/front.hpp"
#include "features/float_adm/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace float_adm {
namespace {

constexpr unsigned kMaxGroups = 4096;     // per-cell passes: workgroups of 256, a grid-stride loop beyond
constexpr unsigned kMaxRowGroups = 2048;  // rows pass: one workgroup per pool row, a grid-stride loop beyond

unsigned groups_for(std::size_t n) { return unsigned(std::clamp<std::size_t>((n + 255) / 256, 1, kMaxGroups)); }

// A double's words (fp64 path) and its significand M (2^52 <= M < 2^53) and exponent (fp64-free path).
struct DoubleWords {
  std::uint32_t lo, hi, m_lo, m_hi;
  std::int32_t e;
};
DoubleWords words_of(double x) {
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(x);
  int e = 0;
  const double frac = std::frexp(x, &e);  // x = frac * 2^e, frac in [1/2, 1)
  const auto m = std::uint64_t(std::ldexp(frac, 53));
  return {std::uint32_t(bits), std::uint32_t(bits >> 32), std::uint32_t(m), std::uint32_t(m >> 32), e - 53};
}

// The luma divisor of `bitdepth` as a power of two: v / 2^shift.
std::uint32_t sample_shift(int bitdepth) { return std::uint32_t(bitdepth - 8); }

class FloatAdmVulkan final : public vulkan::StagedTwin<float> {
 public:
  FloatAdmVulkan(const OptionValues& o, const RunSettings& run) : front_(o, run) {}
  unsigned planes_read() const override { return 1u; }  // luma only

 private:
  void declare(const PictureFormat& f, seam::TwinPlan<float>& plan) override {
    front_.init(f);
    if (front_.settings().p_norm != 3.0)
      throw Error("float_adm_vulkan: adm_p_norm other than 3 is computed on the CPU only");
    format_ = f;
    fp64_ = vulkan::use_fp64(vulkan::device(vulkan::current_device()).features());
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
    flag_at_ = rows;  // the frame's flag word after the totals: 1 when a value would be subnormal
    plan.results(rows + 1, true);
    table_ = plan.table(std::span<const std::uint32_t>(front_.settings().rcp_table, 4096));
    const std::size_t n = std::size_t(f.width) * std::size_t(f.height);
    for (auto& p : in_) p = plan.scratch<float>(n);
    for (int s = 0; s < kScales; ++s)
      for (auto& b : bands_[s]) b = plan.scratch<float>(4 * std::size_t(bw_[s]) * std::size_t(bh_[s]));
    const std::size_t m0 = std::size_t(bw_[0]) * std::size_t(bh_[0]);
    restored_ = plan.scratch<float>(3 * m0);
    additive_ = plan.scratch<float>(3 * m0);
    mask_r_ = plan.scratch<float>(3 * m0);
    mask_a_ = plan.scratch<float>(3 * m0);
  }

  void record(const vulkan::Frame<float>& frame) override {
    struct ConvertPush {
      std::uint32_t width, height, stride_bytes, base, bytes_per_sample, shift;
      float recip;
    };
    const std::uint32_t shift = sample_shift(format_.bitdepth);
    for (int img = 0; img < 2; ++img) {
      const vulkan::Range src = img == 0 ? frame.ref_plane(0) : frame.dist_plane(0);
      const ConvertPush cp{std::uint32_t(format_.width), std::uint32_t(format_.height),
                           std::uint32_t(frame.slot().ref().stride_bytes(0)), src.base,
                           std::uint32_t(format_.bytes_per_sample()), shift, std::ldexp(1.0f, -int(shift))};
      frame.dispatch("float_adm_convert", {src, frame[in_[img]]}, cp,
                     groups_for(std::size_t(format_.width) * std::size_t(format_.height)));
    }
    frame.compute_barrier();

    struct DwtPush {
      std::uint32_t w, h, bw, bh, src_at, approx_only, flag_at;
      std::uint32_t taps[8];
    };
    const DwtTaps t = dwt_taps();
    DwtPush dp{};
    for (int u = 0; u < 4; ++u) {
      dp.taps[u] = std::bit_cast<std::uint32_t>(t.lo[u]);
      dp.taps[4 + u] = std::bit_cast<std::uint32_t>(t.hi[u]);
    }
    dp.flag_at = std::uint32_t(flag_at_);
    const ScaleSettings& set = front_.settings();
    const DoubleWords egl = words_of(set.gain_limit), k30 = words_of(kOneBy30), k15 = words_of(kOneBy15);
    const bool planted = vulkan::plant(fp64_ ? "float_adm_vulkan_fp64_centre_float"
                                             : "float_adm_vulkan_nofp64_centre_low_word");
    vulkan::Range src[2] = {frame[in_[0]], frame[in_[1]]};
    for (int sc = 0; sc < kScales; ++sc) {
      const bool skipped = sc == 0 && front_.skip_scale0();
      const std::size_t m = std::size_t(bw_[sc]) * std::size_t(bh_[sc]);
      dp.w = std::uint32_t(in_w_[sc]);
      dp.h = std::uint32_t(in_h_[sc]);
      dp.bw = std::uint32_t(bw_[sc]);
      dp.bh = std::uint32_t(bh_[sc]);
      dp.src_at = 0;  // the converted picture, or the previous scale's a plane (the first of its four)
      dp.approx_only = skipped ? 1u : 0u;
      for (int img = 0; img < 2; ++img)
        frame.dispatch("float_adm_dwt", {src[img], frame[bands_[sc][img]], frame.results()}, dp, groups_for(m));
      frame.compute_barrier();
      src[0] = frame[bands_[sc][0]];
      src[1] = frame[bands_[sc][1]];
      if (skipped) continue;

      struct DecouplePush {
        std::uint32_t bw, m, left, top, right, bottom, flag_at, cos_sq, egl_lo, egl_hi;
        std::int32_t egl_e;
        std::uint32_t rf_hv, rf_d, k30_lo, k30_hi;
        std::int32_t k30_e;
      };
      const CsfFactors cf = front_.factors(sc);
      const Rect work = work_rect(bw_[sc], bh_[sc]);
      const DecouplePush cpush{std::uint32_t(bw_[sc]), std::uint32_t(m), std::uint32_t(work.left),
                               std::uint32_t(work.top), std::uint32_t(work.right), std::uint32_t(work.bottom),
                               std::uint32_t(flag_at_), std::bit_cast<std::uint32_t>(kCosOneDegreeSq),
                               fp64_ ? egl.lo : egl.m_lo, fp64_ ? egl.hi : egl.m_hi, egl.e,
                               std::bit_cast<std::uint32_t>(cf.hv), std::bit_cast<std::uint32_t>(cf.d),
                               fp64_ ? k30.lo : k30.m_lo, fp64_ ? k30.hi : k30.m_hi, k30.e};
      frame.dispatch(fp64_ ? "float_adm_decouple_fp64" : "float_adm_decouple_int",
                     {frame[bands_[sc][0]], frame[bands_[sc][1]], frame[restored_], frame[additive_], frame[table_],
                      frame.results(), frame[mask_r_], frame[mask_a_]},
                     cpush, groups_for(std::size_t(work.right - work.left) * std::size_t(work.bottom - work.top)));
      frame.compute_barrier();

      struct RowsPush {
        std::uint32_t bw, bh, m, left, top, right, bottom, row_offset, bypass_cm, flag_at, planted, rf_hv, rf_d;
        std::uint32_t k15_lo, k15_hi;
        std::int32_t k15_e;
      };
      const Rect& pool = pool_[sc];
      const RowsPush rp{std::uint32_t(bw_[sc]), std::uint32_t(bh_[sc]), std::uint32_t(m), std::uint32_t(pool.left),
                        std::uint32_t(pool.top), std::uint32_t(pool.right), std::uint32_t(pool.bottom),
                        std::uint32_t(row_offset_[sc]), set.bypass_cm ? 1u : 0u, std::uint32_t(flag_at_),
                        planted ? 1u : 0u, std::bit_cast<std::uint32_t>(cf.hv), std::bit_cast<std::uint32_t>(cf.d),
                        fp64_ ? k15.lo : k15.m_lo, fp64_ ? k15.hi : k15.m_hi, k15.e};
      const unsigned row_groups = unsigned(std::clamp(pool.bottom - pool.top, 1, int(kMaxRowGroups)));
      frame.dispatch(fp64_ ? "float_adm_rows_fp64" : "float_adm_rows_int",
                     {frame[bands_[sc][0]], frame[restored_], frame[additive_], frame.results(), frame[mask_r_],
                      frame[mask_a_]},
                     rp, row_groups);
      frame.compute_barrier();  // the next scale's decouple rewrites the planes this pass reads
    }
  }

  // A flagged frame (a value the device may have flushed) is computed by the CPU's code from the slot's
  // host pictures, which stay untouched until the slot is collected.
  void read_back(vulkan::VulkanSlot& slot, unsigned index, FeatureSink& out) override {
    const seam::Staged<float> st = staged(slot);
    if (st.written && std::bit_cast<std::uint32_t>(st.host[flag_at_]) != 0u) {
      const auto lease = host_.take();
      front_.emit(cpu_frame_scores(front_, slot.ref(), slot.dist(), *lease), index, out);
      return;
    }
    collect_staged(st, index, out);
  }

  void reduce(std::span<const float> staged, unsigned index, FeatureSink& out) override {
    front_.emit(front_.scores_from_rows(staged.data(), row_offset_, bw_, bh_), index, out);
  }

  Front front_;
  PictureFormat format_{};
  bool fp64_ = false;
  int in_w_[kScales] = {}, in_h_[kScales] = {}, bw_[kScales] = {}, bh_[kScales] = {};
  Rect pool_[kScales] = {};
  std::size_t row_offset_[kScales] = {}, flag_at_ = 0;
  seam::Buffer<std::uint32_t> table_;  // the run's rcpss table
  seam::Buffer<float> in_[2];          // the luma of ref and dis as floats
  seam::Buffer<float> bands_[kScales][2];  // per scale and picture: the a, h, v, d planes
  seam::Buffer<float> restored_, additive_;  // h, v, d each (scale-0 size, reused by every scale)
  seam::Buffer<float> mask_r_, mask_a_;      // their mask planes (csf_planes), the same way
  WorkspacePool<CpuWorkspace> host_;  // flagged frames, computed on the host
};

// adm_p_norm 3 (the CPU computes the others), 32-bit round-to-nearest-even float controls and 64-bit
// integers (both paths), and every buffer within one binding's range: the luma as floats (the largest
// scratch plane set) and the stored luma.
int check(const OptionValues& o, const PictureFormat& f) {
  if (o.get_double("adm_p_norm") != 3.0) return -ENOTSUP;
  try {
    const vulkan::DeviceFeatures& d = vulkan::device(vulkan::current_device()).features();
    if (!d.int64 || !d.float_controls || !d.rte32) return -ENOTSUP;
    const std::uint64_t bands = 4ull * std::uint64_t((f.width + 1) / 2) * std::uint64_t((f.height + 1) / 2) * 4;
    const std::uint64_t floats = std::max<std::uint64_t>(std::uint64_t(f.width) * std::uint64_t(f.height) * 4, bands);
    const std::uint64_t plane = vulkan::stored_plane_bytes(f, 0);
    if (floats > d.max_storage_range || plane + d.min_storage_offset > d.max_storage_range) return -ENOTSUP;
    return 0;
  } catch (const Error&) {
    return -ENODEV;
  }
}

}  // namespace
}  // namespace float_adm

extern const ExtractorInfo kFloatAdmVulkanInfo;
const ExtractorInfo kFloatAdmVulkanInfo =
    twin_extractor<float_adm::FloatAdmVulkan>(float_adm::kSpec, Backend::kVulkan, "float_adm_vulkan", &float_adm::check);

}  // namespace vqtwin
