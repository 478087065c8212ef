#include "backends/vulkan/device.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <utility>

#include "backends/vulkan/shaders.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::vulkan {
namespace {

std::atomic<long> g_live{0};
std::atomic<int> g_current{0};

std::string vendor_name(std::uint32_t id) {
  switch (id) {
    case 0x10DE: return "NVIDIA";
    case 0x1002: return "AMD";
    case 0x8086: return "Intel";
    case 0x13B5: return "ARM";
    case 0x5143: return "Qualcomm";
    case 0x1010: return "ImgTec";
    case 0x10005: return "Mesa";
  }
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%04x", id);
  return buf;
}

const char* type_name(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
    default: return "other";
  }
}

// The process's one instance (Vulkan 1.2: timeline semaphores and float controls are core there).
struct Instance {
  VkInstance handle = VK_NULL_HANDLE;
  std::vector<VkPhysicalDevice> physical;
  std::vector<DeviceFeatures> features;
};

DeviceFeatures describe(VkPhysicalDevice pd) {
  const Functions& f = vk();
  DeviceFeatures d;
  VkPhysicalDeviceProperties basic{};
  f.vkGetPhysicalDeviceProperties(pd, &basic);
  d.name = basic.deviceName;
  d.vendor = vendor_name(basic.vendorID);
  d.type = type_name(basic.deviceType);
  d.api_version = basic.apiVersion;
  d.max_storage_range = basic.limits.maxStorageBufferRange;
  d.min_storage_offset = basic.limits.minStorageBufferOffsetAlignment;
  d.timestamp_period = basic.limits.timestampPeriod;
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  const bool v12ok = VK_API_VERSION_MINOR(basic.apiVersion) >= 2 || VK_API_VERSION_MAJOR(basic.apiVersion) > 1;
  if (v12ok) {
    features.pNext = &v12;
    VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    VkPhysicalDeviceVulkan12Properties p12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
    props.pNext = &p12;
    f.vkGetPhysicalDeviceProperties2(pd, &props);
    d.driver = p12.driverName;
    d.driver_info = p12.driverInfo;
    d.float_controls = true;
    d.denorm_preserve32 = p12.shaderDenormPreserveFloat32;
    d.rte32 = p12.shaderRoundingModeRTEFloat32;
    d.signed_zero_inf_nan32 = p12.shaderSignedZeroInfNanPreserveFloat32;
    d.rte64 = p12.shaderRoundingModeRTEFloat64;
    d.signed_zero_inf_nan64 = p12.shaderSignedZeroInfNanPreserveFloat64;
  }
  f.vkGetPhysicalDeviceFeatures2(pd, &features);
  d.int64 = features.features.shaderInt64;
  d.float64 = features.features.shaderFloat64;
  d.int16 = features.features.shaderInt16;
  d.timeline = v12ok && v12.timelineSemaphore;
  std::uint32_t n = 0;
  f.vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, nullptr);
  std::vector<VkQueueFamilyProperties> families(n);
  f.vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, families.data());
  bool compute = false;
  for (const auto& q : families) compute = compute || (q.queueFlags & VK_QUEUE_COMPUTE_BIT);
  if (!v12ok) d.unusable = "Vulkan " + std::to_string(VK_API_VERSION_MAJOR(basic.apiVersion)) + "." +
                           std::to_string(VK_API_VERSION_MINOR(basic.apiVersion)) + " (vqtwin needs 1.2)";
  else if (!compute) d.unusable = "no compute queue";
  else if (!d.timeline) d.unusable = "no timeline semaphores";
  return d;
}

