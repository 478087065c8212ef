// The Vulkan backend's list of twins: each feature folder's vulkan.cpp defines its ExtractorInfo.
#include "core/registry.hpp"

namespace vqtwin {

extern const ExtractorInfo kPsnrVulkanInfo;
extern const ExtractorInfo kIntegerMotionVulkanInfo;
extern const ExtractorInfo kFloatPsnrVulkanInfo;
extern const ExtractorInfo kFloatMotionVulkanInfo;

namespace {
const ExtractorInfo* const kTwins[] = {
    &kPsnrVulkanInfo,
    &kIntegerMotionVulkanInfo,
    &kFloatPsnrVulkanInfo,
    &kFloatMotionVulkanInfo,
};
}  // namespace

std::span<const ExtractorInfo* const> vulkan_twins() { return kTwins; }

}  // namespace vqtwin
