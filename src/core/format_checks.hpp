#pragma once
// Checks every extractor makes on the first picture, with one wording for all of them.
#include <string>
#include <string_view>

#include "vqtwin/error.hpp"
#include "vqtwin/picture.hpp"

namespace vqtwin {

// libvmaf's extractors are defined for 8, 10, 12 and 16 bits (other depths would compute garbage).
inline bool is_standard_bitdepth(int bitdepth) {
  return bitdepth == 8 || bitdepth == 10 || bitdepth == 12 || bitdepth == 16;
}

inline void require_standard_bitdepth(std::string_view extractor, int bitdepth) {
  if (!is_standard_bitdepth(bitdepth))
    throw Error(std::string(extractor) + ": bit depth " + std::to_string(bitdepth) +
                " is not supported (8, 10, 12, 16)");
}

}  // namespace vqtwin
