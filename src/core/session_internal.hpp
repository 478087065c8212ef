#pragma once
// What the file runner (core/engine.cpp) checks before it opens any input, so a bad --feature is
// reported first, as the CLI always did.
#include <string>

#include "dispatch/dispatch.hpp"

namespace vqtwin {

// The context a "--feature" text asks for; throws vqtwin::Error for an unknown feature or option.
ContextRequest request_from_text(const std::string& text);
void check_feature_text(const std::string& text);

}  // namespace vqtwin
