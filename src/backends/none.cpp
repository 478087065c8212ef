// Built when vqtwin has no CUDA backend: no twins, and no device is ever usable.
#include "backends/device.hpp"
#include "core/registry.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin {

std::span<const ExtractorInfo* const> cuda_twins() { return {}; }

int cuda_device_count(std::string* why) {
  if (why) *why = "this vqtwin was built without CUDA";
  return 0;
}

void cuda_share_with_decoder(int) {}

DecoderStream cuda_decoder_stream(int) { return {}; }

bool cuda_device_usable(int, std::string* why) {
  if (why) *why = "this vqtwin was built without CUDA";
  return false;
}

std::unique_ptr<DevicePipeline> make_cuda_pipeline(const PictureFormat&, int, unsigned) {
  throw Error("this vqtwin was built without CUDA");
}

}  // namespace vqtwin
