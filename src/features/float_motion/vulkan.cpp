// float_motion_vulkan: the float_motion front (names, refusals, schedule, fps weight, blend, clip: on
// the host, in double, as the CPU) on blurs and SADs computed on a Vulkan device with the CPU's fp32
// operations, in the CPU's order (the CUDA twin's passes, as shaders):
//   float_motion_blur.comp     the vertical and horizontal 5-/3-tap passes (or the pass-through);
//   float_motion_half.comp     motion_add_scale1's half-size planes, from the CPU's resampler tables
//                              (positions computed in double on the host, once) and the plane as
//                              libvmaf's resampler reads it;
//   float_motion_row_sad.comp  each SAD row summed left to right in fp32 by one invocation;
//   float_motion_total.comp    the row sums added in row order by one invocation.
// No double is computed on the device: the twin is the same on the fp64 and the fp64-free path
// (docs/exactness.md, float_motion: every double step of the CPU is on the host). Its shaders need
// fp32 round-to-nearest-even (RoundingModeRTE); nothing needs denormals. Temporal: frame n's blur
// goes to ring slot n % 2, and frame n's submission waits for frame n-1's (the backend's timeline).
#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdint>
#include <vector>

#include "backends/vulkan/staged_twin.hpp"
#include "core/implementation.hpp"
#include "features/float_motion/front.hpp"
#include "features/float_motion/twin_plan.hpp"
#include "features/float_motion/math.hpp"
#include "features/float_motion/schema.hpp"
#include "features/float_ssim/decimate_exact.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace float_motion {
namespace {

constexpr int kRing = 2;
constexpr unsigned kMaxGroups = 4096;  // per-pixel passes: workgroups of 256, a grid-stride loop beyond

unsigned groups_for(std::size_t n, unsigned local) {
  return unsigned(std::clamp<std::size_t>((n + local - 1) / local, 1, kMaxGroups));
}

class FloatMotionVulkan final : public vulkan::StagedTwin<float> {
 public:
  explicit FloatMotionVulkan(const OptionValues& o) : front_(o) {}
  void flush(FeatureSink& out) override { front_.flush(out); }
  // Luma, and the chroma planes with motion_add_uv; nothing at all with motion_force_zero.
  unsigned planes_read() const override {
    if (!front_.computes()) return 0;
    return front_.params().add_uv ? kAllPlanes : 1;
  }

 private:
  struct Plane : TwinPlane {
    seam::Buffer<float> blur[kRing], half[kRing];
    seam::Buffer<std::uint32_t> table;  // x0, x1, fx, y0, y1, fy (float bits)
  };

  void declare(const PictureFormat& f, seam::TwinPlan<float>& plan) override {
    front_.init(f);
    format_ = f;
    planes_.clear();
    if (!front_.computes()) return;
    const Params& p = front_.params();
    taps_ = taps_read(p.filter_size);
    per_plane_ = front_.results_per_plane();
    plan.results(std::size_t(per_plane_) * std::size_t(front_.planes()));
    plan.temporal();  // frame n's SAD reads frame n-1's blur; frame n overwrites frame n-2's
    const TwinScratch s = declare_twin_planes(front_, f, plan, vulkan::plant("float_motion_vulkan_uv_scale1_stride"),
                                              planes_, &declare_half);
    tmp_ = s.tmp;
    rows_ = s.rows;
  }

  // The CPU's resampler positions (math.hpp: bilinear_tap, double on the host), one table per plane.
  static void declare_half(Plane& pl, seam::TwinPlan<float>& plan) {
    std::vector<std::uint32_t> t(3 * std::size_t(pl.dw) + 3 * std::size_t(pl.dh));
    auto axis = [&t](std::size_t at, int src, int dst) {
      for (int x = 0; x < dst; ++x) {
        const BilinearTap b = bilinear_tap(x, src, dst);
        t[at + std::size_t(x)] = std::uint32_t(b.i0);
        t[at + std::size_t(dst + x)] = std::uint32_t(b.i1);
        t[at + std::size_t(2 * dst + x)] = std::bit_cast<std::uint32_t>(b.frac);
      }
    };
    axis(0, pl.w, pl.dw);
    axis(3 * std::size_t(pl.dw), pl.h, pl.dh);
    pl.table = plan.table(std::span<const std::uint32_t>(t));
    const std::size_t n = std::size_t(pl.dw) * std::size_t(pl.dh);
    for (auto& b : pl.half) b = plan.persistent<float>(n);
  }

