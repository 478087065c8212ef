#pragma once
// One Vulkan device as the twins use it: the logical device with one compute queue (submissions
// serialised by a mutex, as Vulkan requires), its memory types, the features the twins' capability
// checks ask about, and the compute kernels built from the embedded SPIR-V (each built once per
// device and kept: building is the slow part, on lavapipe an LLVM compilation).
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backends/vulkan/loader.hpp"

namespace vqtwin::vulkan {

// What a physical device offers that the twins need (device listing, capability checks).
struct DeviceFeatures {
  std::string name, vendor, driver, driver_info, type;
  std::uint32_t api_version = 0;
  bool int64 = false, float64 = false, int16 = false, timeline = false;
  // Float controls (VkPhysicalDeviceFloatControlsProperties): what a float twin would need.
  bool float_controls = false;  // the device reports them (Vulkan 1.2)
  bool denorm_preserve32 = false, rte32 = false, signed_zero_inf_nan32 = false;
  bool rte64 = false, signed_zero_inf_nan64 = false;
  std::uint64_t max_storage_range = 0;
  std::uint64_t min_storage_offset = 16;
  // Nanoseconds per timestamp tick (VkPhysicalDeviceLimits::timestampPeriod; 0: none reported).
  float timestamp_period = 0;
  // Why vqtwin cannot use it at all (empty when it can): no compute queue, Vulkan below 1.2, no
  // timeline semaphores.
  std::string unusable;
};

// Whether float twins take their fp64 path on this device: it offers shaderFloat64 and fp64
// round-to-nearest-even (float controls), and $VQTWIN_VULKAN_NO_FP64 is not 1 (which forces the fp64-free
// path on any device: how lavapipe and an NVIDIA GPU test it). docs/exactness.md: the two paths.
bool use_fp64(const DeviceFeatures& d);

// The physical devices the loader lists, in its order (what --gpu N indexes). Throws vqtwin::Error
// without a loader or instance.
const std::vector<DeviceFeatures>& physical_devices();

// A compute pipeline: `bindings` storage buffers in set 0, `push_bytes` of push constants.
struct Kernel {
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  unsigned bindings = 0;
};

class Buffer;

class Device {
 public:
  explicit Device(int index);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  int index() const { return index_; }
  VkDevice handle() const { return device_; }
  const DeviceFeatures& features() const { return features_; }
  std::uint32_t queue_family() const { return family_; }
  // The valid bits of the queue's timestamps (0: the queue writes none; backends/vulkan/timestamps.hpp).
  std::uint32_t timestamp_bits() const { return timestamp_bits_; }
  // Submits under the queue's lock.
  void submit(const VkSubmitInfo& info);
  // Frame submissions in dependency order: `ready()` is checked under a lock, waited for (up to
  // `timeout_s`, false when it never came), then `submit_frame()` runs under the same lock and
  // every waiter is woken.
  template <class Ready, class Submit>
  bool submit_when(Ready ready, Submit submit_frame, int timeout_s) {
    std::unique_lock lock(order_mutex_);
    if (!order_cv_.wait_for(lock, std::chrono::seconds(timeout_s), ready)) return false;
    submit_frame();
    order_cv_.notify_all();
    return true;
  }
  // Copies `bytes` from `data` into `dst` at once (a twin's table, at init): through a temporary
  // staging buffer and command buffer, waiting for the queue.
  void upload_now(const Buffer& dst, const void* data, std::size_t bytes);
  // A memory type with `required` flags (and `preferred` ones when some type has them all).
  std::uint32_t memory_type(std::uint32_t allowed_bits, VkMemoryPropertyFlags required,
                            VkMemoryPropertyFlags preferred) const;
  // The kernel of embedded shader `name` (shaders.hpp), built at the first call.
  const Kernel& kernel(const std::string& name, unsigned bindings, unsigned push_bytes);

 private:
  int index_;
  DeviceFeatures features_;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  std::uint32_t family_ = 0;
  std::uint32_t timestamp_bits_ = 0;
  VkPhysicalDeviceMemoryProperties memory_{};
  std::mutex queue_mutex_, kernel_mutex_, order_mutex_;
  std::condition_variable order_cv_;
  std::map<std::string, Kernel> kernels_;
};

// Device `index`, opened at the first call and kept for the life of the process. Throws
// vqtwin::Error when it cannot be used (no loader, no such device, what it lacks).
Device& device(int index);

// The device twins' capability checks consult (set by the pipeline's maker; 0 until then).
int current_device();
void set_current_device(int index);

// A buffer and its memory. kDevice: device-local (the pictures, the twins' working data); kUpload:
// host-visible and coherent, mapped for its whole life (the frame staging the host writes);
// kReadback: host-visible, preferably cached, mapped (results the host reads after the slot's wait).
class Buffer {
 public:
  enum class Kind { kDevice, kUpload, kReadback };
  Buffer() = default;
  Buffer(Device& device, std::size_t bytes, Kind kind);
  ~Buffer() { reset(); }
  Buffer(Buffer&& o) noexcept { *this = std::move(o); }
  Buffer& operator=(Buffer&& o) noexcept;
  VkBuffer get() const { return buffer_; }
  std::size_t bytes() const { return bytes_; }
  void* mapped() const { return mapped_; }
  // Makes the device's writes visible to the host (non-coherent read-back memory).
  void invalidate() const;

 private:
  void reset();
  Device* device_ = nullptr;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  std::size_t bytes_ = 0;
  void* mapped_ = nullptr;
  bool coherent_ = true;
};

// Vulkan buffers, memory and pools alive now (tests prove every error path frees what it took).
long live_objects();

}  // namespace vqtwin::vulkan
