// float_psnr_vulkan: the float_psnr front on a Vulkan device, bit-identical to the CPU reference.
// 8/10/12 bits: the exact integer SSE (backends/vulkan/sse.hpp; any order gives libvmaf's double total,
// front.hpp), no float arithmetic on the device. 16 bits, and 10/12-bit frames with a sample of 2^bpc or
// more: libvmaf's order, one invocation in raster order, on one of two paths chosen at init from the
// device's features (vulkan::use_fp64):
//   fp64 path (shaderFloat64 and fp64 round-to-nearest-even): the double additions on the fp64 unit
//     (float_psnr_noise_fp64.comp);
//   fp64-free path (any device with shaderInt64; $VQTWIN_VULKAN_NO_FP64=1 forces it): every value an
//     integer in units of 1 / scale^2, each double addition an integer sum rounded to 53 bits
//     (float_psnr_noise_int.comp).
// Both form the fp32 square exactly in integers. At 10/12 bits the OR of the samples is computed with
// the SSE, and the sequential pass that follows on the device returns at once unless it shows an
// out-of-range sample (no second submission). Proofs: docs/exactness.md.
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdint>

#include "backends/vulkan/sse.hpp"
#include "core/implementation.hpp"
#include "features/float_psnr/front.hpp"
#include "features/float_psnr/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace float_psnr {
namespace {

// The results: the SSE partials, then the sample OR (low 32 bits), then the sequential noise (double
// bits on the fp64 path, the integer in units of 1 / scale^2 on the fp64-free path).
constexpr unsigned kOrAt = vulkan::kSseGroups, kNoiseAt = vulkan::kSseGroups + 1;
// The fp64-free sum's bound: at most 2^30 squares below 2^32 keep every partial sum below 2^62.
constexpr std::uint64_t kMaxSequentialPixels = std::uint64_t(1) << 30;
// Pixels per dispatch of the sequential pass (each continues the sum the previous one stored):
// lavapipe stops any one loop after 65535 iterations (its guard against endless shaders).
constexpr std::uint32_t kChunk = 32768;

class FloatPsnrVulkan final : public vulkan::StagedTwin<std::uint64_t> {
 public:
  explicit FloatPsnrVulkan(const OptionValues&) {}
  unsigned planes_read() const override { return 1u; }  // luma only

 private:
  void declare(const PictureFormat& f, seam::TwinPlan<std::uint64_t>& plan) override {
    front_.init(f);
    format_ = f;
    fp64_ = vulkan::use_fp64(vulkan::device(vulkan::current_device()).features());
    unit_shift_ = 2 * std::countr_zero(unsigned(front_.scale()));  // scale^2 = 2^unit_shift_
    plan.results(kNoiseAt + 1, /*zeroed=*/true);
  }

  void record(const vulkan::Frame<std::uint64_t>& frame) override {
    const int w = format_.width, h = format_.height;
    if (!front_.exact_integer()) return record_sequential(frame, false);
    vulkan::record_plane_sse(frame, format_, 0, w, h, 0);
    if (format_.bitdepth == 8) return;
    struct OrPush {
      std::uint32_t width, height, stride_bytes, ref_base, dist_base, or_word;
    };
    const vulkan::Range ref = frame.ref_plane(0), dist = frame.dist_plane(0);
    const OrPush op{std::uint32_t(w), std::uint32_t(h), std::uint32_t(frame.slot().ref().stride_bytes(0)),
                    ref.base, dist.base, 2 * kOrAt};
    frame.dispatch("float_psnr_or", {ref, dist, frame.results()}, op,
                   unsigned(h < int(vulkan::kSseGroups) ? h : int(vulkan::kSseGroups)));
    frame.compute_barrier();
    record_sequential(frame, true);
  }

