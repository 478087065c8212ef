// float_ssim_vulkan: the float_ssim front (parameters, geometry, refusals, dB) on moments computed on a
// Vulkan device with the CPU reference's arithmetic, bit for bit, on either float path. Two dispatches a
// frame (float_ssim_gauss_body.glsl):
//   1. raw luma -> the float planes the SSIM runs on, converted (scale 1) or box-decimated (every scale
//      up to 128): the CPU's fp32 products summed exactly as an int64 in units of 2^-45 and rounded to
//      float once (float_ssim_box.glsl; decimate_exact.hpp's lemma), integer arithmetic only, the same
//      on both paths; kept in shared memory with the products r*r, d*d, r*d, and in the same dispatch
//      the horizontal Gaussian pass of r, d, r*r, d*d, r*d;
//   2. the vertical pass.
//   Each pass's fp32 products are rounded in integers; its 11 double additions run on the fp64 unit
//   (fp64 path, float_ssim_gauss_fp64.comp) or as exact integer sums rounded to 53 bits (fp64-free path,
//   float_ssim_gauss_int.comp); each result is rounded to float in integers.
//   3. on the host, from the five moments of each map pixel: the CPU's own pixel_stats, sqrtf,
//      pixel_lcs_of (double divisions), raster-order double sums and means (math.hpp), then the front.
// No driver division, square root or transcendental; no value is denormal (docs/exactness.md).
// Work per frame, 3840x2160 8-bit at auto scale (8: a 480x270 plane, a 470x260 map), before and after
// the planes moved into the first pass (docs/performance.md): 4 -> 2 dispatches, 3 -> 2 pipeline
// barriers, the luma read by 2 dispatches -> 1 (16.6 MB either way), 2.1 MB of plane writes and reads
// -> none (shared memory); per horizontal output 88 -> 55 fp32 products, read from shared memory; no
// 64-bit multiply, bit search or % in an interior box or any Gaussian step. Unchanged: the horizontal
// planes (2.5 MB written, read once), the moments (2.4 MB written, then copied to host memory).
#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <vector>

#include "backends/vulkan/staged_twin.hpp"
#include "core/implementation.hpp"
#include "features/float_ssim/device_hooks.hpp"
#include "features/float_ssim/front.hpp"
#include "features/float_ssim/math.hpp"
#include "features/float_ssim/schema.hpp"
#include "features/float_ssim/ssim_core.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace float_ssim {
namespace {

constexpr unsigned kMaxGroups = 4096;  // workgroups of 256, a grid-stride loop beyond

unsigned groups_for(std::size_t n) { return unsigned(std::clamp<std::size_t>((n + 255) / 256, 1, kMaxGroups)); }

// Floats from one moment plane to the next: the map, rounded up to whole 16-float blocks.
std::size_t padded(std::size_t n) { return (n + 15) / 16 * 16; }

// picture_copy's divisor as a power of two: sample = v * 2^-shift.
int sample_shift(int bitdepth) { return bitdepth == 10 ? 2 : bitdepth == 12 ? 4 : bitdepth == 16 ? 8 : 0; }

// The box decimation's push constants (float_ssim_box.glsl: Box) for the luma of a picture of `f`.
struct BoxPush {
  std::uint32_t width, height, stride_bytes, base_r, base_d, bytes_per_sample, scale, weight;
  std::int32_t sample_shift;
  std::uint32_t plant_mirror;
};
template <class R>
BoxPush box_push(const vulkan::Frame<R>& frame, const PictureFormat& f, const Geometry& g, std::uint32_t base_r,
                 std::uint32_t base_d) {
  return {std::uint32_t(f.width),
          std::uint32_t(f.height),
          std::uint32_t(frame.slot().ref().stride_bytes(0)),
          base_r,
          base_d,
          std::uint32_t(f.bytes_per_sample()),
          std::uint32_t(g.scale),
          std::bit_cast<std::uint32_t>(box_weight(g.scale)),
          sample_shift(f.bitdepth),
          vulkan::plant("float_ssim_vulkan_mirror") ? 1u : 0u};
}

// Plane columns a workgroup of the first pass forms, and the map columns it writes (float_ssim_gauss_body.glsl).
constexpr unsigned kGroupColumns = 256, kGroupSpan = kGroupColumns - (kWindow - 1);
constexpr unsigned kMaxRowGroups = 65535;  // the guaranteed maxComputeWorkGroupCount[1]; a loop beyond

class FloatSsimVulkan final : public vulkan::StagedTwin<float> {
 public:
  explicit FloatSsimVulkan(const OptionValues& o) : front_(o) {}
  unsigned planes_read() const override { return 1u; }  // luma only

