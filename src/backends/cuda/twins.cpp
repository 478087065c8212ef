// The CUDA backend's list of twins: each feature folder's cuda.cu defines its ExtractorInfo.
#include "core/registry.hpp"

namespace vqtwin {

extern const ExtractorInfo kPsnrCudaInfo;
extern const ExtractorInfo kFloatPsnrCudaInfo;
extern const ExtractorInfo kFloatSsimCudaInfo;
extern const ExtractorInfo kIntegerSsimCudaInfo;
extern const ExtractorInfo kIntegerMotionCudaInfo;
extern const ExtractorInfo kIntegerVifCudaInfo;
extern const ExtractorInfo kIntegerAdmCudaInfo;
extern const ExtractorInfo kFloatVifCudaInfo;
extern const ExtractorInfo kFloatAdmCudaInfo;
extern const ExtractorInfo kFloatMsSsimCudaInfo;
extern const ExtractorInfo kFloatMotionCudaInfo;
extern const ExtractorInfo kSpeedChromaCudaInfo;
extern const ExtractorInfo kSpeedTemporalCudaInfo;
extern const ExtractorInfo kFloatMomentCudaInfo;
extern const ExtractorInfo kFloatAnsnrCudaInfo;
extern const ExtractorInfo kCiedeCudaInfo;
extern const ExtractorInfo kPsnrHvsCudaInfo;
extern const ExtractorInfo kCambiCudaInfo;

namespace {
const ExtractorInfo* const kTwins[] = {
    &kPsnrCudaInfo,
    &kFloatPsnrCudaInfo,
    &kFloatSsimCudaInfo,
    &kIntegerSsimCudaInfo,
    &kIntegerMotionCudaInfo,
    &kIntegerVifCudaInfo,
    &kIntegerAdmCudaInfo,
    &kFloatVifCudaInfo,
    &kFloatAdmCudaInfo,
    &kFloatMsSsimCudaInfo,
    &kFloatMotionCudaInfo,
    &kSpeedChromaCudaInfo,
    &kSpeedTemporalCudaInfo,
    &kFloatMomentCudaInfo,
    &kFloatAnsnrCudaInfo,
    &kCiedeCudaInfo,
    &kPsnrHvsCudaInfo,
    &kCambiCudaInfo,
};
}  // namespace

std::span<const ExtractorInfo* const> cuda_twins() { return kTwins; }

}  // namespace vqtwin
