#pragma once
// Output names made from a pattern: "out/{dist_stem}.json" gives each distorted input (a ladder's
// rendition, a batch row) its own file.
#include <map>
#include <string>

namespace vqtwin_cli {

bool is_pattern(const std::string& text);

// `pattern` with each {NAME} replaced by values.at(NAME); throws vqtwin::Error naming an unknown
// placeholder (and the known ones) or an unclosed brace.
std::string expand_pattern(const std::string& pattern, const std::map<std::string, std::string>& values,
                           const std::string& option = "-o");

}  // namespace vqtwin_cli
