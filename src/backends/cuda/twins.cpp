// The CUDA backend's list of twins: each feature folder's cuda.cu defines its ExtractorInfo.
#include "core/registry.hpp"

namespace vqtwin {

extern const ExtractorInfo kPsnrCudaInfo;
extern const ExtractorInfo kFloatPsnrCudaInfo;

namespace {
const ExtractorInfo* const kTwins[] = {
    &kPsnrCudaInfo,
    &kFloatPsnrCudaInfo,
};
}  // namespace

std::span<const ExtractorInfo* const> cuda_twins() { return kTwins; }

}  // namespace vqtwin
