// vif_vulkan: integer VIF's front (names, num/den, scores, debug outputs, on the host) on the Vulkan
// device's exact per-scale sums, as vif_cuda: per scale the vertical moments of every sample
// (vif_moments.comp), the local statistics and per-pixel contributions summed in int64 per workgroup
// (vif_statistic.comp: cells.hpp sigmas_at and math.hpp accumulate_pixel, its double block on the fp64
// unit with an exact integer division), then the two passes of the downsampling filter
// (vif_down_vertical.comp, vif_down_horizontal.comp). The taps and the log table are the CPU's,
// uploaded once. Scale planes are uint32 words holding libvmaf's 16-bit values (no 16-bit storage
// feature needed).
#include <array>
#include <bit>
#include <cerrno>
#include <cstdint>
#include <string>
#include <vector>

#include "backends/vulkan/staged_twin.hpp"
#include "core/implementation.hpp"
#include "features/integer_vif/cells.hpp"
#include "features/integer_vif/front.hpp"
#include "features/integer_vif/log_table.hpp"
#include "features/integer_vif/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace integer_vif {
namespace {

constexpr unsigned kGroups = 256;  // the statistic pass's workgroups: one partial of each sum each
constexpr unsigned kSums = 4;      // num_log, den_log, lin_sigma2, lin_count

// Workgroups of 64 columns by rows, both capped (each invocation loops over the rest).
unsigned groups_x(int w) { return unsigned(w + 63) / 64 < 1024 ? unsigned(w + 63) / 64 : 1024; }
unsigned groups_y(int h) { return h < 65535 ? unsigned(h) : 65535u; }

// A plane as the shaders read it: its binding, first byte, row bytes and bytes a sample (4: a word).
struct Source {
  vulkan::Range range;
  std::uint32_t base, stride, bytes;
};

class VifVulkan final : public vulkan::StagedTwin<std::uint64_t> {
 public:
  explicit VifVulkan(const OptionValues& o) : front_(o) {}
  unsigned planes_read() const override { return 1u; }  // luma only

 private:
  void declare(const PictureFormat& f, seam::TwinPlan<std::uint64_t>& plan) override {
    front_.init(f);
    std::vector<std::uint32_t> taps(std::size_t(kNumScales) * kMaxTaps, 0u);
    for (int s = 0; s < kNumScales; ++s) {
      const Taps t = taps_of(s);
      for (int i = 0; i < t.size; ++i) taps[std::size_t(s) * kMaxTaps + std::size_t(i)] = t.f[i];
    }
    taps_ = plan.table(std::span<const std::uint32_t>(taps));
    // The CPU's table, widened to words (never regenerated with the device's log2).
    const std::uint16_t* table = log2_table();
    const std::vector<std::uint32_t> words(table, table + kLogTableSize + 16);
    log_table_ = plan.table(std::span<const std::uint32_t>(words));
    plan.results(kNumScales * kSums * kGroups, /*zeroed=*/true);
    const std::size_t n = std::size_t(f.width) * std::size_t(f.height);
    for (auto& m : moments_) m = plan.scratch<std::uint32_t>(n);
    down_ = plan.scratch<std::uint32_t>(std::size_t(f.width) * std::size_t(f.height / 2));
    for (int s = 1; s < kNumScales; ++s) {
      const std::size_t m = std::size_t(f.width >> s) * std::size_t(f.height >> s);
      scaled_x_[s] = plan.scratch<std::uint32_t>(m);
      scaled_y_[s] = plan.scratch<std::uint32_t>(m);
    }
  }

