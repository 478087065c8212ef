#pragma once
// Whether a device backend can be used in this process (built in, and a device present).
#include "core/extractor.hpp"

namespace vqtwin {

bool device_available(Backend backend);

}  // namespace vqtwin