  // libvmaf's order; `after_or`: only when the OR shows a sample of 2^bpc or more.
  void record_sequential(const vulkan::Frame<std::uint64_t>& frame, bool after_or) const {
    const vulkan::Range ref = frame.ref_plane(0), dist = frame.dist_plane(0);
    const std::uint32_t w = std::uint32_t(format_.width), h = std::uint32_t(format_.height);
    const std::uint32_t stride = std::uint32_t(frame.slot().ref().stride_bytes(0));
    if (fp64_) {
      struct Push {
        std::uint32_t width, height, stride_bytes, ref_base, dist_base, unit_lo, unit_hi, after_or, bpc, or_at,
            noise_at, first, count, planted;
      };
      const std::uint64_t unit = std::bit_cast<std::uint64_t>(std::ldexp(1.0, -unit_shift_));
      const std::uint32_t planted = vulkan::plant("float_psnr_vulkan_fp64_fp32_sum") ? 1u : 0u;
      for_chunks(frame, [&](std::uint32_t first, std::uint32_t count) {
        const Push p{w, h, stride, ref.base, dist.base, std::uint32_t(unit), std::uint32_t(unit >> 32),
                     after_or ? 1u : 0u, std::uint32_t(format_.bitdepth), kOrAt, kNoiseAt, first, count, planted};
        frame.dispatch("float_psnr_noise_fp64", {ref, dist, frame.results()}, p, 1);
      });
    } else {
      struct Push {
        std::uint32_t width, height, stride_bytes, ref_base, dist_base, after_or, bpc, or_at, noise_at, first, count,
            planted;
      };
      const std::uint32_t planted = vulkan::plant("float_psnr_vulkan_nofp64_square_rtz") ? 1u
                                    : vulkan::plant("float_psnr_vulkan_nofp64_acc32")    ? 2u
                                    : vulkan::plant("float_psnr_vulkan_nofp64_sum_ties_away")  ? 3u
                                                                                         : 0u;
      for_chunks(frame, [&](std::uint32_t first, std::uint32_t count) {
        const Push p{w, h, stride, ref.base, dist.base, after_or ? 1u : 0u, std::uint32_t(format_.bitdepth), kOrAt,
                     kNoiseAt, first, count, planted};
        frame.dispatch("float_psnr_noise_int", {ref, dist, frame.results()}, p, 1);
      });
    }
  }

  // fn(first, count) for each chunk of the luma region's pixels in raster order, a barrier after each
  // (the next chunk reads the sum it stored).
  template <class Fn>
  void for_chunks(const vulkan::Frame<std::uint64_t>& frame, Fn fn) const {
    const std::uint32_t n = std::uint32_t(format_.width) * std::uint32_t(format_.height);
    for (std::uint32_t first = 0; first < n; first += kChunk) {
      fn(first, n - first < kChunk ? n - first : kChunk);
      frame.compute_barrier();
    }
  }

  double noise(std::uint64_t staged) const {
    if (fp64_) return std::bit_cast<double>(staged);
    // Exact: the integer has at most 53 significant bits, the scaling is by a power of two.
    return std::ldexp(double(staged), -unit_shift_);
  }

  void reduce(std::span<const std::uint64_t> r, unsigned index, FeatureSink& out) override {
    if (!front_.exact_integer()) return front_.emit_noise(noise(r[kNoiseAt]), index, out);
    if (format_.bitdepth > 8 && (std::uint32_t(r[kOrAt]) >> format_.bitdepth) != 0)
      return front_.emit_noise(noise(r[kNoiseAt]), index, out);  // an out-of-range sample: libvmaf's order
    std::uint64_t sse = 0;
    for (unsigned g = 0; g < vulkan::kSseGroups; ++g) sse += r[g];
    front_.emit_sse(sse, index, out);
  }

  Front front_;
  PictureFormat format_{};
  bool fp64_ = false;
  int unit_shift_ = 0;
};

// 64-bit integers and the luma plane within a binding's range (both paths); libvmaf's order only on
// 16-bit samples (two bytes) and at most 2^30 pixels (the fp64-free sum's bound, docs/exactness.md).
int check(const OptionValues&, const PictureFormat& f) {
  try {
    const vulkan::DeviceFeatures& d = vulkan::device(vulkan::current_device()).features();
    if (!d.int64) return -ENOTSUP;
    const std::uint64_t plane = vulkan::stored_plane_bytes(f, 0);
    if (plane + d.min_storage_offset > d.max_storage_range) return -ENOTSUP;
    if (f.bitdepth > 8 && std::uint64_t(f.width) * std::uint64_t(f.height) > kMaxSequentialPixels) return -ENOTSUP;
    if (f.bitdepth == 8) {
      Front front;  // 8 bits never leave the exact integer path at any size the reader accepts
      front.init(f);
      if (!front.exact_integer()) return -ENOTSUP;
    }
    return 0;
  } catch (const Error&) {
    return -ENODEV;
  }
}

}  // namespace
}  // namespace float_psnr

extern const ExtractorInfo kFloatPsnrVulkanInfo;
const ExtractorInfo kFloatPsnrVulkanInfo = twin_extractor<float_psnr::FloatPsnrVulkan>(
    float_psnr::kSpec, Backend::kVulkan, "float_psnr_vulkan", &float_psnr::check);

}  // namespace vqtwin
