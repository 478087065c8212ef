#pragma once
// The one exception type of vqtwin: its message is a complete, one-line explanation for the user.
#include <stdexcept>
#include <string>

#include "vqtwin/export.hpp"

namespace vqtwin {

class VQTWIN_API Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace vqtwin
