#pragma once
// The base of every Vulkan twin, as cuda/twin.hpp's: init_device() (per-slot buffers and descriptor
// sets, once), enqueue() (record the frame's dispatches and result copies into the slot's command
// buffer; no waiting), read_back() (values from the read-back buffers through the feature's front,
// after the slot's wait()). extract() runs one frame on a private one-slot pipeline.
#include <memory>
#include <span>
#include <vector>

#include "backends/device.hpp"
#include "backends/vulkan/slot.hpp"

namespace vqtwin::vulkan {

class VulkanTwin : public DeviceExtractor {
 public:
  void bind(DevicePipeline& pipeline) final { pipeline_ = &pipeline; }
  void init(const PictureFormat& format) final;
  void submit(FrameSlot& slot, unsigned index) final { enqueue(vulkan_slot(slot), index); }
  void collect(FrameSlot& slot, unsigned index, FeatureSink& out) final { read_back(vulkan_slot(slot), index, out); }
  void extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) final;

 protected:
  // `slots`: the pipeline's slots, index i at [i] (their buffers are fixed: descriptor sets are
  // written once here).
  virtual void init_device(Device& device, const PictureFormat& format, std::span<VulkanSlot* const> slots) = 0;
  virtual void enqueue(VulkanSlot& slot, unsigned index) = 0;
  virtual void read_back(VulkanSlot& slot, unsigned index, FeatureSink& out) = 0;

 private:
  DevicePipeline* pipeline_ = nullptr;
  std::unique_ptr<DevicePipeline> own_;
};

// The planted bug named by $VQTWIN_PLANT (the twin harness proves it fails on each).
bool plant(const char* name);

// Records one dispatch of `kernel` on `slot` binding `ranges` (binding i = ranges[i]), with push
// constants `push` (`bytes`).
void dispatch(VulkanSlot& slot, const Kernel& kernel, const Range* ranges, unsigned n, const void* push,
              unsigned bytes, unsigned groups_x, unsigned groups_y = 1);

}  // namespace vqtwin::vulkan