  void record(const vulkan::Frame<float>& frame) override {
    if (!front_.computes()) return;
    const unsigned index = frame.index();
    const Params& p = front_.params();
    const BlurTaps f = taps_ == 3 ? taps3() : taps5();
    const int cur = int(index % kRing), prev = int((index + 1) % kRing);
    for (int i = 0; i < front_.planes(); ++i) {
      const Plane& pl = planes_[std::size_t(i)];
      const std::size_t n = std::size_t(pl.w) * std::size_t(pl.h);
      struct BlurPush {
        std::uint32_t width, height, stride_bytes, base, bytes_per_sample, pass, taps, planted;
        float recip, f0, f1, f2, f3, f4;
      };
      const vulkan::Range src = frame.ref_plane(i), tmp = frame[tmp_], out = frame[pl.blur[cur]];
      BlurPush bp{std::uint32_t(pl.w), std::uint32_t(pl.h), std::uint32_t(frame.slot().ref().stride_bytes(i)),
                  src.base, std::uint32_t(format_.bytes_per_sample()), 0, std::uint32_t(taps_),
                  vulkan::plant("float_motion_vulkan_blur_order") ? 1u : 0u, float_ssim::sample_scale(format_.bitdepth),
                  f.v[0], f.v[1], f.v[2], f.v[3], f.v[4]};
      if (p.filter_size == 1) {  // libvmaf's [0 0 1 0 0]: the samples themselves
        bp.pass = 2;
        frame.dispatch("float_motion_blur", {src, tmp, out}, bp, groups_for(n, 256));
      } else {
        frame.dispatch("float_motion_blur", {src, tmp, tmp}, bp, groups_for(n, 256));
        frame.compute_barrier();
        bp.pass = 1;
        frame.dispatch("float_motion_blur", {src, tmp, out}, bp, groups_for(n, 256));
      }
      frame.compute_barrier();
      if (p.add_scale1) {
        struct HalfPush {
          std::uint32_t width, dw, dh, stored, read;
        };
        const HalfPush hp{std::uint32_t(pl.w), std::uint32_t(pl.dw), std::uint32_t(pl.dh),
                          std::uint32_t(pl.view.stored), std::uint32_t(pl.view.read)};
        frame.dispatch("float_motion_half", {out, frame[pl.table], frame[pl.half[cur]]}, hp,
                       groups_for(std::size_t(pl.dw) * std::size_t(pl.dh), 256));
        frame.compute_barrier();
      }
      if (index > 0) {
        const unsigned at = unsigned(per_plane_ * i);
        record_sad(frame, out, frame[pl.blur[prev]], pl.w, pl.h, at);
        if (p.add_scale1) record_sad(frame, frame[pl.half[cur]], frame[pl.half[prev]], pl.dw, pl.dh, at + 1);
      }
    }
    if (index == 0) frame.skip_results();  // no previous frame: no SAD
  }

  // The SAD total of two w x h planes into results[at]: row sums, then their sum in row order.
  void record_sad(const vulkan::Frame<float>& frame, vulkan::Range a, vulkan::Range b, int w, int h,
                  unsigned at) const {
    struct RowsPush {
      std::uint32_t width, height;
    };
    struct TotalPush {
      std::uint32_t height, at, planted;
    };
    const vulkan::Range rows = frame[rows_];
    frame.dispatch("float_motion_row_sad", {a, b, rows}, RowsPush{std::uint32_t(w), std::uint32_t(h)},
                   unsigned((h + 63) / 64));
    frame.compute_barrier();
    const std::uint32_t planted = vulkan::plant("float_motion_vulkan_nofp64_row_pairs") ? 1u : 0u;
    frame.dispatch("float_motion_total", {rows, frame.results()}, TotalPush{std::uint32_t(h), at, planted}, 1);
    frame.compute_barrier();  // the next SAD rewrites the row sums
  }

  void reduce(std::span<const float> totals, unsigned index, FeatureSink& out) override {
    if (!front_.computes()) return front_.emit(index, 0.0, out);
    front_.emit(index, front_.twin_score(planes_, totals), out);
  }

  Front front_;
  PictureFormat format_{};
  int taps_ = 5, per_plane_ = 1;
  std::vector<Plane> planes_;
  seam::Buffer<float> tmp_, rows_;  // the vertical pass; the SAD's row sums
};

// fp32 round-to-nearest-even (the shaders' RoundingModeRTE), and every buffer within one binding's
// range: a blurred plane (4 bytes a sample; the ring and the vertical pass) and each stored plane read.
// What the CPU refuses is left to init (the same error line).
int check(const OptionValues& o, const PictureFormat& f) {
  try {
    const vulkan::DeviceFeatures& d = vulkan::device(vulkan::current_device()).features();
    if (!d.float_controls || !d.rte32) return -ENOTSUP;
    const Params p = Params::from(o);
    if (p.force_zero) return 0;
    for (int i = 0; i < (p.add_uv ? 3 : 1); ++i) {
      if (i > 0 && f.chroma == ChromaFormat::k400) break;
      const std::uint64_t floats = std::uint64_t(f.plane_width(i)) * std::uint64_t(f.plane_height(i)) * 4;
      const std::uint64_t plane = vulkan::stored_plane_bytes(f, i);
      if (floats > d.max_storage_range || plane + d.min_storage_offset > d.max_storage_range) return -ENOTSUP;
    }
    return 0;
  } catch (const Error&) {
    return -ENODEV;
  }
}

}  // namespace
}  // namespace float_motion

extern const ExtractorInfo kFloatMotionVulkanInfo;
const ExtractorInfo kFloatMotionVulkanInfo = twin_extractor<float_motion::FloatMotionVulkan>(
    float_motion::kSpec, Backend::kVulkan, "float_motion_vulkan", &float_motion::check);

}  // namespace vqtwin
