#pragma once
// The Vulkan frame slot: a (reference, distorted) pair in one persistently mapped host-visible
// staging buffer (the host pictures live in it: the reader writes there directly), its device-local
// copy, and the slot's command buffer. upload() starts the frame's command buffer with the copy of
// the planes read; twins append their dispatches and result copies (submit); wait() submits the
// whole frame once and waits on the slot's timeline semaphore. Slots run on different threads, so
// several frames are in flight; nothing is allocated per frame.
#include <array>
#include <map>
#include <vector>

#include "backends/device.hpp"
#include "backends/vulkan/device.hpp"

namespace vqtwin::vulkan {

// A buffer range as a shader binds it: `base` is the byte where the data starts inside the bound
// range (a picture plane's start rounded down to the device's storage offset alignment).
struct Range {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize offset = 0, bytes = 0;
  std::uint32_t base = 0;
};

// A stored plane's row and total bytes in a Picture of `f` (rows padded as Picture lays them out).
inline std::size_t stored_stride_bytes(const PictureFormat& f, int p) {
  const std::size_t row = std::size_t(f.plane_width(p)) * std::size_t(f.bytes_per_sample());
  return (row + Picture::kAlignment - 1) / Picture::kAlignment * Picture::kAlignment;
}
inline std::size_t stored_plane_bytes(const PictureFormat& f, int p) {
  return stored_stride_bytes(f, p) * std::size_t(f.plane_height(p));
}

class VulkanSlot final : public FrameSlot {
 public:
  VulkanSlot(Device& device, const PictureFormat& format, unsigned index);
  ~VulkanSlot() override;
  unsigned index() const override { return index_; }
  Picture& ref() override { return ref_; }
  Picture& dist() override { return dist_; }
  void upload() override;
  void wait() override;
  void set_uploaded_planes(unsigned mask) { planes_ = mask; }

  Device& device() const { return *device_; }
  // The frame's command buffer (recording between upload() and wait()).
  VkCommandBuffer commands() const { return commands_; }
  // The device copy of the pair: ref at offset 0, dist at picture_bytes().
  const Buffer& pictures() const { return device_copy_; }
  std::size_t picture_bytes() const { return picture_bytes_; }
  // Plane p of the reference (0) or distorted (1) picture in pictures(): byte offset and bytes.
  std::size_t plane_offset(int which, int p) const;
  std::size_t plane_bytes(int p) const;
  // The same as a binding (aligned for the device).
  Range plane_range(int which, int p) const;

  // The timeline semaphore and the value it reaches when this slot's current frame is done (known
  // from upload() on, so a later frame can wait for this one).
  VkSemaphore timeline() const { return timeline_; }
  std::uint64_t frame_value() const { return value_ + 1; }
  // This frame's submission waits for `other`'s timeline to reach `value` (frame order of temporal
  // twins). The submission itself is also held back until `other` has submitted that value: queues
  // may run batches in submission order (lavapipe does), so a wait submitted before its signal could
  // block the very batch that signals it.
  void wait_for(const VulkanSlot& other, std::uint64_t value);
  // A descriptor set of `kernel`'s layout binding `ranges` in order: made at the first use and kept
  // (the slot's buffers never change, so after a slot's first frame every set is found here).
  VkDescriptorSet descriptor_set(const Kernel& kernel, const Range* ranges, unsigned n);

 private:
  Device* device_;
  unsigned index_;
  std::size_t picture_bytes_;
  Buffer staging_, device_copy_;
  Picture ref_, dist_;
  unsigned planes_ = kAllPlanes;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer commands_ = VK_NULL_HANDLE;
  VkSemaphore timeline_ = VK_NULL_HANDLE;
  std::uint64_t value_ = 0;  // the timeline's value when this slot's last frame is done
  std::uint64_t submitted_ = 0;  // the last value submitted (guarded by the device's submit mutex)
  bool recording_ = false;
  // The frame's waits (temporal twins: the previous frame's slot), at most one per twin bound. Fixed
  // arrays and a map keyed by fixed arrays: nothing is allocated per frame once every set is made.
  static constexpr unsigned kMaxWaits = 16, kMaxBindings = 8;
  std::array<VkSemaphore, kMaxWaits> wait_semaphores_{};
  std::array<const VulkanSlot*, kMaxWaits> wait_slots_{};
  std::array<std::uint64_t, kMaxWaits> wait_values_{};
  unsigned waits_ = 0;
  std::vector<VkDescriptorPool> pools_;
  std::map<std::array<std::uint64_t, 1 + 3 * kMaxBindings>, VkDescriptorSet> sets_;
};

// The slot a twin was handed, as the Vulkan slot it is (an error if another backend's).
VulkanSlot& vulkan_slot(FrameSlot& slot);

// A barrier: the writes of `from` stages visible to the reads/writes of `to` stages.
void barrier(VkCommandBuffer cb, VkPipelineStageFlags from, VkAccessFlags from_access, VkPipelineStageFlags to,
             VkAccessFlags to_access);

}  // namespace vqtwin::vulkan