 private:
  void declare(const PictureFormat& f, seam::TwinPlan<float>& plan) override {
    front_.init(f);
    format_ = f;
    fp64_ = vulkan::use_fp64(vulkan::device(vulkan::current_device()).features());
    const Geometry& g = front_.geometry();
    map_ = std::size_t(g.map_w()) * std::size_t(g.map_h());
    map_stride_ = padded(map_);
    h_stride_ = padded(std::size_t(g.map_w()) * std::size_t(g.plane_h));
    plan.results(std::size_t(kMoments) * map_stride_);  // the five moments of every map pixel
    h_ = plan.scratch<std::uint32_t>(std::size_t(kMoments) * h_stride_);
  }

  // Two dispatches: the planes from the raw luma and the horizontal pass (pass 0), the vertical pass (pass 1).
  void record(const vulkan::Frame<float>& frame) override {
    const Geometry& g = front_.geometry();
    struct GaussPush {
      std::uint32_t pass, plane_w, rows, map_w, in_plane, out_plane, planted;
      BoxPush box;
      std::uint32_t taps[kWindow];
    };
    static_assert(sizeof(GaussPush) <= 128, "the push constants every device takes");
    const char* kernel = fp64_ ? "float_ssim_gauss_fp64" : "float_ssim_gauss_int";
    const std::uint32_t planted =
        vulkan::plant(fp64_ ? "float_ssim_vulkan_fp64_float_sum" : "float_ssim_vulkan_nofp64_float_sum") ? 1u
        : !fp64_ && vulkan::plant("float_ssim_vulkan_nofp64_sum_past_bound")                             ? 2u
                                                                                                         : 0u;
    const vulkan::Range ref = frame.ref_plane(0), dist = frame.dist_plane(0);
    GaussPush gp{0,
                 std::uint32_t(g.plane_w),
                 std::uint32_t(g.plane_h),
                 std::uint32_t(g.map_w()),
                 0,
                 std::uint32_t(h_stride_),
                 planted,
                 box_push(frame, format_, g, ref.base, dist.base),
                 {}};
    for (int u = 0; u < kWindow; ++u) gp.taps[u] = std::bit_cast<std::uint32_t>(kGauss[u]);
    frame.dispatch(kernel, {ref, dist, frame[h_]}, gp, (unsigned(g.map_w()) + kGroupSpan - 1) / kGroupSpan,
                   std::min(unsigned(g.plane_h), kMaxRowGroups));
    frame.compute_barrier();
    gp.pass = 1;
    gp.rows = std::uint32_t(g.map_h());
    gp.in_plane = std::uint32_t(h_stride_);
    gp.out_plane = std::uint32_t(map_stride_);
    frame.dispatch(kernel, {frame[h_], frame[h_], frame.results()}, gp, groups_for(map_));
  }

  // The CPU's per-pixel l, c, s (ssim_core.cpp: pixel_row) and raster-order sums from the moments.
  void reduce(std::span<const float> moments, unsigned index, FeatureSink& out) override {
    const float* mu_r = moments.data();
    const float* mu_d = mu_r + map_stride_;
    const float* m_rr = mu_d + map_stride_;
    const float* m_dd = m_rr + map_stride_;
    const float* m_rd = m_dd + map_stride_;
    double sum_lcs = 0.0, sum_l = 0.0, sum_c = 0.0, sum_s = 0.0;
    for (std::size_t i = 0; i < map_; ++i) {
      const PixelStats st = pixel_stats(mu_r[i], mu_d[i], m_rr[i], m_dd[i], m_rd[i]);
      const float root = std::sqrt(st.var_r * st.var_d);  // sqrtf: correctly rounded, as the CPU's
      const PixelLcs p = pixel_lcs_of(mu_r[i], mu_d[i], st, root);
      sum_lcs += p.l * p.c * p.s;
      sum_l += p.l;
      sum_c += p.c;
      sum_s += p.s;
    }
    const Geometry& g = front_.geometry();
    const int w = g.map_w(), h = g.map_h();
    front_.emit(Means{mean_of(sum_lcs, w, h), mean_of(sum_l, w, h), mean_of(sum_c, w, h), mean_of(sum_s, w, h)},
                index, out);
  }

