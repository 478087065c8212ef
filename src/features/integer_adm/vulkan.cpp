// adm_vulkan: integer ADM's front (geometry, float tails, combination, names, on the host) on the
// Vulkan device's exact per-scale sums, as adm_cuda. Per scale: the DWT of both pictures
// (adm_dwt0.comp from the luma samples, adm_dwt123.comp from the previous a band), the decouple and
// CSF of the cells the masking reads (adm_prepare.comp), then the pool rows' contrast-masked, AIM and
// denominator sums, each row rounded by the per-row shift, one partial per workgroup
// (adm_masked.comp); reduce adds the partials into FrameSums for the front. Every rule is the CPU's
// (adm_cells.glsl mirrors math.hpp / cells.hpp), integer only: the decouple's two double steps are
// formed exactly in integers, so no device float feature is needed (docs/exactness.md).
#include <cerrno>
#include <cmath>
#include <cstdint>

#include "backends/vulkan/staged_twin.hpp"
#include "core/implementation.hpp"
#include "features/integer_adm/cells.hpp"
#include "features/integer_adm/front.hpp"
#include "features/integer_adm/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace integer_adm {
namespace {

// The masking pass's workgroups per scale at most (one per pool row up to this): one partial of 9 sums
// each; the partials of groups not dispatched stay 0 (the results are zeroed).
constexpr unsigned kGroups = 512;
constexpr unsigned kSums = 9;  // num[3], aim[3], den[3]

// Workgroup counts: the passes cover a band with at most 1024 x 65535 groups (columns x rows), so every
// shader loop runs a few iterations (far from lavapipe's 65535-iteration guard, docs/backends.md).
unsigned capped(long long n, long long cap) { return unsigned(n < 1 ? 1 : (n < cap ? n : cap)); }

// A rounding term passed as 32 bits (every one is 2^(shift-1) with a shift below 32).
std::uint32_t u32(std::int64_t v) {
  if (v < 0 || v > 0xffffffffLL) throw Error("adm_vulkan: a rounding term exceeds 32 bits");
  return std::uint32_t(v);
}

class AdmVulkan final : public vulkan::StagedTwin<std::uint64_t> {
 public:
  explicit AdmVulkan(const OptionValues& o) : front_(o) {}
  unsigned planes_read() const override { return 1u; }  // luma only

 private:
  struct Bands {
    seam::Buffer<std::int32_t> ref, dis;  // h, v, d planes of the scale (3 w h)
  };

  void declare(const PictureFormat& f, seam::TwinPlan<std::uint64_t>& plan) override {
    front_.init(f);
    bytes_per_sample_ = std::uint32_t(f.bytes_per_sample());
    const Computer& c = front_.computer();
    const std::size_t n0 = std::size_t(c.geometry(0).w) * std::size_t(c.geometry(0).h);
    const std::size_t n1 = std::size_t(c.geometry(1).w) * std::size_t(c.geometry(1).h);
    plan.results(4 * kGroups * kSums, /*zeroed=*/true);  // zeroed: scale 0's stay 0 with adm_skip_scale0
    bands_ = {plan.scratch<std::int32_t>(3 * n0), plan.scratch<std::int32_t>(3 * n0)};
    rst_ = plan.scratch<std::int32_t>(3 * n0);
    q_ = plan.scratch<std::int32_t>(3 * n0);
    masks_q_ = plan.scratch<std::int32_t>(2 * n0);
    masks_r_ = plan.scratch<std::int32_t>(2 * n0);
    // The a bands, ping-pong as the CPU: scales 0 and 2 write a[0], scales 1 and 3 a[1].
    a_[0][0] = plan.scratch<std::int32_t>(n0);
    a_[0][1] = plan.scratch<std::int32_t>(n0);
    a_[1][0] = plan.scratch<std::int32_t>(n1);
    a_[1][1] = plan.scratch<std::int32_t>(n1);
    div_ = plan.table(std::span<const std::int32_t>(kReciprocal.div));  // the CPU's table, uploaded once
    int e = 0;
    const double m = std::frexp(c.settings().enhn_gain_limit, &e);  // egl = m 2^e, m in [0.5, 1)
    egl_m_ = std::uint64_t(std::ldexp(m, 53));                       // exact: 53 bits
    egl_e_ = e - 53;
  }