Instance& instance() {
  static Instance* made = [] {
    std::string why;
    if (!load_loader(&why)) throw Error(why);
    // Kept for the life of the process once made (drivers' threads use it until exit).
    auto in = std::make_unique<Instance>();
    const Functions& f = vk();
    std::uint32_t loader_version = VK_API_VERSION_1_0;
    if (f.vkEnumerateInstanceVersion) f.vkEnumerateInstanceVersion(&loader_version);
    if (loader_version < VK_API_VERSION_1_2)
      throw Error("the Vulkan loader is older than 1.2 (vqtwin needs timeline semaphores)");
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vqtwin";
    app.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ci.pApplicationInfo = &app;
    const VkResult r = f.vkCreateInstance(&ci, nullptr, &in->handle);
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER)  // the loader found no driver (ICD) for Vulkan 1.2
      throw Error("no Vulkan driver (vkCreateInstance: VK_ERROR_INCOMPATIBLE_DRIVER; VK_DRIVER_FILES names a driver's JSON)");
    check(r, "vkCreateInstance");
    load_instance(in->handle);
    std::uint32_t n = 0;
    check(f.vkEnumeratePhysicalDevices(in->handle, &n, nullptr), "vkEnumeratePhysicalDevices");
    in->physical.resize(n);
    check(f.vkEnumeratePhysicalDevices(in->handle, &n, in->physical.data()), "vkEnumeratePhysicalDevices");
    in->physical.resize(n);
    for (VkPhysicalDevice pd : in->physical) in->features.push_back(describe(pd));
    return in.release();
  }();
  return *made;
}

}  // namespace

const std::vector<DeviceFeatures>& physical_devices() { return instance().features; }

bool use_fp64(const DeviceFeatures& d) {
  const char* no = std::getenv("VQTWIN_VULKAN_NO_FP64");
  if (no && std::strcmp(no, "1") == 0) return false;
  return d.float64 && d.float_controls && d.rte64;
}

long live_objects() { return g_live.load(); }
int current_device() { return g_current.load(); }
void set_current_device(int index) { g_current = index; }

Device::Device(int index) : index_(index) {
  Instance& in = instance();
  if (index < 0 || std::size_t(index) >= in.physical.size())
    throw Error(in.physical.empty() ? std::string("no Vulkan device")
                                    : "there are " + std::to_string(in.physical.size()) + " Vulkan devices (0.." +
                                          std::to_string(in.physical.size() - 1) + ")");
  features_ = in.features[std::size_t(index)];
  if (!features_.unusable.empty()) throw Error("Vulkan device " + std::to_string(index) + " (" + features_.name +
                                               "): " + features_.unusable);
  const Functions& f = vk();
  VkPhysicalDevice pd = in.physical[std::size_t(index)];
  std::uint32_t n = 0;
  f.vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, nullptr);
  std::vector<VkQueueFamilyProperties> families(n);
  f.vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, families.data());
  // A compute family, preferably one without graphics (a dedicated compute queue where there is one).
  bool found = false;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (!(families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)) continue;
    if (!found || !(families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT)) family_ = i;
    found = true;
  }
  timestamp_bits_ = families[family_].timestampValidBits;
  f.vkGetPhysicalDeviceMemoryProperties(pd, &memory_);
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo q{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  q.queueFamilyIndex = family_;
  q.queueCount = 1;
  q.pQueuePriorities = &priority;
  // Only what the twins use: 64-bit integers (exact sums), 16-bit integers, 64-bit floats (the float
  // twins' fp64 path, where offered), timeline semaphores.
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  v12.timelineSemaphore = VK_TRUE;
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  features.pNext = &v12;
  features.features.shaderInt64 = features_.int64;
  features.features.shaderInt16 = features_.int16;
  features.features.shaderFloat64 = features_.float64;
  VkDeviceCreateInfo ci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  ci.pNext = &features;
  ci.queueCreateInfoCount = 1;
  ci.pQueueCreateInfos = &q;
  check(f.vkCreateDevice(pd, &ci, nullptr, &device_), "vkCreateDevice");
  f.vkGetDeviceQueue(device_, family_, 0, &queue_);
}

