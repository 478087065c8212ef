#include "backends/vulkan/timestamps.hpp"

#include "vqtwin/error.hpp"

namespace vqtwin::vulkan {

FrameTimestamps::FrameTimestamps(VulkanSlot& slot) : slot_(&slot) {
  const Device& d = slot.device();
  const std::uint32_t bits = d.timestamp_bits();
  if (bits == 0) {
    why_ = "the compute queue writes no timestamps (timestampValidBits 0)";
    return;
  }
  if (!(d.features().timestamp_period > 0)) {
    why_ = "the device reports no timestamp period";
    return;
  }
  ns_per_tick_ = double(d.features().timestamp_period);
  mask_ = bits >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1;
  VkQueryPoolCreateInfo ci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  ci.queryType = VK_QUERY_TYPE_TIMESTAMP;
  ci.queryCount = 2;
  check(vk().vkCreateQueryPool(d.handle(), &ci, nullptr, &pool_), "vkCreateQueryPool");
}

FrameTimestamps::~FrameTimestamps() {
  if (pool_) vk().vkDestroyQueryPool(slot_->device().handle(), pool_, nullptr);
}

void FrameTimestamps::start() {
  if (!pool_) throw Error("Vulkan: " + why_);
  VkCommandBuffer cb = slot_->commands();
  vk().vkCmdResetQueryPool(cb, pool_, 0, 2);
  vk().vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool_, 0);
}

void FrameTimestamps::stop() {
  if (!pool_) throw Error("Vulkan: " + why_);
  vk().vkCmdWriteTimestamp(slot_->commands(), VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool_, 1);
}

double FrameTimestamps::elapsed_ms() const {
  if (!pool_) throw Error("Vulkan: " + why_);
  std::uint64_t t[2] = {0, 0};
  check(vk().vkGetQueryPoolResults(slot_->device().handle(), pool_, 0, 2, sizeof t, t, sizeof t[0],
                                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
        "vkGetQueryPoolResults");
  return double((t[1] - t[0]) & mask_) * ns_per_tick_ / 1e6;
}

}  // namespace vqtwin::vulkan
