#pragma once
// The Vulkan entry points vqtwin calls, as one X-macro list each for the three levels the loader
// resolves them at (global, instance, device). loader.cpp fills a table of pointers from these lists;
// nothing links libvulkan, so a binary built with Vulkan runs where no loader is installed.
#define VQTWIN_VK_GLOBAL(X) \
  X(vkCreateInstance)       \
  X(vkEnumerateInstanceVersion)

#define VQTWIN_VK_INSTANCE(X)                  \
  X(vkDestroyInstance)                         \
  X(vkEnumeratePhysicalDevices)                \
  X(vkGetPhysicalDeviceProperties)             \
  X(vkGetPhysicalDeviceProperties2)            \
  X(vkGetPhysicalDeviceFeatures2)              \
  X(vkGetPhysicalDeviceQueueFamilyProperties)  \
  X(vkGetPhysicalDeviceMemoryProperties)       \
  X(vkCreateDevice)                            \
  X(vkGetDeviceProcAddr)

#define VQTWIN_VK_DEVICE(X)          \
  X(vkDestroyDevice)                 \
  X(vkGetDeviceQueue)                \
  X(vkCreateBuffer)                  \
  X(vkDestroyBuffer)                 \
  X(vkGetBufferMemoryRequirements)   \
  X(vkAllocateMemory)                \
  X(vkFreeMemory)                    \
  X(vkBindBufferMemory)              \
  X(vkMapMemory)                     \
  X(vkUnmapMemory)                   \
  X(vkInvalidateMappedMemoryRanges)  \
  X(vkCreateShaderModule)            \
  X(vkDestroyShaderModule)           \
  X(vkCreateDescriptorSetLayout)     \
  X(vkDestroyDescriptorSetLayout)    \
  X(vkCreatePipelineLayout)          \
  X(vkDestroyPipelineLayout)         \
  X(vkCreateComputePipelines)        \
  X(vkDestroyPipeline)               \
  X(vkCreateDescriptorPool)          \
  X(vkDestroyDescriptorPool)         \
  X(vkAllocateDescriptorSets)        \
  X(vkUpdateDescriptorSets)          \
  X(vkCreateCommandPool)             \
  X(vkDestroyCommandPool)            \
  X(vkAllocateCommandBuffers)        \
  X(vkResetCommandPool)              \
  X(vkBeginCommandBuffer)            \
  X(vkEndCommandBuffer)              \
  X(vkCmdCopyBuffer)                 \
  X(vkCmdFillBuffer)                 \
  X(vkCmdPipelineBarrier)            \
  X(vkCmdBindPipeline)               \
  X(vkCmdBindDescriptorSets)         \
  X(vkCmdPushConstants)              \
  X(vkCmdDispatch)                   \
  X(vkQueueSubmit)                   \
  X(vkCreateSemaphore)               \
  X(vkDestroySemaphore)              \
  X(vkWaitSemaphores)                \
  X(vkDeviceWaitIdle)                \
  X(vkQueueWaitIdle)                 \
  X(vkResetDescriptorPool)           \
  X(vkCreateQueryPool)               \
  X(vkDestroyQueryPool)              \
  X(vkCmdResetQueryPool)             \
  X(vkCmdWriteTimestamp)             \
  X(vkGetQueryPoolResults)
