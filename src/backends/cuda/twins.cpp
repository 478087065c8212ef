// The CUDA backend's list of twins: each feature folder's cuda.cu defines its ExtractorInfo.
#include "core/registry.hpp"

namespace vqtwin {

extern const ExtractorInfo kPsnrCudaInfo;
extern const ExtractorInfo kFloatPsnrCudaInfo;
extern const ExtractorInfo kIntegerMotionCudaInfo;
extern const ExtractorInfo kIntegerVifCudaInfo;
extern const ExtractorInfo kIntegerAdmCudaInfo;

namespace {
const ExtractorInfo* const kTwins[] = {
    &kPsnrCudaInfo,
    &kFloatPsnrCudaInfo,
    &kIntegerMotionCudaInfo,
    &kIntegerVifCudaInfo,
    &kIntegerAdmCudaInfo,
};
}  // namespace

std::span<const ExtractorInfo* const> cuda_twins() { return kTwins; }

}  // namespace vqtwin