  // Scale `scale`'s four sums from the planes x, y (w x h) into the results.
  void scale_sums(const vulkan::Frame<std::uint64_t>& frame, const Source& x, const Source& y, int w, int h,
                  int scale) const {
    const FrameSetup& setup = front_.setup();
    const Taps t = taps_of(scale);
    MomentShifts sh = moment_shifts(setup.bpc, scale);
    if (scale > 0 && vulkan::plant("vif_vulkan_rounding")) sh.mean.round = 0;  // the harness must catch this
    struct MomentsPush {
      std::uint32_t width, height, x_base, y_base, x_stride, y_stride, bytes_per_sample, tap_first, tap_count,
          tap_half, mean_shift, mean_round, square_shift, square_round;
    };
    const MomentsPush mp{std::uint32_t(w), std::uint32_t(h), x.base, y.base, x.stride, y.stride, x.bytes,
                         std::uint32_t(scale * kMaxTaps), std::uint32_t(t.size), std::uint32_t(t.half),
                         sh.mean.shift, sh.mean.round, sh.square.shift, sh.square.round};
    frame.dispatch("vif_moments",
                   {x.range, y.range, frame[taps_], frame[moments_[0]], frame[moments_[1]], frame[moments_[2]],
                    frame[moments_[3]], frame[moments_[4]]},
                   mp, groups_x(w), groups_y(h));
    frame.compute_barrier();
    struct StatisticPush {
      std::uint32_t width, height, tap_first, tap_count, tap_half, gain_lo, gain_hi, eps_lo, eps_hi, first_partial;
    };
    const std::uint64_t gain = std::bit_cast<std::uint64_t>(setup.gain_limit);
    const std::uint64_t eps = std::bit_cast<std::uint64_t>(kEps);
    // Small planes take fewer workgroups (the partials past them stay 0: the results are zeroed).
    const std::size_t pixels = std::size_t(w) * std::size_t(h);
    const unsigned groups = pixels / 64 + 1 < kGroups ? unsigned(pixels / 64 + 1) : kGroups;
    const StatisticPush sp{std::uint32_t(w), std::uint32_t(h), std::uint32_t(scale * kMaxTaps),
                           std::uint32_t(t.size), std::uint32_t(t.half), std::uint32_t(gain),
                           std::uint32_t(gain >> 32), std::uint32_t(eps), std::uint32_t(eps >> 32),
                           std::uint32_t(scale) * kSums * kGroups};
    frame.dispatch("vif_statistic",
                   {frame[moments_[0]], frame[moments_[1]], frame[moments_[2]], frame[moments_[3]],
                    frame[moments_[4]], frame[taps_], frame[log_table_], frame.results()},
                   sp, groups);
    frame.compute_barrier();  // the moment planes are written again by the next scale
  }

  // Scale `from_scale + 1` of plane x (w x h) into `out` ((w/2) x (h/2), packed words).
  void downsample(const vulkan::Frame<std::uint64_t>& frame, const Source& x, int w, int h, int from_scale,
                  seam::Buffer<std::uint32_t> out) const {
    const Taps t = taps_of(from_scale + 1);
    const Shift sh = downsample_shift(front_.setup().bpc, from_scale);
    struct VerticalPush {
      std::uint32_t width, height, base, stride, bytes_per_sample, tap_first, tap_count, tap_half, shift, round_add;
    };
    const std::uint32_t tap_first = std::uint32_t((from_scale + 1) * kMaxTaps);
    const VerticalPush vp{std::uint32_t(w), std::uint32_t(h), x.base, x.stride, x.bytes, tap_first,
                          std::uint32_t(t.size), std::uint32_t(t.half), sh.shift, sh.round};
    frame.dispatch("vif_down_vertical", {x.range, frame[taps_], frame[down_]}, vp, groups_x(w), groups_y(h / 2));
    frame.compute_barrier();
    struct HorizontalPush {
      std::uint32_t width, out_width, out_height, tap_first, tap_count, tap_half;
    };
    const HorizontalPush hp{std::uint32_t(w), std::uint32_t(w / 2), std::uint32_t(h / 2), tap_first,
                            std::uint32_t(t.size), std::uint32_t(t.half)};
    frame.dispatch("vif_down_horizontal", {frame[down_], frame[taps_], frame[out]}, hp, groups_x(w / 2),
                   groups_y(h / 2));
    frame.compute_barrier();  // `down` is written again by the next downsampling
  }

