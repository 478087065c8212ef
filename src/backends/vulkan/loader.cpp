#include "backends/vulkan/loader.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

#include "vqtwin/error.hpp"

namespace vqtwin::vulkan {
namespace {

Functions g_vk;

}  // namespace

const Functions& vk() { return g_vk; }

bool load_loader(std::string* why) {
  static std::once_flag once;
  static std::string failure;
  std::call_once(once, [] {
    const char* name = std::getenv("VQTWIN_VULKAN_LOADER");
    if (!name || !*name) name = "libvulkan.so.1";
    void* lib = ::dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char* e = ::dlerror();
      failure = std::string("no Vulkan loader (") + (e ? e : name) + ")";
      return;
    }
    g_vk.vkGetInstanceProcAddr = reinterpret_cast<PFN_vkGetInstanceProcAddr>(::dlsym(lib, "vkGetInstanceProcAddr"));
    if (!g_vk.vkGetInstanceProcAddr) {
      failure = std::string("no Vulkan loader (") + name + " has no vkGetInstanceProcAddr)";
      return;
    }
#define VQTWIN_VK_GLOBAL_LOAD(f) g_vk.f = reinterpret_cast<PFN_##f>(g_vk.vkGetInstanceProcAddr(nullptr, #f));
    VQTWIN_VK_GLOBAL(VQTWIN_VK_GLOBAL_LOAD)
#undef VQTWIN_VK_GLOBAL_LOAD
    if (!g_vk.vkCreateInstance) failure = std::string("no Vulkan loader (") + name + " has no vkCreateInstance)";
    // The library stays open for the life of the process (drivers keep threads and pointers into it).
  });
  if (!failure.empty() && why) *why = failure;
  return failure.empty();
}

void load_instance(VkInstance instance) {
#define VQTWIN_VK_INSTANCE_LOAD(f) g_vk.f = reinterpret_cast<PFN_##f>(g_vk.vkGetInstanceProcAddr(instance, #f));
  VQTWIN_VK_INSTANCE(VQTWIN_VK_INSTANCE_LOAD)
  // Device-level entries through the instance: the loader's trampolines serve every device.
  VQTWIN_VK_DEVICE(VQTWIN_VK_INSTANCE_LOAD)
#undef VQTWIN_VK_INSTANCE_LOAD
}

const char* result_name(VkResult r) {
  switch (r) {
    case VK_SUCCESS: return "VK_SUCCESS";
    case VK_NOT_READY: return "VK_NOT_READY";
    case VK_TIMEOUT: return "VK_TIMEOUT";
    case VK_INCOMPLETE: return "VK_INCOMPLETE";
    case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_MEMORY_MAP_FAILED: return "VK_ERROR_MEMORY_MAP_FAILED";
    case VK_ERROR_LAYER_NOT_PRESENT: return "VK_ERROR_LAYER_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_TOO_MANY_OBJECTS: return "VK_ERROR_TOO_MANY_OBJECTS";
    default: return "VkResult error";
  }
}

void check(VkResult r, const char* what) {
  if (r != VK_SUCCESS) throw Error(std::string("Vulkan: ") + what + " failed: " + result_name(r));
}

}  // namespace vqtwin::vulkan
