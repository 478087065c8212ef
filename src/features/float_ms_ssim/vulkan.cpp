// float_ms_ssim_vulkan: float_ms_ssim's front (options, level sizes, refusals, score, dB) on moments computed
// on a Vulkan device with the CPU reference's arithmetic, bit for bit, on either float path
// (float_ms_ssim_passes.glsl):
//   1. raw luma -> the level-0 planes (exact: sample * 2^-shift);
//   2. the four decimations of both pyramids, one invocation per output: the CPU's 81 fp32 products in its
//      tap order, added as doubles (fp64 path: the fp64 unit; fp64-free path: exact integer sums rounded to
//      53 bits), rounded to float;
//   3. per level, the horizontal and vertical Gaussian passes of r, d, r*r, d*d, r*d, the same way;
//   4. on the host, from the five moments of every map pixel of every level: the CPU's own pixel_stats,
//      sqrtf, pixel_lcs_of (double divisions), raster-order double sums and float means, then the front's
//      pow combination (front.hpp).
// Every fp32 product and rounding is done in integers, subnormals included; no driver division, square
// root or transcendental (docs/exactness.md, float_ms_ssim).
#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdint>

#include "backends/vulkan/staged_twin.hpp"
#include "core/implementation.hpp"
#include "features/float_ms_ssim/device_hooks.hpp"
#include "features/float_ms_ssim/front.hpp"
#include "features/float_ms_ssim/math.hpp"
#include "features/float_ms_ssim/schema.hpp"
#include "features/float_ssim/math.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace float_ms_ssim {
namespace {

constexpr int kWindow = float_ssim::kWindow;
constexpr int kMoments = 5;
constexpr unsigned kMaxGroups = 4096;  // workgroups of 256, a grid-stride loop beyond

unsigned groups_for(std::size_t n) { return unsigned(std::clamp<std::size_t>((n + 255) / 256, 1, kMaxGroups)); }

// Floats from one moment plane to the next: rounded up to whole 16-float blocks.
std::size_t padded(std::size_t n) { return (n + 15) / 16 * 16; }

// picture_copy's divisor as a power of two: sample = v * 2^-shift.
int sample_shift(int bitdepth) { return bitdepth == 10 ? 2 : bitdepth == 12 ? 4 : bitdepth == 16 ? 8 : 0; }

int map_w(const Front& f, int k) { return f.w(k) - (kWindow - 1); }
int map_h(const Front& f, int k) { return f.h(k) - (kWindow - 1); }

// float_ms_ssim_passes.glsl's push constants.
struct Push {
  std::uint32_t pass, in_w, in_h, out_w, out_h, in_off, out_off, in_plane, out_plane, stride_bytes,
      bytes_per_sample;
  std::int32_t sample_shift;
  std::uint32_t planted;
  std::uint32_t g[kWindow];
};

class FloatMsSsimVulkan final : public vulkan::StagedTwin<float> {
 public:
  explicit FloatMsSsimVulkan(const OptionValues& o) : front_(o) {}
  unsigned planes_read() const override { return 1u; }  // luma only

 private:
  void declare(const PictureFormat& f, seam::TwinPlan<float>& plan) override {
    front_.init(f);
    format_ = f;
    fp64_ = vulkan::use_fp64(vulkan::device(vulkan::current_device()).features());
    std::size_t at = 0;
    for (int k = 0; k < kLevels; ++k) {
      map_[k] = std::size_t(map_w(front_, k)) * std::size_t(map_h(front_, k));
      stride_[k] = padded(map_[k]);
      moments_[k] = at;
      at += std::size_t(kMoments) * stride_[k];
    }
    h_stride_ = padded(std::size_t(map_w(front_, 0)) * std::size_t(front_.h(0)));
    plan.results(at);  // the five moments of every map pixel of every level
    ref_ = plan.scratch<std::uint32_t>(front_.pyramid_size());  // levels 0..4 packed (front.hpp)
    dist_ = plan.scratch<std::uint32_t>(front_.pyramid_size());
    h_ = plan.scratch<std::uint32_t>(std::size_t(kMoments) * h_stride_);
  }

