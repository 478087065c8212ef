#pragma once
// The Vulkan loader (libvulkan.so.1), opened with dlopen at the first use; the entry points in a
// table (vk()). Without a loader every Vulkan question answers "no Vulkan loader (...)".
#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <string>

#include "backends/vulkan/functions.hpp"

namespace vqtwin::vulkan {

struct Functions {
#define VQTWIN_VK_MEMBER(name) PFN_##name name = nullptr;
  VQTWIN_VK_GLOBAL(VQTWIN_VK_MEMBER)
  VQTWIN_VK_INSTANCE(VQTWIN_VK_MEMBER)
  VQTWIN_VK_DEVICE(VQTWIN_VK_MEMBER)
#undef VQTWIN_VK_MEMBER
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
};

// The table: global entries after load_loader(), instance entries after load_instance(), device
// entries after load_device() (one device table serves every device: vqtwin asks the loader's
// trampolines, which dispatch on the handle).
const Functions& vk();

// Opens the loader once; false with `why` ("no Vulkan loader (libvulkan.so.1: cannot open ...)").
// $VQTWIN_VULKAN_LOADER names another file to open.
bool load_loader(std::string* why);
void load_instance(VkInstance instance);

// "VK_ERROR_OUT_OF_DEVICE_MEMORY" and so on.
const char* result_name(VkResult r);
// Throws vqtwin::Error("Vulkan: WHAT failed: RESULT") unless r is VK_SUCCESS.
void check(VkResult r, const char* what);

}  // namespace vqtwin::vulkan
