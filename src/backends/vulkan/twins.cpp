// The Vulkan backend's list of twins: each feature folder's vulkan.cpp defines its ExtractorInfo.
#include "core/registry.hpp"

namespace vqtwin {

extern const ExtractorInfo kPsnrVulkanInfo;
extern const ExtractorInfo kIntegerMotionVulkanInfo;
extern const ExtractorInfo kFloatPsnrVulkanInfo;
extern const ExtractorInfo kIntegerAdmVulkanInfo;
extern const ExtractorInfo kIntegerSsimVulkanInfo;
extern const ExtractorInfo kIntegerVifVulkanInfo;
extern const ExtractorInfo kFloatMotionVulkanInfo;
extern const ExtractorInfo kFloatSsimVulkanInfo;
extern const ExtractorInfo kFloatMsSsimVulkanInfo;
extern const ExtractorInfo kFloatVifVulkanInfo;
extern const ExtractorInfo kFloatAdmVulkanInfo;

namespace {
const ExtractorInfo* const kTwins[] = {
    &kPsnrVulkanInfo,
    &kIntegerMotionVulkanInfo,
    &kFloatPsnrVulkanInfo,
    &kIntegerAdmVulkanInfo,
    &kIntegerSsimVulkanInfo,
    &kIntegerVifVulkanInfo,
    &kFloatMotionVulkanInfo,
    &kFloatSsimVulkanInfo,
    &kFloatMsSsimVulkanInfo,
    &kFloatVifVulkanInfo,
    &kFloatAdmVulkanInfo,
};
}  // namespace

std::span<const ExtractorInfo* const> vulkan_twins() { return kTwins; }

}  // namespace vqtwin
