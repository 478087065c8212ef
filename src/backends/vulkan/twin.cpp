#include "backends/vulkan/twin.hpp"

#include <cstdlib>
#include <cstring>
#include <vector>

#include "vqtwin/error.hpp"

namespace vqtwin::vulkan {

void VulkanTwin::init(const PictureFormat& format) {
  if (!pipeline_) {
    own_ = make_vulkan_pipeline(format, current_device(), 1);
    own_->set_uploaded_planes(planes_read());
    pipeline_ = own_.get();
  }
  if (!(pipeline_->format() == format))
    throw Error("a Vulkan twin was bound to a pipeline of " + pipeline_->format().describe() + " pictures, not " +
                format.describe());
  std::vector<VulkanSlot*> slots;
  for (unsigned i = 0; i < pipeline_->slot_count(); ++i) slots.push_back(&vulkan_slot(pipeline_->slot(i)));
  init_device(slots[0]->device(), format, slots);
}

void VulkanTwin::extract(const Picture& ref, const Picture& dist, unsigned index, FeatureSink& out) {
  if (!pipeline_) throw Error("Vulkan twin used before init()");
  VulkanSlot& slot = vulkan_slot(pipeline_->slot(0));
  fill_slot(slot, ref, dist, planes_read());
  slot.upload();
  enqueue(slot, index);
  slot.wait();
  read_back(slot, index, out);
}

bool plant(const char* name) {
  static const char* planted = [] {
    const char* v = std::getenv("VQTWIN_PLANT");
    return v ? v : "";
  }();
  return std::strcmp(planted, name) == 0;
}

void dispatch(VulkanSlot& slot, const Kernel& kernel, const Range* ranges, unsigned n, const void* push,
              unsigned bytes, unsigned groups_x, unsigned groups_y) {
  if (n != kernel.bindings) throw Error("Vulkan: a kernel dispatched with the wrong number of buffers");
  const Functions& f = vk();
  const VkDescriptorSet set = slot.descriptor_set(kernel, ranges, n);
  VkCommandBuffer cb = slot.commands();
  f.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, kernel.pipeline);
  f.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, kernel.layout, 0, 1, &set, 0, nullptr);
  if (bytes) f.vkCmdPushConstants(cb, kernel.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, bytes, push);
  f.vkCmdDispatch(cb, groups_x, groups_y, 1);
}

}  // namespace vqtwin::vulkan