  void record(const vulkan::Frame<float>& frame) override {
    const char* kernel = fp64_ ? "float_ms_ssim_fp64" : "float_ms_ssim_int";
    const std::uint32_t planted =
        vulkan::plant(fp64_ ? "float_ms_ssim_vulkan_fp64_float_sum" : "float_ms_ssim_vulkan_nofp64_float_sum") ? 1u
        : !fp64_ && vulkan::plant("float_ms_ssim_vulkan_nofp64_sum_past_bound")                                 ? 2u
                                                                                                                : 0u;
    Push p{};
    p.planted = planted;
    for (int u = 0; u < kWindow; ++u) p.g[u] = std::bit_cast<std::uint32_t>(float_ssim::kGauss[u]);
    const vulkan::Range pyr[2] = {frame[ref_], frame[dist_]};
    // 1. Level 0 of both pyramids.
    p.pass = 0;
    p.in_w = p.out_w = std::uint32_t(front_.w(0));
    p.in_h = p.out_h = std::uint32_t(front_.h(0));
    p.stride_bytes = std::uint32_t(frame.slot().ref().stride_bytes(0));
    p.bytes_per_sample = std::uint32_t(format_.bytes_per_sample());
    p.sample_shift = sample_shift(format_.bitdepth);
    const std::size_t n0 = std::size_t(front_.w(0)) * std::size_t(front_.h(0));
    for (int img = 0; img < 2; ++img) {
      const vulkan::Range src = img == 0 ? frame.ref_plane(0) : frame.dist_plane(0);
      p.in_off = src.base;
      frame.dispatch(kernel, {src, src, pyr[img]}, p, groups_for(n0));
    }
    // 2. Levels 1..4, each from the one before.
    p.pass = 1;
    for (int k = 1; k < kLevels; ++k) {
      frame.compute_barrier();
      p.in_w = std::uint32_t(front_.w(k - 1));
      p.in_h = std::uint32_t(front_.h(k - 1));
      p.out_w = std::uint32_t(front_.w(k));
      p.out_h = std::uint32_t(front_.h(k));
      p.in_off = std::uint32_t(front_.offset(k - 1));
      p.out_off = std::uint32_t(front_.offset(k));
      for (int img = 0; img < 2; ++img)
        frame.dispatch(kernel, {pyr[img], pyr[img], pyr[img]}, p,
                       groups_for(std::size_t(front_.w(k)) * std::size_t(front_.h(k))));
    }
    // 3. Per level, the Gaussian passes into that level's moments.
    for (int k = 0; k < kLevels; ++k) {
      frame.compute_barrier();
      p.pass = 2;
      p.in_w = std::uint32_t(front_.w(k));
      p.in_h = std::uint32_t(front_.h(k));
      p.out_w = std::uint32_t(map_w(front_, k));
      p.out_h = std::uint32_t(front_.h(k));
      p.in_off = std::uint32_t(front_.offset(k));
      p.out_off = 0;
      p.out_plane = std::uint32_t(h_stride_);
      frame.dispatch(kernel, {pyr[0], pyr[1], frame[h_]}, p, groups_for(std::size_t(p.out_w) * p.out_h));
      frame.compute_barrier();
      p.pass = 3;
      p.in_w = p.out_w;
      p.out_h = std::uint32_t(map_h(front_, k));
      p.in_off = 0;
      p.in_plane = std::uint32_t(h_stride_);
      p.out_off = std::uint32_t(moments_[k]);
      p.out_plane = std::uint32_t(stride_[k]);
      frame.dispatch(kernel, {frame[h_], frame[h_], frame.results()}, p, groups_for(map_[k]));
    }
  }

  // The CPU's per-pixel l, c, s (float_ssim/ssim_core.cpp: pixel_row) and raster-order sums, per level.
  void reduce(std::span<const float> moments, unsigned index, FeatureSink& out) override {
    float l[kLevels], c[kLevels], s[kLevels];
    for (int k = 0; k < kLevels; ++k) {
      const float* mu_r = moments.data() + moments_[k];
      const float* mu_d = mu_r + stride_[k];
      const float* m_rr = mu_d + stride_[k];
      const float* m_dd = m_rr + stride_[k];
      const float* m_rd = m_dd + stride_[k];
      double sum_l = 0.0, sum_c = 0.0, sum_s = 0.0;
      for (std::size_t i = 0; i < map_[k]; ++i) {
        const float_ssim::PixelStats st = float_ssim::pixel_stats(mu_r[i], mu_d[i], m_rr[i], m_dd[i], m_rd[i]);
        const float root = std::sqrt(st.var_r * st.var_d);  // sqrtf: correctly rounded, as the CPU's
        const float_ssim::PixelLcs q = float_ssim::pixel_lcs_of(mu_r[i], mu_d[i], st, root);
        sum_l += q.l;
        sum_c += q.c;
        sum_s += q.s;
      }
      const int w = map_w(front_, k), h = map_h(front_, k);
      l[k] = float_ssim::mean_of(sum_l, w, h);
      c[k] = float_ssim::mean_of(sum_c, w, h);
      s[k] = float_ssim::mean_of(sum_s, w, h);
    }
    front_.emit(l, c, s, index, out);
  }