Device::~Device() {
  const Functions& f = vk();
  f.vkDeviceWaitIdle(device_);
  for (auto& [name, k] : kernels_) {
    f.vkDestroyPipeline(device_, k.pipeline, nullptr);
    f.vkDestroyPipelineLayout(device_, k.layout, nullptr);
    f.vkDestroyDescriptorSetLayout(device_, k.set_layout, nullptr);
  }
  f.vkDestroyDevice(device_, nullptr);
}

void Device::submit(const VkSubmitInfo& info) {
  std::lock_guard lock(queue_mutex_);
  check(vk().vkQueueSubmit(queue_, 1, &info, VK_NULL_HANDLE), "vkQueueSubmit");
}

void Device::upload_now(const Buffer& dst, const void* data, std::size_t bytes) {
  if (!bytes) return;
  const Functions& f = vk();
  Buffer staging(*this, bytes, Buffer::Kind::kUpload);
  std::memcpy(staging.mapped(), data, bytes);
  VkCommandPool pool = VK_NULL_HANDLE;
  VkCommandPoolCreateInfo pi{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pi.queueFamilyIndex = family_;
  check(f.vkCreateCommandPool(device_, &pi, nullptr, &pool), "vkCreateCommandPool");
  VkResult r = VK_SUCCESS;
  VkCommandBuffer cb = VK_NULL_HANDLE;
  VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  ai.commandPool = pool;
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = 1;
  r = f.vkAllocateCommandBuffers(device_, &ai, &cb);
  if (r == VK_SUCCESS) {
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    r = f.vkBeginCommandBuffer(cb, &bi);
  }
  if (r == VK_SUCCESS) {
    const VkBufferCopy region{0, 0, bytes};
    f.vkCmdCopyBuffer(cb, staging.get(), dst.get(), 1, &region);
    r = f.vkEndCommandBuffer(cb);
  }
  if (r == VK_SUCCESS) {
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cb;
    std::lock_guard lock(queue_mutex_);
    r = f.vkQueueSubmit(queue_, 1, &si, VK_NULL_HANDLE);
    if (r == VK_SUCCESS) r = f.vkQueueWaitIdle(queue_);
  }
  f.vkDestroyCommandPool(device_, pool, nullptr);
  check(r, "uploading a twin's table");
}

std::uint32_t Device::memory_type(std::uint32_t allowed, VkMemoryPropertyFlags required,
                                  VkMemoryPropertyFlags preferred) const {
  for (VkMemoryPropertyFlags want : {required | preferred, required})
    for (std::uint32_t i = 0; i < memory_.memoryTypeCount; ++i)
      if ((allowed & (1u << i)) && (memory_.memoryTypes[i].propertyFlags & want) == want) return i;
  throw Error("Vulkan: device " + std::to_string(index_) + " has no memory type for a buffer");
}

const Kernel& Device::kernel(const std::string& name, unsigned bindings, unsigned push_bytes) {
  std::lock_guard lock(kernel_mutex_);
  if (auto it = kernels_.find(name); it != kernels_.end()) return it->second;
  const std::span<const std::uint32_t> code = shader_code(name);
  if (code.empty()) throw Error("Vulkan: no shader named " + name + " in this build");
  const Functions& f = vk();
  Kernel k;
  k.bindings = bindings;
  std::vector<VkDescriptorSetLayoutBinding> b(bindings);
  for (unsigned i = 0; i < bindings; ++i)
    b[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo sl{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  sl.bindingCount = bindings;
  sl.pBindings = b.data();
  check(f.vkCreateDescriptorSetLayout(device_, &sl, nullptr, &k.set_layout), "vkCreateDescriptorSetLayout");
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
  VkPipelineLayoutCreateInfo pl{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  pl.setLayoutCount = 1;
  pl.pSetLayouts = &k.set_layout;
  pl.pushConstantRangeCount = push_bytes ? 1 : 0;
  pl.pPushConstantRanges = &range;
  VkShaderModule module = VK_NULL_HANDLE;
  VkResult r = f.vkCreatePipelineLayout(device_, &pl, nullptr, &k.layout);
  if (r == VK_SUCCESS) {
    VkShaderModuleCreateInfo mi{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    mi.codeSize = code.size() * sizeof(std::uint32_t);
    mi.pCode = code.data();
    r = f.vkCreateShaderModule(device_, &mi, nullptr, &module);
  }
  if (r == VK_SUCCESS) {
    VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    ci.stage.module = module;
    ci.stage.pName = "main";
    ci.layout = k.layout;
    r = f.vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &ci, nullptr, &k.pipeline);
    f.vkDestroyShaderModule(device_, module, nullptr);
  }
  if (r != VK_SUCCESS) {
    if (k.layout) f.vkDestroyPipelineLayout(device_, k.layout, nullptr);
    f.vkDestroyDescriptorSetLayout(device_, k.set_layout, nullptr);
    check(r, ("building kernel " + name).c_str());
  }
  return kernels_.emplace(name, k).first->second;
}

Device& device(int index) {
  static std::mutex mutex;
  static auto* opened = new std::map<int, std::unique_ptr<Device>>;  // kept until exit, as the instance
  std::lock_guard lock(mutex);
  auto& d = (*opened)[index];
  if (!d) d = std::make_unique<Device>(index);
  return *d;
}

Buffer::Buffer(Device& device, std::size_t bytes, Kind kind) : device_(&device), bytes_(bytes) {
  const Functions& f = vk();
  VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bi.size = bytes ? bytes : 16;
  bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  check(f.vkCreateBuffer(device.handle(), &bi, nullptr, &buffer_), "vkCreateBuffer");
  ++g_live;
  try {
    VkMemoryRequirements req{};
    f.vkGetBufferMemoryRequirements(device.handle(), buffer_, &req);
    VkMemoryPropertyFlags required = 0, preferred = 0;
    switch (kind) {
      case Kind::kDevice: preferred = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT; break;
      case Kind::kUpload:
        required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        break;
      case Kind::kReadback:
        required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
        preferred = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
        break;
    }
    const std::uint32_t type = device.memory_type(req.memoryTypeBits, required, preferred);
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = type;
    check(f.vkAllocateMemory(device.handle(), &ai, nullptr, &memory_), "vkAllocateMemory");
    ++g_live;
    check(f.vkBindBufferMemory(device.handle(), buffer_, memory_, 0), "vkBindBufferMemory");
    if (kind != Kind::kDevice) {
      check(f.vkMapMemory(device.handle(), memory_, 0, VK_WHOLE_SIZE, 0, &mapped_), "vkMapMemory");
      coherent_ = kind == Kind::kUpload;  // read-back memory is invalidated before each read (always safe)
    }
  } catch (...) {
    reset();
    throw;
  }
}

Buffer& Buffer::operator=(Buffer&& o) noexcept {
  if (this != &o) {
    reset();
    device_ = std::exchange(o.device_, nullptr);
    buffer_ = std::exchange(o.buffer_, VK_NULL_HANDLE);
    memory_ = std::exchange(o.memory_, VK_NULL_HANDLE);
    bytes_ = std::exchange(o.bytes_, 0);
    mapped_ = std::exchange(o.mapped_, nullptr);
    coherent_ = o.coherent_;
  }
  return *this;
}

void Buffer::invalidate() const {
  if (coherent_ || !memory_) return;
  VkMappedMemoryRange r{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
  r.memory = memory_;
  r.offset = 0;
  r.size = VK_WHOLE_SIZE;
  check(vk().vkInvalidateMappedMemoryRanges(device_->handle(), 1, &r), "vkInvalidateMappedMemoryRanges");
}

void Buffer::reset() {
  if (!device_) return;
  const Functions& f = vk();
  if (buffer_) {
    f.vkDestroyBuffer(device_->handle(), buffer_, nullptr);
    --g_live;
  }
  if (memory_) {
    f.vkFreeMemory(device_->handle(), memory_, nullptr);  // unmaps too
    --g_live;
  }
  buffer_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
  mapped_ = nullptr;
  device_ = nullptr;
}

}  // namespace vqtwin::vulkan