  void record(const vulkan::Frame<std::uint64_t>& frame) override {
    const Computer& c = front_.computer();
    const ScaleGeometry& g0 = c.geometry(0);
    const vulkan::Range ref = frame.ref_plane(0), dis = frame.dist_plane(0);
    struct Dwt0Push {
      std::uint32_t in_w, in_h, bpc, bytes_per_sample, stride_bytes, ref_base, dis_base, w, h;
    };
    const Dwt0Push p0{std::uint32_t(c.input_width(0)), std::uint32_t(c.input_height(0)), std::uint32_t(c.bitdepth()),
                      bytes_per_sample_, std::uint32_t(frame.slot().ref().stride_bytes(0)), ref.base,
                      dis.base, std::uint32_t(g0.w), std::uint32_t(g0.h)};
    frame.dispatch("adm_dwt0", {ref, dis, frame[bands_.ref], frame[bands_.dis], frame[a_[0][0]], frame[a_[0][1]]}, p0,
                   capped((g0.w + 63) / 64, 1024), capped(g0.h, 65535));
    frame.compute_barrier();
    if (!c.settings().skip_scale0) scale_sums(frame, 0);  // else scale 0 is only scale 1's input

    for (int scale = 1; scale < 4; ++scale) {
      const ScaleGeometry& g = c.geometry(scale);
      const int in = (scale % 2 == 1) ? 0 : 1, out = 1 - in;
      const DwtShifts s = dwt_shifts(scale);
      struct Dwt123Push {
        std::uint32_t in_w, in_h, w, h, v_shift, v_round, h_shift, h_round;
      };
      const Dwt123Push p{std::uint32_t(c.input_width(scale)), std::uint32_t(c.input_height(scale)),
                         std::uint32_t(g.w), std::uint32_t(g.h), std::uint32_t(s.v_shift), u32(s.v_round),
                         std::uint32_t(s.h_shift), u32(s.h_round)};
      frame.dispatch("adm_dwt123",
                     {frame[a_[in][0]], frame[a_[in][1]], frame[bands_.ref], frame[bands_.dis], frame[a_[out][0]],
                      frame[a_[out][1]]},
                     p, capped((g.w + 63) / 64, 1024), capped(g.h, 65535));
      frame.compute_barrier();
      scale_sums(frame, scale);
    }
  }