  Front front_;
  PictureFormat format_{};
  bool fp64_ = false;
  std::size_t map_[kLevels] = {}, stride_[kLevels] = {}, moments_[kLevels] = {};
  std::size_t h_stride_ = 0;
  seam::Buffer<std::uint32_t> ref_, dist_, h_;  // both pyramids (float bits); the horizontal pass
};

// The soft-float functions alone on given operands (device_hooks.hpp), the result words as the results.
class SoftCheckVulkan final : public vulkan::StagedTwin<std::uint32_t> {
 public:
  SoftCheckVulkan(unsigned cases, unsigned per_row, std::vector<std::uint32_t>& out)
      : cases_(cases), per_row_(per_row), out_(out) {}
  unsigned planes_read() const override { return 1u; }

 private:
  void declare(const PictureFormat&, seam::TwinPlan<std::uint32_t>& plan) override { plan.results(4 * std::size_t(cases_)); }
  void record(const vulkan::Frame<std::uint32_t>& frame) override {
    struct {
      std::uint32_t cases, per_row, stride_words, base_words;
    } p{cases_, per_row_, std::uint32_t(frame.slot().ref().stride_bytes(0) / 4), frame.ref_plane(0).base / 4};
    frame.dispatch("float_ms_ssim_soft_check", {frame.ref_plane(0), frame.results()}, p, groups_for(4 * std::size_t(cases_)));
  }
  void reduce(std::span<const std::uint32_t> r, unsigned, FeatureSink&) override { out_.assign(r.begin(), r.end()); }

  unsigned cases_, per_row_;
  std::vector<std::uint32_t>& out_;
};

// 64-bit integers (both paths), and every buffer within one binding's range: the stored luma, the pyramids,
// the horizontal pass and the moments. What the CPU refuses (bit depth, under 176 pixels) passes here: the
// twin's init throws the CPU's own error (front.hpp), as the CUDA twin does, with no fallback line before it.
int check(const OptionValues&, const PictureFormat& f) {
  if (f.bitdepth != 8 && f.bitdepth != 10 && f.bitdepth != 12 && f.bitdepth != 16) return 0;
  if (!size_supported(f.width, f.height)) return 0;
  try {
    const vulkan::DeviceFeatures& d = vulkan::device(vulkan::current_device()).features();
    if (!d.int64) return -ENOTSUP;
    // The horizontal pass holds more than a pyramid; the moments of all levels, a third more than level 0's.
    std::uint64_t moments = 0;
    for (int k = 0, w = f.width, h = f.height; k < kLevels; ++k, w = half_size(w), h = half_size(h))
      moments += std::uint64_t(kMoments) * padded(std::size_t(w - (kWindow - 1)) * std::size_t(h - (kWindow - 1))) * 4;
    const std::uint64_t h = std::uint64_t(kMoments) * padded(std::size_t(f.width - (kWindow - 1)) * std::size_t(f.height)) * 4;
    const std::uint64_t plane = vulkan::stored_plane_bytes(f, 0);
    if (std::max(h, moments) > d.max_storage_range || plane + d.min_storage_offset > d.max_storage_range) return -ENOTSUP;
    return 0;
  } catch (const Error&) {
    return -ENODEV;
  }
}

}  // namespace

std::vector<std::uint32_t> vulkan_soft_check(const Picture& pic, unsigned cases, unsigned per_row) {
  std::vector<std::uint32_t> out;
  SoftCheckVulkan twin(cases, per_row, out);
  twin.init(pic.format());
  struct Discard final : FeatureSink {
    void put(std::string_view, unsigned, double) override {}
    void aggregate(std::string_view, double) override {}
  } sink;
  twin.extract(pic, pic, 0, sink);
  return out;
}

}  // namespace float_ms_ssim

extern const ExtractorInfo kFloatMsSsimVulkanInfo;
const ExtractorInfo kFloatMsSsimVulkanInfo = twin_extractor<float_ms_ssim::FloatMsSsimVulkan>(
    float_ms_ssim::kSpec, Backend::kVulkan, "float_ms_ssim_vulkan", &float_ms_ssim::check);

}  // namespace vqtwin