  void record(const vulkan::Frame<std::uint64_t>& frame) override {
    const FrameSetup& setup = front_.setup();
    const std::uint32_t bytes = std::uint32_t(setup.bpc > 8 ? 2 : 1);
    const std::uint32_t stride = std::uint32_t(frame.slot().ref().stride_bytes(0));
    const vulkan::Range ref = frame.ref_plane(0), dist = frame.dist_plane(0);
    Source x{ref, ref.base, stride, bytes}, y{dist, dist.base, stride, bytes};
    int w = setup.width, h = setup.height;
    // With vif_skip_scale0 the scale-0 statistics are skipped, not the downsampling.
    if (!setup.skip_scale0) scale_sums(frame, x, y, w, h, 0);
    for (int scale = 1; scale < kNumScales; ++scale) {
      downsample(frame, x, w, h, scale - 1, scaled_x_[scale]);
      downsample(frame, y, w, h, scale - 1, scaled_y_[scale]);
      w /= 2;
      h /= 2;
      x = {frame[scaled_x_[scale]], 0, std::uint32_t(w) * 4, 4};
      y = {frame[scaled_y_[scale]], 0, std::uint32_t(w) * 4, 4};
      scale_sums(frame, x, y, w, h, scale);
    }
  }

  void reduce(std::span<const std::uint64_t> staged, unsigned index, FeatureSink& out) override {
    std::array<Accum, kNumScales> sums{};
    const FrameSetup& setup = front_.setup();
    for (int k = 0; k < kNumScales; ++k) {
      std::uint64_t v[kSums] = {0, 0, 0, 0};
      for (unsigned s = 0; s < kSums; ++s)
        for (unsigned g = 0; g < kGroups; ++g) v[s] += staged[(std::size_t(k) * kSums + s) * kGroups + g];
      sums[k] = {std::int64_t(v[0]), std::int64_t(v[1]), std::int64_t(v[2]), std::int64_t(v[3])};
      // Every term is >= 0 and a scale has at most w x h linear-branch pixels, whatever the samples:
      // anything else did not come from the shaders (a transfer or device fault): an error, not a number.
      const std::int64_t pixels = std::int64_t(setup.width >> k) * std::int64_t(setup.height >> k);
      if (sums[k].num_log < 0 || sums[k].den_log < 0 || sums[k].lin_sigma2 < 0 || sums[k].lin_count < 0 ||
          sums[k].lin_count > pixels)
        throw Error("vif_vulkan: frame " + std::to_string(index) + ", scale " + std::to_string(k) +
                    ": the device returned sums no frame can give");
    }
    front_.emit(sums, index, out);
  }

  Front front_;
  seam::Buffer<std::uint32_t> taps_, log_table_;
  seam::Buffer<std::uint32_t> moments_[5];  // mx, my, mxx, myy, mxy of the scale being computed
  seam::Buffer<std::uint32_t> down_;        // the vertical pass of a downsampling
  seam::Buffer<std::uint32_t> scaled_x_[kNumScales], scaled_y_[kNumScales];  // index 0 unused
};

// 64-bit integers, the fp64 unit with round-to-nearest-even (the double block), and the luma plane and
// a moment plane within one binding's range.
int check(const OptionValues&, const PictureFormat& f) {
  try {
    const vulkan::DeviceFeatures& d = vulkan::device(vulkan::current_device()).features();
    if (!d.int64 || !vulkan::use_fp64(d)) return -ENOTSUP;
    const std::uint64_t plane = vulkan::stored_plane_bytes(f, 0);
    const std::uint64_t moments = std::uint64_t(f.width) * std::uint64_t(f.height) * 4;
    if (plane + d.min_storage_offset > d.max_storage_range || moments > d.max_storage_range) return -ENOTSUP;
    return 0;
  } catch (const Error&) {
    return -ENODEV;
  }
}

}  // namespace
}  // namespace integer_vif

extern const ExtractorInfo kIntegerVifVulkanInfo;
const ExtractorInfo kIntegerVifVulkanInfo =
    twin_extractor<integer_vif::VifVulkan>(integer_vif::kSpec, Backend::kVulkan, "vif_vulkan", &integer_vif::check);

}  // namespace vqtwin
