// The Vulkan backend's frame pipeline (backends/device.hpp): one slot per worker, as CUDA's.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "backends/vulkan/slot.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {
namespace vulkan {
namespace {

// How long wait() waits for a frame before calling the device hung (a fault, not a slow frame:
// an 8K frame of every twin takes well under a second on any GPU, seconds on lavapipe).
constexpr std::uint64_t kFrameTimeoutNs = 300ull * 1000 * 1000 * 1000;

class VulkanPipeline final : public DevicePipeline {
 public:
  VulkanPipeline(const PictureFormat& format, int index, unsigned slots) : format_(format) {
    Device& d = device(index);
    set_current_device(index);
    for (unsigned i = 0; i < slots; ++i) slots_.push_back(std::make_unique<VulkanSlot>(d, format, i));
  }
  unsigned slot_count() const override { return unsigned(slots_.size()); }
  FrameSlot& slot(unsigned i) override { return *slots_.at(i); }
  const PictureFormat& format() const override { return format_; }
  void set_uploaded_planes(unsigned mask) override {
    for (auto& s : slots_) s->set_uploaded_planes(mask);
  }

 private:
  PictureFormat format_;
  std::vector<std::unique_ptr<VulkanSlot>> slots_;
};

}  // namespace

void barrier(VkCommandBuffer cb, VkPipelineStageFlags from, VkAccessFlags from_access, VkPipelineStageFlags to,
             VkAccessFlags to_access) {
  VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  b.srcAccessMask = from_access;
  b.dstAccessMask = to_access;
  vk().vkCmdPipelineBarrier(cb, from, to, 0, 1, &b, 0, nullptr, 0, nullptr);
}

VulkanSlot::VulkanSlot(Device& device, const PictureFormat& format, unsigned index)
    : device_(&device),
      index_(index),
      picture_bytes_(Picture::storage_bytes(format)),
      staging_(device, 2 * picture_bytes_, Buffer::Kind::kUpload),
      device_copy_(device, 2 * picture_bytes_, Buffer::Kind::kDevice),
      ref_(format, staging_.mapped()),
      dist_(format, static_cast<unsigned char*>(staging_.mapped()) + picture_bytes_) {
  const Functions& f = vk();
  VkDevice d = device.handle();
  std::memset(staging_.mapped(), 0, 2 * picture_bytes_);
  try {
    VkCommandPoolCreateInfo pi{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pi.queueFamilyIndex = device.queue_family();
    pi.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    check(f.vkCreateCommandPool(d, &pi, nullptr, &pool_), "vkCreateCommandPool");
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    ai.commandPool = pool_;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    check(f.vkAllocateCommandBuffers(d, &ai, &commands_), "vkAllocateCommandBuffers");
    VkSemaphoreTypeCreateInfo ti{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
    ti.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    ti.initialValue = 0;
    VkSemaphoreCreateInfo si{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    si.pNext = &ti;
    check(f.vkCreateSemaphore(d, &si, nullptr, &timeline_), "vkCreateSemaphore");
  } catch (...) {
    if (pool_) f.vkDestroyCommandPool(d, pool_, nullptr);
    throw;
  }
}

VulkanSlot::~VulkanSlot() {
  const Functions& f = vk();
  VkDevice d = device_->handle();
  // The slot's last frame must be done before its buffers go (a frame given up after a fault).
  if (value_) {
    VkSemaphoreWaitInfo wi{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    wi.semaphoreCount = 1;
    wi.pSemaphores = &timeline_;
    wi.pValues = &value_;
    f.vkWaitSemaphores(d, &wi, kFrameTimeoutNs);
  }
  f.vkDestroySemaphore(d, timeline_, nullptr);
  f.vkDestroyCommandPool(d, pool_, nullptr);
  for (VkDescriptorPool p : pools_) f.vkDestroyDescriptorPool(d, p, nullptr);
}

Range VulkanSlot::plane_range(int which, int p) const {
  const std::size_t at = plane_offset(which, p);
  const std::size_t align = std::size_t(device_->features().min_storage_offset);
  const std::size_t bind = at / align * align;
  return {device_copy_.get(), bind, at - bind + plane_bytes(p), std::uint32_t(at - bind)};
}

void VulkanSlot::wait_for(const VulkanSlot& other, std::uint64_t value) {
  if (&other == this) return;  // this slot's own earlier frame: done before this one was uploaded
  const VkSemaphore semaphore = other.timeline_;
  for (unsigned i = 0; i < waits_; ++i)
    if (wait_semaphores_[i] == semaphore) {  // two temporal twins waiting on the same slot: the later value
      wait_values_[i] = std::max(wait_values_[i], value);
      return;
    }
  if (waits_ == kMaxWaits) throw Error("Vulkan: more than 16 semaphore waits on one frame");
  wait_semaphores_[waits_] = semaphore;
  wait_slots_[waits_] = &other;
  wait_values_[waits_++] = value;
}

VkDescriptorSet VulkanSlot::descriptor_set(const Kernel& kernel, const Range* ranges, unsigned n) {
  if (n > kMaxBindings) throw Error("Vulkan: a kernel with more than 8 buffers");
  std::array<std::uint64_t, 1 + 3 * kMaxBindings> key{};
  key[0] = reinterpret_cast<std::uint64_t>(kernel.set_layout);
  for (unsigned i = 0; i < n; ++i) {
    key[1 + 3 * i] = reinterpret_cast<std::uint64_t>(ranges[i].buffer);
    key[2 + 3 * i] = ranges[i].offset;
    key[3 + 3 * i] = ranges[i].bytes;
  }
  if (auto it = sets_.find(key); it != sets_.end()) return it->second;
  const Functions& f = vk();
  VkDevice d = device_->handle();
  VkDescriptorSet set = VK_NULL_HANDLE;
  VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  ai.descriptorSetCount = 1;
  ai.pSetLayouts = &kernel.set_layout;
  VkResult r = VK_ERROR_OUT_OF_POOL_MEMORY;
  if (!pools_.empty()) {
    ai.descriptorPool = pools_.back();
    r = f.vkAllocateDescriptorSets(d, &ai, &set);
  }
  if (r != VK_SUCCESS) {  // the first set, or the pool is full: another pool of 64 sets
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 64 * 8};
    VkDescriptorPoolCreateInfo pi{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pi.maxSets = 64;
    pi.poolSizeCount = 1;
    pi.pPoolSizes = &size;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    check(f.vkCreateDescriptorPool(d, &pi, nullptr, &pool), "vkCreateDescriptorPool");
    pools_.push_back(pool);
    ai.descriptorPool = pool;
    check(f.vkAllocateDescriptorSets(d, &ai, &set), "vkAllocateDescriptorSets");
  }
  VkDescriptorBufferInfo infos[kMaxBindings];
  VkWriteDescriptorSet writes[kMaxBindings];
  for (unsigned i = 0; i < n; ++i) {
    infos[i] = {ranges[i].buffer, ranges[i].offset, ranges[i].bytes};
    writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    writes[i].dstSet = set;
    writes[i].dstBinding = i;
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[i].pBufferInfo = &infos[i];
  }
  f.vkUpdateDescriptorSets(d, n, writes, 0, nullptr);
  return sets_.emplace(key, set).first->second;
}

std::size_t VulkanSlot::plane_offset(int which, int p) const {
  const Picture& pic = which ? dist_ : ref_;
  return std::size_t(static_cast<const unsigned char*>(pic.data(p)) - static_cast<const unsigned char*>(staging_.mapped()));
}

std::size_t VulkanSlot::plane_bytes(int p) const {
  return std::size_t(ref_.stride_bytes(p)) * std::size_t(ref_.height(p));
}

void VulkanSlot::upload() {
  const Functions& f = vk();
  // A frame given up while recording (an error in a twin) is dropped: the pool's reset discards it.
  recording_ = false;
  waits_ = 0;
  check(f.vkResetCommandPool(device_->handle(), pool_, 0), "vkResetCommandPool");
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(f.vkBeginCommandBuffer(commands_, &bi), "vkBeginCommandBuffer");
  recording_ = true;
  // The staging buffer is coherent: the host's writes are visible to the copy once submitted.
  const int planes = ref_.format().num_planes();
  VkBufferCopy regions[6];
  std::uint32_t n = 0;
  if ((planes_ & kAllPlanes) == kAllPlanes || (planes == 1 && (planes_ & 1))) {
    regions[n++] = {0, 0, 2 * picture_bytes_};
  } else {
    for (int which = 0; which < 2; ++which)
      for (int p = 0; p < planes; ++p)
        if (planes_ & (1u << p)) regions[n++] = {plane_offset(which, p), plane_offset(which, p), plane_bytes(p)};
  }
  if (n) f.vkCmdCopyBuffer(commands_, staging_.get(), device_copy_.get(), n, regions);
  barrier(commands_, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
          VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT);
}

void VulkanSlot::wait() {
  if (!recording_) return;  // nothing enqueued since the last wait
  const Functions& f = vk();
  recording_ = false;
  // The twins' result copies visible to the host.
  barrier(commands_, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
          VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
          VK_ACCESS_HOST_READ_BIT);
  check(f.vkEndCommandBuffer(commands_), "vkEndCommandBuffer");
  const std::uint64_t signal = value_ + 1;
  VkTimelineSemaphoreSubmitInfo ti{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
  ti.signalSemaphoreValueCount = 1;
  ti.pSignalSemaphoreValues = &signal;
  ti.waitSemaphoreValueCount = waits_;
  ti.pWaitSemaphoreValues = wait_values_.data();
  std::array<VkPipelineStageFlags, kMaxWaits> stages;
  stages.fill(VK_PIPELINE_STAGE_ALL_COMMANDS_BIT);
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.pNext = &ti;
  si.waitSemaphoreCount = waits_;
  si.pWaitSemaphores = wait_semaphores_.data();
  si.pWaitDstStageMask = stages.data();
  si.commandBufferCount = 1;
  si.pCommandBuffers = &commands_;
  si.signalSemaphoreCount = 1;
  si.pSignalSemaphores = &timeline_;
  // Submitted once every slot waited for has submitted the value waited for (see wait_for).
  const bool submitted = device_->submit_when(
      [&] {
        for (unsigned i = 0; i < waits_; ++i)
          if (wait_slots_[i]->submitted_ < wait_values_[i]) return false;
        return true;
      },
      [&] {
        device_->submit(si);
        submitted_ = signal;
      },
      int(kFrameTimeoutNs / 1000000000ull));
  if (!submitted) throw Error("Vulkan: a frame waited 300 s for the previous frame's submission");
  value_ = signal;
  waits_ = 0;
  VkSemaphoreWaitInfo wi{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
  wi.semaphoreCount = 1;
  wi.pSemaphores = &timeline_;
  wi.pValues = &value_;
  const VkResult r = f.vkWaitSemaphores(device_->handle(), &wi, kFrameTimeoutNs);
  if (r == VK_TIMEOUT) throw Error("Vulkan: a frame did not finish in 300 s (device hung)");
  check(r, "frame (vkWaitSemaphores)");
}

VulkanSlot& vulkan_slot(FrameSlot& slot) { return backend_slot<VulkanSlot>(slot, "Vulkan"); }

}  // namespace vulkan

std::unique_ptr<DevicePipeline> make_vulkan_pipeline(const PictureFormat& format, int device, unsigned slots) {
  return std::make_unique<vulkan::VulkanPipeline>(format, device, slots);
}

int vulkan_device_count(std::string* why) {
  try {
    const auto& list = vulkan::physical_devices();
    if (list.empty() && why) *why = "no Vulkan device";
    return int(list.size());
  } catch (const Error& e) {
    if (why) *why = e.what();
    return 0;
  }
}

bool vulkan_device_usable(int index, std::string* why, bool gpu_only) {
  try {
    const auto& list = vulkan::physical_devices();
    if (gpu_only && index >= 0 && std::size_t(index) < list.size() && list[std::size_t(index)].type == "CPU") {
      if (why) *why = "Vulkan device " + std::to_string(index) + " (" + list[std::size_t(index)].name + ") is a CPU";
      return false;
    }
    vulkan::device(index);
    vulkan::set_current_device(index);  // the device the twins' capability checks consult (as cudaSetDevice)
    return true;
  } catch (const Error& e) {
    if (why) *why = e.what();
    return false;
  }
}

std::string vulkan_device_listing() {
  std::string out;
  try {
    const auto& list = vulkan::physical_devices();
    if (list.empty()) return "Vulkan: no device\n";
    for (std::size_t i = 0; i < list.size(); ++i) {
      const auto& d = list[i];
      auto yn = [](bool b) { return b ? "yes" : "no"; };
      out += "vulkan " + std::to_string(i) + ": " + d.name + " (" + d.type + "), vendor " + d.vendor + ", driver " +
             (d.driver.empty() ? "?" : d.driver) + (d.driver_info.empty() ? "" : " " + d.driver_info) + ", Vulkan " +
             std::to_string(VK_API_VERSION_MAJOR(d.api_version)) + "." +
             std::to_string(VK_API_VERSION_MINOR(d.api_version)) + "." +
             std::to_string(VK_API_VERSION_PATCH(d.api_version)) + "\n";
      out += std::string("  shaderInt64 ") + yn(d.int64) + ", shaderFloat64 " + yn(d.float64) + ", shaderInt16 " +
             yn(d.int16) + ", timeline semaphores " + yn(d.timeline) + ", float controls " +
             (d.float_controls ? std::string("denorm-preserve32 ") + yn(d.denorm_preserve32) + " rte32 " +
                                     yn(d.rte32) + " signed-zero-inf-nan32 " + yn(d.signed_zero_inf_nan32) + " rte64 " +
                                     yn(d.rte64)
                               : std::string("not reported")) +
             ", max storage buffer " + std::to_string(d.max_storage_range) + " bytes\n";
      out += std::string("  float twins: ") + (use_fp64(d) ? "fp64 path" : "fp64-free path") + "\n";
      out += "  " + (d.unusable.empty() ? std::string("usable by vqtwin") : "not usable by vqtwin: " + d.unusable) + "\n";
    }
  } catch (const Error& e) {
    const std::string what = e.what();
    out += (what.rfind("Vulkan", 0) == 0 ? what : "Vulkan: " + what) + "\n";
  }
  return out;
}

}  // namespace vqtwin
