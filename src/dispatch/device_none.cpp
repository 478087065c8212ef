// Built when vqtwin has no CUDA backend: no device is ever available.
#include "dispatch/device.hpp"

namespace vqtwin {

bool device_available(Backend backend) { return backend == Backend::kCpu; }

}  // namespace vqtwin
