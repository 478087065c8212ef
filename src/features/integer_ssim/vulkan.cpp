// integer_ssim_vulkan: the integer_ssim front (refusals, total weight, score, dB, on the host) on window
// terms computed on the Vulkan device (integer_ssim_term.comp: exact integer moments, then math.hpp's
// window_term in the fork's double order on the fp64 unit, its division exact in integers). The terms
// come back, and the host adds them in raster order, the CPU's double sum, so the order is the CPU's
// by construction (no device-side reproduction of a sequential sum). Identical frames give exactly 1.
#include <bit>
#include <cerrno>
#include <cstdint>
#include <vector>

#include "backends/vulkan/staged_twin.hpp"
#include "core/implementation.hpp"
#include "features/integer_ssim/front.hpp"
#include "features/integer_ssim/math.hpp"
#include "features/integer_ssim/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace integer_ssim {
namespace {

class IntegerSsimVulkan final : public vulkan::StagedTwin<double> {
 public:
  explicit IntegerSsimVulkan(const OptionValues& o) : front_(o) {}
  unsigned planes_read() const override { return 1u; }  // luma

 private:
  void declare(const PictureFormat& f, seam::TwinPlan<double>& plan) override {
    front_.init(f);
    format_ = f;
    const std::vector<std::uint32_t> taps(kKernel, kKernel + kTaps);
    taps_ = plan.table(std::span<const std::uint32_t>(taps));
    plan.results(std::size_t(f.width) * std::size_t(f.height));  // every window's term, raster order
  }

  void record(const vulkan::Frame<double>& frame) override {
    struct Push {
      std::uint32_t width, height, stride_bytes, bytes_per_sample, ref_base, dist_base;
      std::uint32_t peak_sq_lo, peak_sq_hi, k1sq_lo, k1sq_hi, k2sq_lo, k2sq_hi, planted;
    };
    const vulkan::Range ref = frame.ref_plane(0), dist = frame.dist_plane(0);
    const std::uint64_t peak_sq = std::bit_cast<std::uint64_t>(front_.peak_sq());
    const std::uint64_t k1 = std::bit_cast<std::uint64_t>(kK1sq), k2 = std::bit_cast<std::uint64_t>(kK2sq);
    const Push p{std::uint32_t(format_.width), std::uint32_t(format_.height),
                 std::uint32_t(frame.slot().ref().stride_bytes(0)), std::uint32_t(format_.bytes_per_sample()),
                 ref.base, dist.base, std::uint32_t(peak_sq), std::uint32_t(peak_sq >> 32), std::uint32_t(k1),
                 std::uint32_t(k1 >> 32), std::uint32_t(k2), std::uint32_t(k2 >> 32),
                 vulkan::plant("integer_ssim_vulkan_div_truncate") ? 1u : 0u};
    const unsigned gx = unsigned(format_.width + 63) / 64, gy = unsigned(format_.height);
    frame.dispatch("integer_ssim_term", {ref, dist, frame[taps_], frame.results()}, p, gx < 1024 ? gx : 1024,
                   gy < 65535 ? gy : 65535);
  }

  void reduce(std::span<const double> terms, unsigned index, FeatureSink& out) override {
    double sum = 0.0;
    for (double t : terms) sum += t;  // raster order, one double sum, as the CPU (moments.cpp term_sum)
    front_.emit(sum, index, out);
  }

  Front front_;
  PictureFormat format_{};
  seam::Buffer<std::uint32_t> taps_;
};

// 64-bit integers, the fp64 unit with round-to-nearest-even, and the luma plane and the terms (8 bytes
// a pixel) within one binding's range.
int check(const OptionValues&, const PictureFormat& f) {
  try {
    const vulkan::DeviceFeatures& d = vulkan::device(vulkan::current_device()).features();
    if (!d.int64 || !vulkan::use_fp64(d)) return -ENOTSUP;
    const std::uint64_t plane = vulkan::stored_plane_bytes(f, 0);
    const std::uint64_t terms = std::uint64_t(f.width) * std::uint64_t(f.height) * 8;
    if (plane + d.min_storage_offset > d.max_storage_range || terms > d.max_storage_range) return -ENOTSUP;
    return 0;
  } catch (const Error&) {
    return -ENODEV;
  }
}

}  // namespace
}  // namespace integer_ssim

extern const ExtractorInfo kIntegerSsimVulkanInfo;
const ExtractorInfo kIntegerSsimVulkanInfo = twin_extractor<integer_ssim::IntegerSsimVulkan>(
    integer_ssim::kSpec, Backend::kVulkan, "integer_ssim_vulkan", &integer_ssim::check);

}  // namespace vqtwin