  // The decouple / CSF pass and the masked row sums of one scale whose bands are computed.
  void scale_sums(const vulkan::Frame<std::uint64_t>& frame, int scale) const {
    const Computer& c = front_.computer();
    const ScaleGeometry& g = c.geometry(scale);
    const bool aim = !c.settings().skip_aim;
    std::uint32_t r[3];
    for (int t = 0; t < 3; ++t) r[t] = scale == 0 ? c.factors().r0[t] : c.factors().rs[scale][t];

    struct PreparePush {
      std::uint32_t w, h, left, top, right, bottom, scale0, aim, r0, r1, r2, egl_lo, egl_hi;
      std::int32_t egl_exp;
      std::uint32_t planted;
    };
    const Rect& need = g.needed;
    const PreparePush pp{std::uint32_t(g.w), std::uint32_t(g.h), std::uint32_t(need.left), std::uint32_t(need.top),
                         std::uint32_t(need.right), std::uint32_t(need.bottom), scale == 0 ? 1u : 0u, aim ? 1u : 0u,
                         r[0], r[1], r[2], std::uint32_t(egl_m_), std::uint32_t(egl_m_ >> 32), egl_e_,
                         vulkan::plant("adm_vulkan_angle_never") ? 1u : 0u};  // the harness must catch this
    frame.dispatch("adm_prepare",
                   {frame[bands_.ref], frame[bands_.dis], frame[rst_], frame[q_], frame[masks_q_], frame[masks_r_],
                    frame[div_]},
                   pp, capped((need.width() + 63) / 64, 1024), capped(need.height(), 65535));
    frame.compute_barrier();

    struct MaskedPush {
      std::uint32_t w, h, left, top, right, bottom, scale0, aim, r0, r1, r2;
      std::uint32_t cube_shift[3], cube_round[3];
      std::uint32_t row_shift, row_round;
      std::uint32_t den_sq_shift, den_cube_shift, den_cube_round, den_row_shift, den_row_round;
      std::uint32_t first, planted;
    };
    // The planted bug (the harness must catch it): the masking window replicates at the start
    // instead of reflecting.
    const std::uint32_t planted = vulkan::plant("adm_vulkan_mask_start") ? 1u : 0u;
    const Rect& pool = g.pool;
    const MaskedPush mp{std::uint32_t(g.w), std::uint32_t(g.h), std::uint32_t(pool.left), std::uint32_t(pool.top),
                        std::uint32_t(pool.right), std::uint32_t(pool.bottom), scale == 0 ? 1u : 0u, aim ? 1u : 0u,
                        r[0], r[1], r[2],
                        {g.cube_shift[0], g.cube_shift[1], g.cube_shift[2]},
                        {u32(g.cube_round[0]), u32(g.cube_round[1]), u32(g.cube_round[2])},
                        g.row_shift, u32(g.row_round), g.den_sq_shift, g.den_cube_shift,
                        u32(std::int64_t(g.den_cube_round)), g.den_row_shift, u32(std::int64_t(g.den_row_round)),
                        std::uint32_t(scale) * kGroups * kSums, planted};
    frame.dispatch("adm_masked",
                   {frame[bands_.ref], frame[rst_], frame[q_], frame[masks_q_], frame[masks_r_], frame.results()}, mp,
                   capped(pool.height(), kGroups));
    frame.compute_barrier();  // the next scale's DWT overwrites the bands read here
  }

  void reduce(std::span<const std::uint64_t> partials, unsigned index, FeatureSink& out) override {
    FrameSums sums;
    for (int scale = 0; scale < 4; ++scale) {
      std::uint64_t v[kSums] = {};
      for (unsigned g = 0; g < kGroups; ++g)
        for (unsigned k = 0; k < kSums; ++k) v[k] += partials[(std::size_t(scale) * kGroups + g) * kSums + k];
      for (int t = 0; t < 3; ++t) {
        sums.scale[scale].num[t] = std::int64_t(v[t]);
        sums.scale[scale].aim[t] = std::int64_t(v[3 + t]);
        sums.scale[scale].den[t] = v[6 + t];
      }
    }
    front_.emit(sums, index, out);
  }

  Front front_;
  Bands bands_;
  seam::Buffer<std::int32_t> rst_, q_, masks_q_, masks_r_;
  seam::Buffer<std::int32_t> a_[2][2];  // [ping-pong][ref, dis]
  seam::Buffer<std::int32_t> div_;
  std::uint64_t egl_m_ = 0;  // the gain limit = egl_m_ 2^egl_e_
  std::int32_t egl_e_ = 0;
  std::uint32_t bytes_per_sample_ = 1;
};

// 64-bit integers; the luma plane and the largest binding (three int32 planes of scale 0's bands)
// within maxStorageBufferRange.
int check(const OptionValues&, const PictureFormat& f) {
  try {
    const vulkan::DeviceFeatures& d = vulkan::device(vulkan::current_device()).features();
    if (!d.int64) return -ENOTSUP;
    const std::uint64_t plane = vulkan::stored_plane_bytes(f, 0);
    const std::uint64_t bands = 3 * 4 * std::uint64_t((f.width + 1) / 2) * std::uint64_t((f.height + 1) / 2);
    if (plane + d.min_storage_offset > d.max_storage_range || bands > d.max_storage_range) return -ENOTSUP;
    return 0;
  } catch (const Error&) {
    return -ENODEV;
  }
}

}  // namespace
}  // namespace integer_adm

extern const ExtractorInfo kIntegerAdmVulkanInfo;
const ExtractorInfo kIntegerAdmVulkanInfo = twin_extractor<integer_adm::AdmVulkan>(
    integer_adm::kSpec, Backend::kVulkan, "adm_vulkan", &integer_adm::check);

}  // namespace vqtwin
