// integer_ssim_vulkan: the integer_ssim front (refusals, total weight, score, dB, on the host) on window
// terms computed on the Vulkan device in two passes: every pixel's 9-tap row sums
// (integer_ssim_rows.comp), then 9 of them down the column and math.hpp's window_term in the fork's double
// order on the fp64 unit, its division exact in integers (integer_ssim_term.comp). Integer moments: exact. The terms
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
    const std::size_t n = std::size_t(f.width) * std::size_t(f.height);
    plan.results(n);  // every window's term, raster order
    for (auto& r : rows_) r = plan.scratch<std::uint64_t>(n);
  }

  void record(const vulkan::Frame<double>& frame) override {
    struct RowsPush {
      std::uint32_t width, height, stride_bytes, bytes_per_sample, ref_base, dist_base;
    };
    struct TermPush {
      std::uint32_t width, height, peak_sq_lo, peak_sq_hi, k1sq_lo, k1sq_hi, k2sq_lo, k2sq_hi, planted;
    };
    const vulkan::Range ref = frame.ref_plane(0), dist = frame.dist_plane(0);
    const unsigned gx = unsigned(format_.width + 63) / 64, gy = unsigned(format_.height);
    const unsigned groups_x = gx < 1024 ? gx : 1024, groups_y = gy < 65535 ? gy : 65535;
    const RowsPush rp{std::uint32_t(format_.width), std::uint32_t(format_.height),
                      std::uint32_t(frame.slot().ref().stride_bytes(0)), std::uint32_t(format_.bytes_per_sample()),
                      ref.base, dist.base};
    frame.dispatch("integer_ssim_rows",
                   {ref, dist, frame[taps_], frame[rows_[0]], frame[rows_[1]], frame[rows_[2]], frame[rows_[3]],
                    frame[rows_[4]]},
                   rp, groups_x, groups_y);
    frame.compute_barrier();
    const std::uint64_t peak_sq = std::bit_cast<std::uint64_t>(front_.peak_sq());
    const std::uint64_t k1 = std::bit_cast<std::uint64_t>(kK1sq), k2 = std::bit_cast<std::uint64_t>(kK2sq);
    const TermPush tp{std::uint32_t(format_.width), std::uint32_t(format_.height), std::uint32_t(peak_sq),
                      std::uint32_t(peak_sq >> 32), std::uint32_t(k1), std::uint32_t(k1 >> 32), std::uint32_t(k2),
                      std::uint32_t(k2 >> 32), vulkan::plant("integer_ssim_vulkan_div_truncate") ? 1u : 0u};
    frame.dispatch("integer_ssim_term",
                   {frame[rows_[0]], frame[rows_[1]], frame[rows_[2]], frame[rows_[3]], frame[rows_[4]],
                    frame[taps_], frame.results()},
                   tp, groups_x, groups_y);
  }

  void reduce(std::span<const double> terms, unsigned index, FeatureSink& out) override {
    double sum = 0.0;
    for (double t : terms) sum += t;  // raster order, one double sum, as the CPU (moments.cpp term_sum)
    front_.emit(sum, index, out);
  }

  Front front_;
  PictureFormat format_{};
  seam::Buffer<std::uint32_t> taps_;
  seam::Buffer<std::uint64_t> rows_[5];  // each pixel's row sums: x, y, x^2, xy, y^2
};

// 64-bit integers, the fp64 unit with round-to-nearest-even, and the luma plane and the terms and each
// row-sum plane (8 bytes a pixel) within one binding's range.
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