  Front front_;
  PictureFormat format_{};
  bool fp64_ = false;
  std::size_t map_ = 0, map_stride_ = 0, h_stride_ = 0;
  seam::Buffer<std::uint32_t> h_;  // the horizontal pass (five planes, float bits)
};

// The decimation alone, its plane as the results (device_hooks.hpp: the byte-for-byte plane check).
class PlaneVulkan final : public vulkan::StagedTwin<float> {
 public:
  PlaneVulkan(int scale, std::vector<float>& out) : scale_(scale), out_(out) {}
  unsigned planes_read() const override { return 1u; }

 private:
  void declare(const PictureFormat& f, seam::TwinPlan<float>& plan) override {
    format_ = f;
    g_ = geometry_of(scale_, f.width, f.height);
    plan.results(std::size_t(g_.plane_w) * std::size_t(g_.plane_h));
  }
  void record(const vulkan::Frame<float>& frame) override {
    const vulkan::Range src = frame.ref_plane(0);
    struct DecimatePush {
      BoxPush box;
      std::uint32_t out_w, out_h;
    };
    const DecimatePush dp{box_push(frame, format_, g_, src.base, src.base), std::uint32_t(g_.plane_w),
                          std::uint32_t(g_.plane_h)};
    frame.dispatch("float_ssim_decimate", {src, frame.results()}, dp,
                   groups_for(std::size_t(g_.plane_w) * std::size_t(g_.plane_h)));
  }
  void reduce(std::span<const float> plane, unsigned, FeatureSink&) override { out_.assign(plane.begin(), plane.end()); }

  int scale_;
  std::vector<float>& out_;
  PictureFormat format_{};
  Geometry g_;
};

// What the CPU refuses (front.hpp: device_check), 64-bit integers (both paths), and every buffer within
// one binding's range: the stored luma, the horizontal pass and the moments (five floats a pixel).
int check(const OptionValues& o, const PictureFormat& f) {
  if (device_check(o, f) != 0) return -ENOTSUP;
  try {
    const vulkan::DeviceFeatures& d = vulkan::device(vulkan::current_device()).features();
    if (!d.int64) return -ENOTSUP;
    const Geometry g = geometry_of(Params::from(o).scale_option, f.width, f.height);
    const std::uint64_t h = std::uint64_t(kMoments) * padded(std::size_t(g.map_w()) * std::size_t(g.plane_h)) * 4;
    const std::uint64_t plane = vulkan::stored_plane_bytes(f, 0);
    if (h > d.max_storage_range || plane + d.min_storage_offset > d.max_storage_range) return -ENOTSUP;
    return 0;
  } catch (const Error&) {
    return -ENODEV;
  }
}

}  // namespace

std::vector<float> vulkan_luma_plane(const Picture& pic, int scale) {
  std::vector<float> plane;
  PlaneVulkan twin(scale, plane);
  twin.init(pic.format());
  struct Discard final : FeatureSink {
    void put(std::string_view, unsigned, double) override {}
    void aggregate(std::string_view, double) override {}
  } sink;
  twin.extract(pic, pic, 0, sink);
  return plane;
}

}  // namespace float_ssim

extern const ExtractorInfo kFloatSsimVulkanInfo;
const ExtractorInfo kFloatSsimVulkanInfo = twin_extractor<float_ssim::FloatSsimVulkan>(
    float_ssim::kSpec, Backend::kVulkan, "float_ssim_vulkan", &float_ssim::check);

}  // namespace vqtwin
