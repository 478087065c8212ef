// motion_vulkan: integer motion's front (schedule, scores, motion2/motion3, on the host) on the
// Vulkan device's exact SAD (motion_vertical.comp, motion_rows.comp). The previous luma planes stay
// on the device in a ring indexed by frame (entries with the picture's stride, so keeping a frame is
// one copy); frame n's submission waits for frame n-1's (a temporal twin: the backend's timeline
// chain), so the ring and the V plane are never read and written at once.
#include <cerrno>
#include <cstdint>

#include "backends/vulkan/staged_twin.hpp"
#include "core/implementation.hpp"
#include "features/integer_motion/front.hpp"
#include "features/integer_motion/schema.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace integer_motion {
namespace {

constexpr unsigned kGroups = 256;  // the rows pass's workgroups: one SAD partial each

class MotionVulkan final : public vulkan::StagedTwin<std::uint64_t> {
 public:
  explicit MotionVulkan(const OptionValues& o) : front_(o) {}
  void flush(FeatureSink& out) override { front_.flush(out); }
  unsigned planes_read() const override { return 1u; }  // luma only

 private:
  void declare(const PictureFormat& f, seam::TwinPlan<std::uint64_t>& plan) override {
    front_.init(f);
    if (!front_.reads_pixels()) return;  // motion_force_zero: every score is 0, nothing to compute
    plan.results(kGroups, /*zeroed=*/true);
    plan.temporal();
    stride_bytes_ = vulkan::stored_stride_bytes(f, 0);
    plane_bytes_ = vulkan::stored_plane_bytes(f, 0);
    // lag + 1 frames are needed; one more lets the planted bug read a frame too far back.
    ring_size_ = front_.lag() + 2;
    ring_ = plan.persistent<unsigned char>(ring_size_ * plane_bytes_);
    v_ = plan.persistent<std::int32_t>(std::size_t(f.width) * std::size_t(f.height));
  }

  // Ring entry i as a binding (its offset aligned down for the device, `base` where it starts).
  vulkan::Range ring_entry(const vulkan::Frame<std::uint64_t>& frame, unsigned i) const {
    vulkan::Range r = frame[ring_];
    const std::size_t at = (i % ring_size_) * plane_bytes_;
    const std::size_t align = std::size_t(frame.slot().device().features().min_storage_offset);
    r.offset = at / align * align;
    r.base = std::uint32_t(at - r.offset);
    r.bytes = r.base + plane_bytes_;
    return r;
  }

  void record(const vulkan::Frame<std::uint64_t>& frame) override {
    if (!front_.reads_pixels()) return;
    const unsigned index = frame.index();
    const vulkan::Range cur = frame.ref_plane(0);
    if (front_.needs_sad(index)) {
      unsigned back = front_.lag();
      if (vulkan::plant("motion_vulkan_window") && index > back) ++back;  // the harness must catch this
      const vulkan::Range prev = ring_entry(frame, index - back);
      struct VerticalPush {
        std::uint32_t width, height, bpc, bytes_per_sample, stride_bytes, prev_base, cur_base, planted;
      };
      const VerticalPush vp{std::uint32_t(front_.width()), std::uint32_t(front_.height()),
                            std::uint32_t(front_.bitdepth()), std::uint32_t(front_.bytes_per_sample()),
                            std::uint32_t(stride_bytes_), prev.base, cur.base,
                            vulkan::plant("motion_vulkan_rounding") ? 1u : 0u};
      const unsigned gx = unsigned((front_.width() + 63) / 64), gy = unsigned(front_.height() < 65535 ? front_.height() : 65535);
      frame.dispatch("motion_vertical", {prev, cur, frame[v_]}, vp, gx < 1024 ? gx : 1024, gy);
      frame.compute_barrier();
      struct RowsPush {
        std::uint32_t width, height;
      };
      const RowsPush rp{std::uint32_t(front_.width()), std::uint32_t(front_.height())};
      frame.dispatch("motion_rows", {frame[v_], frame.results()}, rp,
                     unsigned(front_.height() < int(kGroups) ? front_.height() : int(kGroups)));
    } else {
      frame.skip_results();
    }
    // Keep this frame's luma for the frames that compare with it: one copy (same stride), after the
    // reads above of the entry it replaces.
    vulkan::barrier(frame.commands(), VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT,
                    VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    const vulkan::Range ring = frame[ring_];
    const VkBufferCopy keep{cur.offset + cur.base, (index % ring_size_) * plane_bytes_, plane_bytes_};
    vulkan::vk().vkCmdCopyBuffer(frame.commands(), cur.buffer, ring.buffer, 1, &keep);
  }

  void reduce(std::span<const std::uint64_t> partials, unsigned index, FeatureSink& out) override {
    std::uint64_t sad = 0;
    for (std::uint64_t p : partials) sad += p;
    front_.emit(index, sad, out);
  }

  Front front_;
  std::size_t stride_bytes_ = 0, plane_bytes_ = 0;
  unsigned ring_size_ = 0;
  seam::Buffer<unsigned char> ring_;  // luma of frame i at entry i % ring_size_
  seam::Buffer<std::int32_t> v_;      // the vertical pass of the frame being computed
};

// 64-bit integers, and V (4 bytes a luma sample) and a ring entry within one binding's range.
int check(const OptionValues&, const PictureFormat& f) {
  try {
    const vulkan::DeviceFeatures& d = vulkan::device(vulkan::current_device()).features();
    if (!d.int64) return -ENOTSUP;
    const std::uint64_t v = std::uint64_t(f.width) * std::uint64_t(f.height) * 4;
    const std::uint64_t plane = vulkan::stored_plane_bytes(f, 0);
    if (v > d.max_storage_range || plane + d.min_storage_offset > d.max_storage_range) return -ENOTSUP;
    return 0;
  } catch (const Error&) {
    return -ENODEV;
  }
}

}  // namespace
}  // namespace integer_motion

extern const ExtractorInfo kIntegerMotionVulkanInfo;
const ExtractorInfo kIntegerMotionVulkanInfo = twin_extractor<integer_motion::MotionVulkan>(
    integer_motion::kSpec, Backend::kVulkan, "motion_vulkan", &integer_motion::check);

}  // namespace vqtwin
